import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { AppError } from '../../core/errors';
import { priceOrder } from '../../core/pricing';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { catalogServices, ledgerEntries, orders, users } from '../db/schema';
import { createLogger } from '../logger';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import type { OrderView } from '../../core/contracts/orders';
import { orderStats, partialRefundMicros, toOrderView, type OrdersDeps } from './service';
import { claimPending, submitOrder } from './submission';
import { placeOrderBody } from '../testing/orders';
import { latestOrders, orderCounts } from './staff';
import { reconcileOrders, syncOrderStatuses } from './sync';
import { sandboxClient } from '../testing/sandbox';
import { createProvider, singleProvider, type SmmProvider } from '../providers';
import { CACHE_CHANNEL } from '../cache';

let database: Database;
let sandbox: SandboxProvider;
let deps: OrdersDeps;
/** The same, with a client that gives up quickly: for the faults that leave a call unanswered. */
let hasty: OrdersDeps;
let service: typeof catalogServices.$inferSelect;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 60 });
  const provider = sandboxClient(sandbox, { timeoutMs: 10_000 });
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
  hasty = { ...deps, providers: singleProvider(sandboxClient(sandbox, { timeoutMs: 700 })) };
  await syncCatalog(database.db, provider);
  const all = await database.db.select().from(catalogServices);
  // A plain instagram service without extra params, minimum ≤ 100 and step dividing 100.
  service = all.find((s) => s.platform === 'instagram' && s.params.length === 0 && s.amountMinimum <= 100 && 100 % s.amountIncrement === 0 && (100 - s.amountMinimum) % s.amountIncrement === 0 && s.tiers[0]!.maximum >= 100)!;
  expect(service).toBeDefined();
});
afterEach(() => sandbox.control.reset());
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

const priceOf = (quantity: number) => priceOrder(service.tiers, quantity, { serviceFeePercent: 0, baseFee: 0 }).micros;
const order = (link: string, extra: Record<string, unknown> = {}) => ({
  serviceId: service.id,
  link,
  quantity: 100,
  params: {},
  idempotencyKey: randomUUID(),
  ...extra,
});
/** Accepts an order, then sends it as the submission worker does; the order as it stands afterwards. */
const placeAndSubmit = async (userId: string, body: unknown, d: OrdersDeps = deps): Promise<OrderView> => {
  const accepted = await placeOrderBody(d, userId, body);
  const [row] = await database.db.select().from(orders).where(eq(orders.id, accepted.id));
  return toOrderView(await submitOrder(d, row!));
};
const balanceOf = async (userId: string) => (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.balanceMicros;
const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
};

