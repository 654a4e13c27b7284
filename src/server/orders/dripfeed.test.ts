import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { AppError } from '../../core/errors';
import { quantityBounds } from '../../core/orderRules';
import { priceOrder } from '../../core/pricing';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { catalogServices, ledgerEntries, orders, users } from '../db/schema';
import { createLogger } from '../logger';
import { singleProvider, createProvider } from '../providers';
import { requestCancel } from './cancels';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { credit, verifyLedger } from '../wallet/ledger';
import { cancelDripFeed, settleDripParents, startDueRuns } from './dripfeed';
import { refundOrder } from './refunds';
import { type OrdersDeps } from './service';
import { submitPending } from './worker';
import { orderDetail, refundByStaff } from './staff';
import { placeOrderBody } from '../testing/orders';
import { syncOrderStatuses } from './sync';
import { sandboxClient } from '../testing/sandbox';

let database: Database;
let sandbox: SandboxProvider;
let deps: OrdersDeps;
let drip: typeof catalogServices.$inferSelect;
let plain: typeof catalogServices.$inferSelect;

const plainParams = (s: typeof catalogServices.$inferSelect) => s.params.length === 0 && s.tiers.length > 0 && s.tiers[0]!.maximum >= s.amountMinimum * 2;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600, latencyMs: [0, 5] });
  const provider = sandboxClient(sandbox, { timeoutMs: 2000 });
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
  await syncCatalog(database.db, provider);
  const all = await database.db.select().from(catalogServices);
  drip = all.find((s) => s.dripfeed && plainParams(s))!;
  plain = all.find((s) => !s.dripfeed && plainParams(s))!;
  expect(drip).toBeDefined();
  expect(plain).toBeDefined();
});
// Each test looks at its own orders only: what an earlier test left scheduled or unsent is set aside.
afterEach(async () => {
  await database.db.execute(sql`update orders set next_run_at = null where next_run_at is not null`);
  await submitPending(deps);
  sandbox.control.reset();
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

const MINUTE_MS = 40;
const linkOf = (s: typeof catalogServices.$inferSelect, tag: string) =>
  ({ instagram: `https://instagram.com/drip.${tag}`, tiktok: `https://www.tiktok.com/@drip.${tag}`, youtube: `https://www.youtube.com/@drip${tag}`, facebook: `https://facebook.com/drip.${tag}`, twitter: `https://twitter.com/drip_${tag}`, telegram: `https://t.me/drip_${tag}`, linkedin: `https://www.linkedin.com/in/drip-${tag}` })[s.platform] ?? `https://example.com/${tag}`;
const dripOrder = (tag: string, extra: Record<string, unknown> = {}) => ({
  serviceId: drip.id,
  link: linkOf(drip, tag),
  quantity: drip.amountMinimum,
  params: {},
  idempotencyKey: randomUUID(),
  runs: 3,
  interval: 1,
  ...extra,
});
/** The largest quantity a service takes: charges of whole dollars, so refunds of a part are not rounded away. */
const largest = (s: typeof catalogServices.$inferSelect) => {
  const { min, max, step } = quantityBounds(s);
  return min + Math.floor((max - min) / step) * step;
};
const dripOrderOf = (s: typeof catalogServices.$inferSelect, tag: string, extra: Record<string, unknown> = {}) => ({ ...dripOrder(tag, extra), serviceId: s.id, link: linkOf(s, tag), quantity: largest(s) });
const perRunMicros = () => priceOrder(drip.tiers, drip.amountMinimum, { serviceFeePercent: 0, baseFee: 0 }).micros;
const balanceOf = async (userId: string) => (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.balanceMicros;
const row = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const runsOf = async (parentId: string) => database.db.select().from(orders).where(eq(orders.parentId, parentId)).orderBy(orders.createdAt);
const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof AppError ? e.code : 'error';
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('drip-feed orders', () => {
  it('are charged once for every run, in the one statement of acceptance; refused where the service or the numbers do not allow it', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 10_000_000_000 });
    const placed = await placeOrderBody(deps, user.id, dripOrder('charge'));
    expect(placed).toMatchObject({ status: 'running', quantity: drip.amountMinimum * 3, chargeMicros: perRunMicros() * 3, drip: { runs: 3, runsSent: 0, intervalMinutes: 1, quantityPerRun: drip.amountMinimum } });
    expect(await balanceOf(user.id)).toBe(10_000_000_000 - perRunMicros() * 3);
    const charges = await database.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, user.id), eq(ledgerEntries.kind, 'order_charge')));
    expect(charges.map((c) => c.amountMicros)).toEqual([-perRunMicros() * 3]);
    // The same request again replays the order; nothing more is taken.
    const body = dripOrder('replay');
    const first = await placeOrderBody(deps, user.id, body);
    expect((await placeOrderBody(deps, user.id, body)).id).toBe(first.id);

    const before = await balanceOf(user.id);
    expect(await code(placeOrderBody(deps, user.id, { ...dripOrder('plain'), serviceId: plain.id, link: linkOf(plain, 'plain'), quantity: plain.amountMinimum }))).toBe('DRIPFEED_NOT_AVAILABLE');
    expect(await code(placeOrderBody(deps, user.id, dripOrder('one-run', { runs: 1 })))).toBe('error'); // invalid input: 422 at the HTTP layer
    expect(await code(placeOrderBody(deps, user.id, dripOrder('no-interval', { interval: 0 })))).toBe('error');
    expect(await code(placeOrderBody(deps, user.id, dripOrder('half', { interval: undefined })))).toBe('error');
    expect(await code(placeOrderBody(deps, user.id, dripOrder('small', { quantity: drip.amountMinimum - 1 })))).toBe('QUANTITY_OUT_OF_RANGE');
    expect(await code(placeOrderBody(deps, user.id, dripOrder('big', { quantity: drip.tiers[0]!.maximum + drip.amountIncrement })))).toBe('QUANTITY_OUT_OF_RANGE');
    // Not enough for all the runs, though enough for one: refused whole.
    const poor = await createCustomer(database.db, { balanceMicros: perRunMicros() * 2 });
    expect(await code(placeOrderBody(deps, poor.id, dripOrder('poor')))).toBe('INSUFFICIENT_BALANCE');
    expect(await balanceOf(poor.id)).toBe(perRunMicros() * 2);
    expect(await balanceOf(user.id)).toBe(before);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('writes each run once on schedule and sends it once through the submission pipeline; the parent settles when its runs do', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 10_000_000_000 });
    const placed = await placeOrderBody(deps, user.id, dripOrder('schedule', { interval: 5 }));
    expect(await submitPending(deps)).toBe(0); // the parent itself is never sent

    expect(await startDueRuns(deps, { minuteMs: MINUTE_MS })).toBe(1);
    expect(await startDueRuns(deps, { minuteMs: MINUTE_MS })).toBe(0); // the next is 5 "minutes" away
    expect(await submitPending(deps)).toBe(1);
    for (let i = 0; i < 50 && (await row(placed.id)).runsSent < 3; i++) {
      await sleep(MINUTE_MS);
      await startDueRuns(deps, { minuteMs: MINUTE_MS });
      await submitPending(deps);
    }
    const parent = await row(placed.id);
    expect(parent).toMatchObject({ runsSent: 3, nextRunAt: null, status: 'running', providerOrderId: null, refundedMicros: 0 });
    const runs = await runsOf(placed.id);
    expect(runs).toHaveLength(3);
    expect(runs.map((r) => r.quantity)).toEqual([drip.amountMinimum, drip.amountMinimum, drip.amountMinimum]);
    expect(runs.map((r) => r.chargeMicros)).toEqual([perRunMicros(), perRunMicros(), perRunMicros()]);
    // At least the interval between two runs.
    expect(runs[1]!.createdAt.getTime() - runs[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(5 * MINUTE_MS - 5);
    const atProvider = sandbox.control.orders().filter((o) => o.link === placed.link);
    expect(atProvider).toHaveLength(3);
    expect(new Set(runs.map((r) => r.providerOrderId))).toEqual(new Set(atProvider.map((o) => o.id)));
    expect(await startDueRuns(deps, { minuteMs: MINUTE_MS })).toBe(0);
    expect(await submitPending(deps)).toBe(0);

    // Not settled while a run is still on its way; completed once every run completed.
    sandbox.control.setOrderState(runs[0]!.providerOrderId!, 'completed');
    sandbox.control.setOrderState(runs[1]!.providerOrderId!, 'completed');
    await syncOrderStatuses(deps);
    await settleDripParents(deps);
    expect((await row(placed.id)).status).toBe('running');
    sandbox.control.setOrderState(runs[2]!.providerOrderId!, 'completed');
    await syncOrderStatuses(deps);
    await settleDripParents(deps);
    expect(await row(placed.id)).toMatchObject({ status: 'completed', remains: 0, refundedMicros: 0 });
    // One charge for the whole, no charge for the runs.
    const entries = await database.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, user.id), sql`${ledgerEntries.kind} like 'order_%'`));
    expect(entries.map((e) => [e.kind, e.amountMicros])).toEqual([['order_charge', -perRunMicros() * 3]]);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('writes every run exactly once when many processes look at the same time', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000_000 });
    const parents = await Promise.all(Array.from({ length: 8 }, (_, i) => placeOrderBody(deps, user.id, dripOrder(`race${i}`, { runs: 4 }))));
    // Eight "instances" writing runs at once, several rounds; the interval is one 10 ms minute.
    for (let round = 0; round < 30; round++) {
      await Promise.all(Array.from({ length: 8 }, () => startDueRuns(deps, { minuteMs: 10 })));
      await sleep(12);
    }
    for (const p of parents) {
      const runs = await runsOf(p.id);
      expect(runs.map((r) => r.idempotencyKey).sort()).toEqual([1, 2, 3, 4].map((n) => `drip:${p.id}:${n}`));
      expect((await row(p.id)).runsSent).toBe(4);
    }
    // And each run is sent once, by concurrent submission passes.
    await Promise.all(Array.from({ length: 4 }, () => submitPending(deps, { limit: 10, concurrency: 4 })));
    await submitPending(deps);
    const links = new Set(parents.map((p) => p.link));
    expect(sandbox.control.orders().filter((o) => links.has(o.link))).toHaveLength(32);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('cancelling the parent refunds the runs not yet sent, once, and stops the schedule', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 10_000_000_000 });
    const placed = await placeOrderBody(deps, user.id, dripOrder('cancel', { runs: 4, interval: 60 }));
    await startDueRuns(deps, { minuteMs: MINUTE_MS });
    await submitPending(deps);
    const before = await balanceOf(user.id);
    const after = await requestCancel(deps, await row(placed.id), 'site');
    expect(after).toMatchObject({ nextRunAt: null, refundedMicros: perRunMicros() * 3, remains: drip.amountMinimum * 3, status: 'running' });
    expect(await balanceOf(user.id)).toBe(before + perRunMicros() * 3);
    // Not twice, and no more runs.
    expect(await code(cancelDripFeed(deps, placed.id))).toBe('CANCEL_NOT_ALLOWED');
    expect(await code(requestCancel(deps, await row(placed.id), 'api'))).toBe('CANCEL_NOT_ALLOWED');
    await database.db.execute(sql`update orders set created_at = created_at where id = ${placed.id}`);
    expect(await startDueRuns(deps, { minuteMs: 1 })).toBe(0);
    expect(await runsOf(placed.id)).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(before + perRunMicros() * 3);

    // The run already sent goes on; the parent settles as partial once it is done.
    const [run] = await runsOf(placed.id);
    sandbox.control.setOrderState(run!.providerOrderId!, 'completed');
    await syncOrderStatuses(deps);
    await settleDripParents(deps);
    expect(await row(placed.id)).toMatchObject({ status: 'partial', remains: drip.amountMinimum * 3, refundedMicros: perRunMicros() * 3 });

    // Cancelled before any run was written: the whole charge back, `cancelled`.
    const early = await placeOrderBody(deps, user.id, dripOrder('early'));
    const beforeEarly = await balanceOf(user.id);
    expect(await cancelDripFeed(deps, early.id)).toMatchObject({ status: 'cancelled', refundedMicros: early.chargeMicros, nextRunAt: null });
    expect(await balanceOf(user.id)).toBe(beforeEarly + early.chargeMicros);
    expect(await startDueRuns(deps, { minuteMs: 1 })).toBe(0);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('a cancel racing the schedule refunds exactly the runs that were not written', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000_000 });
    const parents = await Promise.all(Array.from({ length: 6 }, (_, i) => placeOrderBody(deps, user.id, dripOrder(`cancelrace${i}`, { runs: 5 }))));
    const start = await balanceOf(user.id);
    // Runs written every 5 ms by four writers while each parent is cancelled at some point.
    let stop = false;
    const writers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        await startDueRuns(deps, { minuteMs: 5 });
        await sleep(2);
      }
    });
    await Promise.all(parents.map(async (p, i) => {
      await sleep(4 * i);
      await cancelDripFeed(deps, p.id).catch((e) => expect(e).toMatchObject({ code: 'CANCEL_NOT_ALLOWED' }));
    }));
    stop = true;
    await Promise.all(writers);
    let refunded = 0;
    for (const p of parents) {
      const parent = await row(p.id);
      const written = (await runsOf(p.id)).length;
      expect(written).toBe(parent.runsSent);
      expect(parent.nextRunAt).toBeNull();
      expect(parent.refundedMicros).toBe((5 - written) * perRunMicros());
      refunded += parent.refundedMicros;
    }
    expect(await balanceOf(user.id)).toBe(start + refunded);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('counts a run as sent only when its row was written: a run whose key is taken stops the schedule, and the runs not written are refunded', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 10_000_000_000 });
    const placed = await placeOrderBody(deps, user.id, dripOrder('taken', { runs: 3, interval: 60 }));
    const plainOrder = await placeOrderBody(deps, user.id, { serviceId: plain.id, link: linkOf(plain, 'taken-plain'), quantity: plain.amountMinimum, params: {}, idempotencyKey: randomUUID() });
    // Other orders of the customer hold the first run's key, in the form runs had before and in theirs now.
    await database.db.update(orders).set({ idempotencyKey: `drip_${placed.id}_1` }).where(eq(orders.id, plainOrder.id));
    const other = await placeOrderBody(deps, user.id, { serviceId: plain.id, link: linkOf(plain, 'taken-other'), quantity: plain.amountMinimum, params: {}, idempotencyKey: randomUUID() });
    await database.db.update(orders).set({ idempotencyKey: `drip:${placed.id}:1` }).where(eq(orders.id, other.id));
    const charged = await balanceOf(user.id);

    expect(await startDueRuns(deps, { minuteMs: MINUTE_MS })).toBe(0);
    expect(await runsOf(placed.id)).toEqual([]);
    // Nothing counted as sent; the parent is settled at once with its whole charge back.
    expect(await row(placed.id)).toMatchObject({ runsSent: 0, nextRunAt: null, status: 'cancelled', refundedMicros: placed.chargeMicros });
    expect(await balanceOf(user.id)).toBe(charged + placed.chargeMicros);
    expect(await startDueRuns(deps, { minuteMs: 1 })).toBe(0);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('a run the provider refuses is refunded its share, not more', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 10_000_000_000 });
    const placed = await placeOrderBody(deps, user.id, dripOrder('refused', { runs: 2, interval: 1 }));
    const charged = await balanceOf(user.id);
    sandbox.control.setFault({ mode: 'refuse', actions: ['add'], times: 1, message: 'Incorrect link' });
    await startDueRuns(deps, { minuteMs: 1 });
    await submitPending(deps);
    await sleep(5);
    await startDueRuns(deps, { minuteMs: 1 });
    await submitPending(deps);
    const runs = await runsOf(placed.id);
    expect(runs.map((r) => r.status).sort()).toEqual(['error', 'pending']);
    expect(runs.find((r) => r.status === 'error')).toMatchObject({ refundedMicros: perRunMicros() });
    expect(await balanceOf(user.id)).toBe(charged + perRunMicros());
    const ok = runs.find((r) => r.status === 'pending')!;
    sandbox.control.setOrderState(ok.providerOrderId!, 'completed');
    await syncOrderStatuses(deps);
    await settleDripParents(deps);
    expect(await row(placed.id)).toMatchObject({ status: 'partial', remains: drip.amountMinimum, refundedMicros: 0 });
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});