describe('placing an order', () => {
  it('debits the server-computed price once and submits to the provider; a price in the body is refused', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    // Refused as invalid input (the HTTP layer answers 422 VALIDATION_FAILED), nothing debited.
    await expect(placeOrderBody(deps, user.id, { ...order('https://instagram.com/artim.one'), chargeMicros: 1 })).rejects.toThrow(/unrecognized_keys[^]*chargeMicros/);
    expect(await balanceOf(user.id)).toBe(100_000_000);
    const placed = await placeOrderBody(deps, user.id, order('https://instagram.com/artim.one'));
    expect(placed.status).toBe('pending');
    expect(placed.chargeMicros).toBe(priceOf(100));
    expect(placed.number).toMatch(/^AR-[0-9A-Z]{10}$/);
    // Accepted and charged, not yet sent: the provider has heard nothing.
    const [accepted] = await database.db.select().from(orders).where(eq(orders.id, placed.id));
    expect(accepted).toMatchObject({ status: 'pending', submittedAt: null, providerOrderId: null });
    expect(sandbox.control.orders().filter((o) => o.link.includes('artim.one'))).toHaveLength(0);
    expect(await balanceOf(user.id)).toBe(100_000_000 - placed.chargeMicros);
    await submitOrder(deps, accepted!);
    const [row] = await database.db.select().from(orders).where(eq(orders.id, placed.id));
    expect(row!.providerOrderId).toBeTruthy();
    expect(await balanceOf(user.id)).toBe(100_000_000 - placed.chargeMicros);
    expect(sandbox.control.order(row!.providerOrderId!)).toBeDefined();
  });

  it('refuses invalid input with the shared rules before charging', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    expect(await code(placeOrderBody(deps, user.id, order('https://evil.example/instagram.com')))).toBe('LINK_INVALID');
    expect(await code(placeOrderBody(deps, user.id, order('https://instagram.com/x', { quantity: service.tiers[0]!.maximum + 1 })))).toBe('QUANTITY_OUT_OF_RANGE');
    expect(await code(placeOrderBody(deps, user.id, order('https://instagram.com/x', { serviceId: 'nope' })))).toBe('SERVICE_NOT_FOUND');
    expect(await balanceOf(user.id)).toBe(100_000_000);
  });

  it('refuses a second active order on the same link and platform', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    await placeOrderBody(deps, user.id, order('https://instagram.com/same.link'));
    expect(await code(placeOrderBody(deps, user.id, order('https://www.instagram.com/same.link/')))).toBe('ACTIVE_ORDER_EXISTS');
  });

  it('refuses an active order on the same link written another way; the provider gets the link as typed', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
    const first = await placeAndSubmit(user.id, order('https://www.instagram.com/p/Same.Post/?igsh=MTc4eDk'));
    const [row] = await database.db.select().from(orders).where(eq(orders.id, first.id));
    expect(sandbox.control.order(row!.providerOrderId!)!.link).toBe('https://www.instagram.com/p/Same.Post/?igsh=MTc4eDk');
    for (const variant of [
      'http://instagram.com/p/Same.Post',
      'https://INSTAGRAM.com/p/Same.Post/',
      'https://instagram.com/p/Same.Post?utm_source=ig_web_copy_link#comments',
      ' https://WWW.instagram.com/p/Same.Post// ',
    ]) {
      expect(await code(placeOrderBody(deps, user.id, order(variant))), variant).toBe('ACTIVE_ORDER_EXISTS');
    }
    // Another post is another target.
    expect(await code(placeOrderBody(deps, user.id, order('https://instagram.com/p/same.post')))).toBe('ok');
  });

  it('takes the links the Instagram app shares and refuses look-alike hosts, with the browser form’s rule', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
    for (const link of ['https://instagram.com@evil.example/artim', 'https://instagram.com.evil.example/reel/C9xYz12AbCd', 'https://157.240.1.174/artim']) {
      expect(await code(placeOrderBody(deps, user.id, order(link))), link).toBe('LINK_INVALID');
    }
    expect(await code(placeOrderBody(deps, user.id, order('https://m.instagram.com/reels/C9xYz12AbCd/?igsh=MWQ1ZGUx')))).toBe('ok');
    // The same reel shared from the profile is the same target.
    expect(await code(placeOrderBody(deps, user.id, order('https://www.instagram.com/artim/reel/C9xYz12AbCd/')))).toBe('ACTIVE_ORDER_EXISTS');
  });

  it('refuses when the balance is short, changing nothing', async () => {
    const user = await createCustomer(database.db, { balanceMicros: priceOf(100) - 1 });
    expect(await code(placeOrderBody(deps, user.id, order('https://instagram.com/short')))).toBe('INSUFFICIENT_BALANCE');
    expect(await database.db.select().from(orders).where(eq(orders.userId, user.id))).toHaveLength(0);
  });

  it('200 concurrent orders on a balance that covers exactly 10: 10 succeed, balance 0, ledger matches', async () => {
    const user = await createCustomer(database.db, { balanceMicros: priceOf(100) * 10 });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => code(placeOrderBody(deps, user.id, order(`https://instagram.com/concurrent.${i}`)))),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(10);
    expect(results.filter((r) => r !== 'ok').every((r) => r === 'INSUFFICIENT_BALANCE')).toBe(true);
    expect(await balanceOf(user.id)).toBe(0);
    expect(await verifyLedger(database.db)).toEqual([]);
  }, 120_000);

  it('announces the new balance once, after the commit: every instance forgets it, nobody is told twice', async () => {
    const notices: string[] = [];
    const stop = await database.listen(CACHE_CHANNEL, (payload) => notices.push(...payload.split('\n')));
    try {
      const users = await Promise.all(Array.from({ length: 3 }, () => createCustomer(database.db, { balanceMicros: priceOf(100) * 2 })));
      const mark = async () => {
        const m = `mark:${randomUUID()}`;
        await database.notify(CACHE_CHANNEL, m);
        await expect.poll(() => notices.includes(m), { timeout: 30_000 }).toBe(true);
      };
      await mark();
      notices.length = 0;
      await Promise.all(users.map((u, i) => placeOrderBody(deps, u.id, order(`https://instagram.com/announced.${i}`))));
      // The announcement follows the commits by a few milliseconds.
      await expect.poll(() => users.every((u) => notices.includes(`balance:${u.id}`)), { timeout: 30_000 }).toBe(true);
      await mark();
      // Not by the trigger at the commit as well (on PGlite, one backend, identical notices that
      // wait together arrive once: this half is PostgreSQL's).
      for (const u of users) expect(notices.filter((n) => n === `balance:${u.id}`)).toHaveLength(1);
    } finally {
      await stop();
    }
  });

  it('20 concurrent requests with one idempotency key: one order, one debit; another body is refused', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
    const body = order('https://instagram.com/idem');
    const results = await Promise.all(Array.from({ length: 20 }, () => placeOrderBody(deps, user.id, body)));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const charges = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id));
    expect(charges.filter((e) => e.kind === 'order_charge')).toHaveLength(1);
    expect(await code(placeOrderBody(deps, user.id, { ...body, quantity: body.quantity + service.amountIncrement }))).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('provider faults', () => {
  it('a refusal marks the order error with the messages and refunds in full', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    sandbox.control.setFault({ mode: 'refuse', actions: ['add'], message: 'Link is not valid for this service' });
    const placed = await placeAndSubmit(user.id, order('https://instagram.com/refused'));
    expect(placed.status).toBe('error');
    expect(placed.note?.code).toBe('provider_refused');
    expect(placed.note?.message).toContain('Link is not valid for this service');
    expect(await balanceOf(user.id)).toBe(100_000_000);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('a provider out of money does not lose the sale: the order waits for funds, charged, and is not sent again before its time', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    sandbox.control.setBalance('0');
    try {
      const placed = await placeAndSubmit(user.id, order('https://instagram.com/provider.broke'));
      expect(placed).toMatchObject({ status: 'pending', note: { code: 'awaiting_provider_funds', message: null } });
      expect(await balanceOf(user.id)).toBe(100_000_000 - placed.chargeMicros);
      expect((await claimPending(database.db, 1000)).map((o) => o.id)).not.toContain(placed.id);
    } finally {
      sandbox.control.setBalance(null);
    }
  });

  it('a v2 panel’s "Too many requests" sends nothing: the order waits its turn, charged, and goes out on the next send', async () => {
    const v2 = { ...deps, providers: singleProvider(createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 10_000 })) };
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    sandbox.control.setFault({ mode: 'refuse', actions: ['add'], message: 'Too many requests', times: 1 });
    const placed = await placeAndSubmit(user.id, order('https://instagram.com/provider.busy'), v2);
    expect(placed).toMatchObject({ status: 'pending', note: null });
    const [waiting] = await database.db.select().from(orders).where(eq(orders.id, placed.id));
    expect(waiting).toMatchObject({ submittedAt: null, providerOrderId: null });
    expect(await balanceOf(user.id)).toBe(100_000_000 - placed.chargeMicros);
    const sent = toOrderView(await submitOrder(v2, waiting!));
    expect(sent.status).toBe('pending');
    const [row] = await database.db.select().from(orders).where(eq(orders.id, placed.id));
    expect(row!.providerOrderId).toBe(sandbox.control.orders().find((o) => o.link.includes('provider.busy'))!.id);
  });

  for (const mode of ['timeout', '5xx', 'garbage'] as const) {
    it(`no usable answer (${mode}) leaves the order unknown and charged; nothing is re-sent`, async () => {
      const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
      sandbox.control.setFault({ mode, actions: ['add'] });
      const placed = await placeAndSubmit(user.id, order(`https://instagram.com/fault-${mode}`), hasty);
      expect(placed.status).toBe('unknown');
      expect(await balanceOf(user.id)).toBe(100_000_000 - placed.chargeMicros);
      sandbox.control.reset();
      // Within the grace period the provider's records are asked, the order stays charged.
      const result = await reconcileOrders(deps);
      expect(result.refunded).toBe(0);
      // After the grace period with no trace at the provider, it is refunded once.
      const later = new Date(Date.now() + 11 * 60_000);
      await reconcileOrders(deps, later);
      await reconcileOrders(deps, later);
      const [row] = await database.db.select().from(orders).where(eq(orders.id, placed.id));
      expect(row!.status).toBe('error');
      expect(await balanceOf(user.id)).toBe(100_000_000);
      expect(sandbox.control.orders().filter((o) => o.link.includes(`fault-${mode}`))).toHaveLength(0);
    });
  }

  it('an order the provider accepted without answering is found by reconciliation, not refunded', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    sandbox.control.setFault({ acceptThenTimeout: true, actions: ['add'] });
    const placed = await placeAndSubmit(user.id, order('https://instagram.com/accepted.silently'), hasty);
    expect(placed.status).toBe('unknown');
    sandbox.control.reset();
    const result = await reconcileOrders(deps, new Date(Date.now() + 11 * 60_000));
    expect(result.found).toBe(1);
    const [row] = await database.db.select().from(orders).where(eq(orders.id, placed.id));
    expect(row!.status).toBe('pending');
    expect(row!.providerOrderId).toBe(sandbox.control.orders().find((o) => o.link.includes('accepted.silently'))!.id);
    expect(await balanceOf(user.id)).toBe(100_000_000 - placed.chargeMicros);
  });

  it('keeps why an order failed or waits as a code beside the provider message, never as a sentence', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    sandbox.control.setFault({ mode: 'refuse', actions: ['add'], message: '' });
    const refused = await placeAndSubmit(user.id, order('https://instagram.com/note.refused'));
    expect(refused).toMatchObject({ status: 'error', note: { code: 'provider_refused', message: null } });

    sandbox.control.setFault({ mode: 'timeout', actions: ['add'] });
    const silent = await placeAndSubmit(user.id, order('https://instagram.com/note.silent'), hasty);
    expect(silent).toMatchObject({ status: 'unknown', note: { code: 'provider_no_answer', message: null } });
    sandbox.control.reset();
    await reconcileOrders(deps, new Date(Date.now() + 11 * 60_000));
    const [lost] = await database.db.select().from(orders).where(eq(orders.id, silent.id));
    expect(toOrderView(lost!)).toMatchObject({ status: 'error', note: { code: 'provider_never_received', message: null } });

    const sent = await placeAndSubmit(user.id, order('https://instagram.com/note.status-error'));
    const erring: OrdersDeps = {
      ...deps,
      providers: singleProvider(Object.assign(Object.create(deps.providers.forOrder({ providerId: null }).client) as SmmProvider, {
        status: async (ids: string[]) => new Map(ids.map((id) => [id, { error: 'Incorrect order ID' }])),
      })),
    };
    await syncOrderStatuses(erring);
    const [erred] = await database.db.select().from(orders).where(eq(orders.id, sent.id));
    expect(toOrderView(erred!).note).toEqual({ code: 'provider_status_error', message: 'Incorrect order ID' });
  });

  it('an order matched elsewhere while this reconciliation looked for it is not refunded', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    sandbox.control.setFault({ mode: 'timeout', actions: ['add'] });
    const placed = await placeAndSubmit(user.id, order('https://instagram.com/matched.elsewhere'), hasty);
    expect(placed.status).toBe('unknown');
    sandbox.control.reset();
    // While this reconciliation asks the provider (and hears of nothing), another process matches
    // the order to a provider order.
    const racing: OrdersDeps = {
      ...deps,
      providers: singleProvider(Object.assign(Object.create(deps.providers.forOrder({ providerId: null }).client) as SmmProvider, {
        findOrder: async () => {
          await database.db.update(orders).set({ providerOrderId: 'P-elsewhere', status: 'pending' }).where(eq(orders.id, placed.id));
          return null;
        },
      })),
    };
    const result = await reconcileOrders(racing, new Date(Date.now() + 11 * 60_000));
    expect(result.refunded).toBe(0);
    const [row] = await database.db.select().from(orders).where(eq(orders.id, placed.id));
    expect(row).toMatchObject({ status: 'pending', providerOrderId: 'P-elsewhere', refundedMicros: 0 });
    expect(await balanceOf(user.id)).toBe(100_000_000 - placed.chargeMicros);
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});

describe('the price the customer saw', () => {
  it('is charged when it is the server’s price; otherwise the order is refused with the new total and nothing is debited', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    const right = priceOf(100);
    const refused = await placeOrderBody(deps, user.id, order('https://instagram.com/shown.price', { expectedTotalMicros: right + 1 })).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('PRICE_CHANGED');
    expect((refused as AppError).details).toEqual({ totalMicros: right });
    expect(await balanceOf(user.id)).toBe(100_000_000);
    const placed = await placeOrderBody(deps, user.id, order('https://instagram.com/shown.price', { expectedTotalMicros: right }));
    expect(placed.chargeMicros).toBe(right);
    expect(await balanceOf(user.id)).toBe(100_000_000 - right);
  });
});

describe('order counters', () => {
  it('count a partial order as partial (not completed) and an unknown one as active', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
    const statuses = ['completed', 'partial', 'unknown', 'pending', 'refunded'] as const;
    for (const [i, status] of statuses.entries()) {
      const placed = await placeOrderBody(deps, user.id, order(`https://instagram.com/counters.${i}`));
      await database.db
        .update(orders)
        .set({ status, ...(status === 'refunded' ? { refundedMicros: placed.chargeMicros } : {}) })
        .where(eq(orders.id, placed.id));
    }
    expect(await orderStats(database.db, user.id)).toEqual({ total: 5, active: 2, completed: 1, partial: 1, error: 1 });
  });
});