describe('refunds of a drip-feed', () => {
  /** Through SMM API v2, which lists the services that may be cancelled and cancels them. */
  let v2: OrdersDeps;
  let dripCancel: typeof catalogServices.$inferSelect;
  beforeAll(async () => {
    const v2Client = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 2000 });
    v2 = { ...deps, providers: singleProvider(v2Client) };
    await syncCatalog(database.db, v2Client);
    dripCancel = (await database.db.select().from(catalogServices)).find((s) => s.dripfeed && s.cancel && plainParams(s))!;
    expect(dripCancel).toBeDefined();
  });
  /** Writes and sends every run of a parent (one 1-"minute" interval apart). */
  async function writeAllRuns(parentId: string) {
    for (let i = 0; i < 50 && ((await row(parentId)).nextRunAt !== null || (await row(parentId)).runsSent === 0); i++) {
      await startDueRuns(deps, { minuteMs: 1 });
      await submitPending(deps);
      await sleep(3);
    }
    await submitPending(deps);
    const runs = await runsOf(parentId);
    expect(runs.every((r) => r.providerOrderId !== null)).toBe(true);
    return runs;
  }
  const staffRefund = (id: string, amountMicros?: number) => database.db.transaction((tx) => refundByStaff(tx, id, { amountMicros, reason: 'the rest' }));
  /** Every refund the customer got, from the ledger. */
  const refundedTo = async (userId: string) =>
    (await database.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'order_refund')))).reduce((sum, e) => sum + e.amountMicros, 0);

  it('runs cancelled by the customer, then the rest refunded by the team: the parent’s charge comes back once, not more', async () => {
    const start = 10_000_000_000;
    const user = await createCustomer(database.db, { balanceMicros: start });
    const placed = await placeOrderBody(deps, user.id, dripOrderOf(dripCancel, 'runs-cancelled', { runs: 3 }));
    const share = placed.chargeMicros / 3;
    const runs = await writeAllRuns(placed.id);
    expect(runs).toHaveLength(3);
    // The first run is delivered; the customer cancels the other two before they start (each gets its share back).
    sandbox.control.setOrderState(runs[0]!.providerOrderId!, 'completed');
    await syncOrderStatuses(deps);
    for (const r of runs.slice(1)) expect(await requestCancel(v2, await row(r.id), 'site')).toMatchObject({ status: 'cancelled', refundedMicros: share });
    await settleDripParents(deps);
    expect(await row(placed.id)).toMatchObject({ status: 'partial', refundedMicros: 0 });
    expect(await balanceOf(user.id)).toBe(start - share);

    // The team's detail of the parent shows what its runs gave back and what is left of the whole.
    const detail = await orderDetail(database.db, await row(placed.id));
    expect(detail.order).toMatchObject({ refundedMicros: 0, runsRefundedMicros: share * 2, refundableMicros: share });
    expect(detail.ledger.filter((e) => e.kind === 'order_refund').map((e) => [e.runNumber, e.amountMicros])).toEqual(runs.slice(1).map((r) => [r.number, share]));

    // "Refund the rest" gives back what is left of the whole charge: the delivered run's share.
    const rest = await staffRefund(placed.id);
    expect(rest.refundedMicros).toBe(share);
    expect(await code(staffRefund(placed.id))).toBe('VALIDATION_FAILED');
    expect(await code(staffRefund(runs[1]!.id))).toBe('VALIDATION_FAILED');
    expect(await refundedTo(user.id)).toBe(placed.chargeMicros);
    expect(await balanceOf(user.id)).toBe(start);
    expect((await orderDetail(database.db, await row(placed.id))).order).toMatchObject({ runsRefundedMicros: placed.chargeMicros, refundableMicros: 0 });
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('runs ended cancelled and partial by the provider, then the rest refunded by the team: the parent’s charge comes back once, not more', async () => {
    const start = 10_000_000_000;
    const user = await createCustomer(database.db, { balanceMicros: start });
    const placed = await placeOrderBody(deps, user.id, dripOrderOf(drip, 'runs-ended', { runs: 2 }));
    const share = placed.chargeMicros / 2;
    const runs = await writeAllRuns(placed.id);
    sandbox.control.setOrderState(runs[0]!.providerOrderId!, 'partial', Math.floor(runs[0]!.quantity / 3));
    sandbox.control.setOrderState(runs[1]!.providerOrderId!, 'cancelled');
    await syncOrderStatuses(deps);
    const [partial, cancelled] = [await row(runs[0]!.id), await row(runs[1]!.id)];
    expect([partial.status, cancelled.status, cancelled.refundedMicros]).toEqual(['partial', 'cancelled', share]);
    expect(partial.refundedMicros).toBeGreaterThan(0);
    await settleDripParents(deps);
    expect((await row(placed.id)).status).toBe('partial');
    expect(await refundedTo(user.id)).toBe(share + partial.refundedMicros);

    // A part first, then the rest: together what the runs did not give back.
    const part = await staffRefund(placed.id, 10_000);
    expect(part.refundedMicros).toBe(10_000);
    const rest = await staffRefund(placed.id);
    expect(rest.refundedMicros).toBe(share - partial.refundedMicros - 10_000);
    expect(await code(staffRefund(placed.id))).toBe('VALIDATION_FAILED');
    expect(await refundedTo(user.id)).toBe(placed.chargeMicros);
    expect(await balanceOf(user.id)).toBe(start);
    // The provider refunding the partial run afterwards gives nothing more.
    sandbox.control.setOrderState(runs[0]!.providerOrderId!, 'refunded');
    await syncOrderStatuses(deps);
    expect(await row(runs[0]!.id)).toMatchObject({ status: 'refunded', refundedMicros: share });
    expect(await balanceOf(user.id)).toBe(start);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('while runs are still to come, the team refunds only the runs written; a cancel then refunds the others, and nothing twice', async () => {
    const start = 10_000_000_000;
    const user = await createCustomer(database.db, { balanceMicros: start });
    const placed = await placeOrderBody(deps, user.id, dripOrderOf(drip, 'team-first', { runs: 3, interval: 60 }));
    const share = placed.chargeMicros / 3;
    await startDueRuns(deps, { minuteMs: MINUTE_MS });
    await submitPending(deps);
    const [run] = await runsOf(placed.id);
    expect((await staffRefund(placed.id)).refundedMicros).toBe(share);
    expect(await row(run!.id)).toMatchObject({ refundedMicros: share });
    // The parent's own row gives back only runs that will never be written.
    const parent = await row(placed.id);
    await expect(database.db.transaction((tx) => refundOrder(tx, parent, { amountMicros: 1, reason: 'more' }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await cancelDripFeed(deps, placed.id);
    // The provider cancelling the run written (already refunded by the team) gives nothing more.
    sandbox.control.setOrderState(run!.providerOrderId!, 'cancelled');
    await syncOrderStatuses(deps);
    await settleDripParents(deps);
    expect(await row(placed.id)).toMatchObject({ status: 'partial', refundedMicros: share * 2 });
    expect(await refundedTo(user.id)).toBe(placed.chargeMicros);
    expect(await balanceOf(user.id)).toBe(start);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('the ledger check reports a drip-feed given back more than its charge', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 10_000_000_000 });
    const placed = await placeOrderBody(deps, user.id, dripOrder('overpaid', { runs: 2, interval: 60 }));
    await startDueRuns(deps, { minuteMs: MINUTE_MS });
    const [run] = await runsOf(placed.id);
    // Each row within its own charge, the family beyond the parent's: as refunds were before.
    await database.db.transaction(async (tx) => {
      await credit(tx, { userId: user.id, amountMicros: placed.chargeMicros, kind: 'order_refund', reference: `${placed.id}:${placed.chargeMicros}` });
      await tx.update(orders).set({ refundedMicros: placed.chargeMicros }).where(eq(orders.id, placed.id));
      await credit(tx, { userId: user.id, amountMicros: run!.chargeMicros, kind: 'order_refund', reference: `${run!.id}:${run!.chargeMicros}` });
      await tx.update(orders).set({ refundedMicros: run!.chargeMicros }).where(eq(orders.id, run!.id));
    });
    expect((await verifyLedger(database.db)).filter((v) => v.userId === user.id)).toEqual([
      { userId: user.id, dripFeedId: placed.id, chargeMicros: placed.chargeMicros, refundedMicros: placed.chargeMicros + run!.chargeMicros },
    ]);
    // Set right again for the other tests' checks.
    await database.db.delete(ledgerEntries).where(and(eq(ledgerEntries.userId, user.id), eq(ledgerEntries.kind, 'order_refund')));
    await database.db.update(users).set({ balanceMicros: 10_000_000_000 - placed.chargeMicros }).where(eq(users.id, user.id));
    await database.db.update(orders).set({ refundedMicros: 0 }).where(eq(orders.parentId, placed.id));
    await database.db.update(orders).set({ refundedMicros: 0 }).where(eq(orders.id, placed.id));
  });
});