describe('status sync', () => {
  it('moves orders through their states and settles refunds once: completed, partial, cancelled, refunded', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
    const placed = {
      done: await placeAndSubmit(user.id, order('https://instagram.com/sync.done')),
      partial: await placeAndSubmit(user.id, order('https://instagram.com/sync.sandbox-partial')),
      cancel: await placeAndSubmit(user.id, order('https://instagram.com/sync.sandbox-cancel')),
      refund: await placeAndSubmit(user.id, order('https://instagram.com/sync.sandbox-refund')),
    };
    sandbox.control.advance(20_000);
    await syncOrderStatuses(deps);
    const mid = await database.db.select().from(orders).where(eq(orders.id, placed.done.id));
    expect(['in_progress', 'processing', 'pending']).toContain(mid[0]!.status);

    sandbox.control.advance(120_000);
    await syncOrderStatuses(deps);
    await syncOrderStatuses(deps); // a second pass changes nothing
    const rows = Object.fromEntries(
      await Promise.all(
        Object.entries(placed).map(async ([k, p]) => [k, (await database.db.select().from(orders).where(eq(orders.id, p.id)))[0]!] as const),
      ),
    );
    expect(rows.done!.status).toBe('completed');
    expect(rows.done!.refundedMicros).toBe(0);
    expect(rows.partial!.status).toBe('partial');
    expect(rows.partial!.remains).toBeGreaterThan(0);
    expect(rows.partial!.refundedMicros).toBe(partialRefundMicros(rows.partial!.chargeMicros, rows.partial!.remains!, 100));
    expect(rows.cancel!.status).toBe('cancelled');
    expect(rows.cancel!.refundedMicros).toBe(rows.cancel!.chargeMicros);
    expect(rows.refund!.status).toBe('refunded');
    expect(rows.refund!.refundedMicros).toBe(rows.refund!.chargeMicros);

    const delivered = Object.values(rows).reduce((sum, r) => sum + r.chargeMicros - r.refundedMicros, 0);
    expect(await balanceOf(user.id)).toBe(1_000_000_000 - delivered);
    const refunds = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, 'order_refund'));
    expect(refunds.filter((r) => Object.values(placed).some((p) => r.reference.startsWith(`${p.id}:`)))).toHaveLength(rows.partial!.refundedMicros > 0 ? 3 : 2);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('computes partial refunds as charge × remains / quantity, rounded down, remains capped', () => {
    expect(partialRefundMicros(10_000_000, 250, 1000)).toBe(2_500_000);
    expect(partialRefundMicros(9_990_000, 1, 3)).toBe(3_330_000);
    expect(partialRefundMicros(1_000_000, 1, 3)).toBe(333_333);
    expect(partialRefundMicros(212_720, 1, 3)).toBe(70_906); // 70 906.67: rounded down to the micro, not the cent
    expect(partialRefundMicros(1_000_000, 5000, 1000)).toBe(1_000_000);
    expect(partialRefundMicros(1_000_000, 0, 1000)).toBe(0);
  });
});

describe('the admin dashboard’s order figures', () => {
  it('counts every order, the active ones (pending or at the provider) and the completed ones, and gives the newest first', async () => {
    const before = await orderCounts(database.db);
    const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
    const a = await placeOrderBody(deps, user.id, order('https://instagram.com/figures.a'));
    const b = await placeOrderBody(deps, user.id, order('https://instagram.com/figures.b'));
    const c = await placeOrderBody(deps, user.id, order('https://instagram.com/figures.c'));
    await database.db.update(orders).set({ status: 'completed' }).where(eq(orders.id, b.id));
    await database.db.update(orders).set({ status: 'processing' }).where(eq(orders.id, c.id));
    expect(await orderCounts(database.db)).toEqual({ total: before.total + 3, pending: before.pending + 2, completed: before.completed + 1, delayed: before.delayed, unknown: before.unknown });

    const latest = await latestOrders(database.db, 3);
    expect(latest.map((o) => o.id)).toEqual([c.id, b.id, a.id]);
    expect(latest[1]).toEqual({ id: b.id, number: b.number, serviceName: b.serviceName, createdAt: expect.any(String), chargeMicros: b.chargeMicros, status: 'completed' });
    expect(await latestOrders(database.db)).toHaveLength(Math.min(5, before.total + 3));
  });
});
