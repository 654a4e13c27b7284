import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { delayOf, delayThresholdMinutes } from '../../core/orderDelay';
import { DEFAULT_SETTINGS } from '../../core/settings';
import { signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { syncCatalog } from '../catalog';
import type { Database } from '../db/client';
import { catalogServices, orderCancels, orders } from '../db/schema';
import { createLogger } from '../logger';
import { createProvider, singleProvider } from '../providers';
import { saveSettings } from '../settings';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { placeOrderBody } from '../testing/orders';
import { credit, verifyLedger } from '../wallet/ledger';
import { newOrderNumber, toOrderView, type OrderRow, type OrdersDeps } from './service';
import { checkDelayedOrders } from './stuck';
import { applyState } from './sync';
import { submitPending } from './worker';

/**
 * Delayed orders, checked on a clock the test sets (`now`): the sandbox provider speaks SMM API v2
 * over HTTP and its own clock stands still, so its orders show no progress until told.
 */
let database: Database;
let sandbox: SandboxProvider;
let deps: OrdersDeps;
let app: Hono;
let admin: string;
let customer: Awaited<ReturnType<typeof signUpUser>>;

const NOW = new Date('2026-06-01T12:00:00Z');
const MIN = 60_000;
const minutesBefore = (m: number) => new Date(NOW.getTime() - m * MIN);

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600, seed: 11, clock: 'manual' });
  const provider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 30_000 });
  await syncCatalog(database.db, provider);
  ({ app } = await createTestApp(database, { providers: singleProvider(provider) }));
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  customer = await signUpUser(app);
  await credit(database.db, { userId: customer.id, amountMicros: 1_000_000_000, kind: 'topup', reference: `stuck-${customer.id}` });
  await database.db.insert(catalogServices).values(
    ['st-usual', 'st-quick', 'st-new'].map((id) => ({
      id,
      platform: 'instagram',
      name: `Instagram Followers ${id}`,
      type: 'Followers',
      amountMinimum: 10,
      amountIncrement: 1,
      tiers: [{ minimum: 10, maximum: 1000, price: '1.00', pricingPer: 1000 }],
      params: [],
    })),
  );
  // st-usual started 100, 110, 120, 130 and 140 minutes after placement: p90 136 minutes.
  // st-quick started within 1 to 5 minutes: p90 5 minutes, below the floor. st-new has no history.
  await finished('st-usual', [100, 110, 120, 130, 140]);
  await finished('st-quick', [1, 2, 3, 4, 5]);
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

const read = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

function row(serviceId: string, set: Partial<typeof orders.$inferInsert>): typeof orders.$inferInsert {
  return {
    number: newOrderNumber(),
    userId: customer.id,
    serviceId,
    serviceName: serviceId,
    platform: 'instagram',
    serviceType: 'Followers',
    link: `https://instagram.com/${randomUUID().slice(0, 8)}`,
    linkKey: randomUUID(),
    quantity: 100,
    chargeMicros: 1_000_000,
    idempotencyKey: randomUUID(),
    requestHash: 'h',
    status: 'pending',
    providerOrderId: `p-${randomUUID()}`,
    ...set,
  };
}

async function finished(serviceId: string, startMinutes: number[]) {
  const t0 = Date.parse('2026-05-01T00:00:00Z');
  await database.db.insert(orders).values(
    startMinutes.map((m, i) => {
      const created = t0 + i * 3600_000;
      return row(serviceId, { status: 'completed', createdAt: new Date(created), updatedAt: new Date(created + 86_400_000), startedAt: new Date(created + m * MIN), completedAt: new Date(created + 600 * MIN) });
    }),
  );
}

/** An order the provider accepted, sent `minutes` before NOW. */
async function sent(serviceId: string, minutes: number, set: Partial<typeof orders.$inferInsert> = {}): Promise<OrderRow> {
  const [o] = await database.db
    .insert(orders)
    .values(row(serviceId, { submittedAt: minutesBefore(minutes), createdAt: minutesBefore(minutes + 1), ...set }))
    .returning();
  return o!;
}

const send = (method: string, path: string, cookie?: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('the delay threshold', () => {
  it('is the service’s p90 start when known, else the default, never below the floor', () => {
    const s = { stuck_floor_minutes: 60, stuck_default_minutes: 360 };
    expect(delayThresholdMinutes(136, s)).toBe(136);
    expect(delayThresholdMinutes(5, s)).toBe(60);
    expect(delayThresholdMinutes(null, s)).toBe(360);
    expect(delayThresholdMinutes(null, { stuck_floor_minutes: 60, stuck_default_minutes: 30 })).toBe(60);
    expect(DEFAULT_SETTINGS).toMatchObject({ stuck_floor_minutes: 60, stuck_default_minutes: 360, stuck_cancel_after_hours: 0 });
  });
});

describe('finding delayed orders', () => {
  it('flags an order with no progress past its service’s p90 start once, and not one before it', async () => {
    const late = await sent('st-usual', 137);
    const early = await sent('st-usual', 135);
    const first = await checkDelayedOrders(deps, NOW);
    expect(first.flagged).toContain(late.id);
    expect(first.flagged).not.toContain(early.id);
    expect(first.cancels.size).toBe(0);
    expect(await read(late.id)).toMatchObject({ status: 'pending', delayedAt: NOW, delayMinutes: 136 });
    expect((await read(early.id)).delayedAt).toBeNull();

    const again = await checkDelayedOrders(deps, new Date(NOW.getTime() + 10 * MIN));
    expect(again.flagged).not.toContain(late.id);
    expect(again.flagged).toContain(early.id);
    expect((await read(late.id)).delayedAt).toEqual(NOW);
  });

  it('uses the floor for a service that usually starts sooner, and the default for one without enough orders', async () => {
    const quickEarly = await sent('st-quick', 59);
    const quickLate = await sent('st-quick', 61);
    const newEarly = await sent('st-new', 359);
    const newLate = await sent('st-new', 361);
    const { flagged } = await checkDelayedOrders(deps, NOW);
    expect(flagged).toEqual(expect.arrayContaining([quickLate.id, newLate.id]));
    expect(flagged).not.toContain(quickEarly.id);
    expect(flagged).not.toContain(newEarly.id);
    expect((await read(quickLate.id)).delayMinutes).toBe(60);
    expect((await read(newLate.id)).delayMinutes).toBe(360);
  });

  it('follows the settings: a lower default and floor flag sooner', async () => {
    const o = await sent('st-new', 45);
    expect((await checkDelayedOrders(deps, NOW)).flagged).not.toContain(o.id);
    await saveSettings(database.db, { stuck_default_minutes: 40, stuck_floor_minutes: 30 });
    try {
      expect((await checkDelayedOrders(deps, NOW)).flagged).toContain(o.id);
      expect((await read(o.id)).delayMinutes).toBe(40);
    } finally {
      await saveSettings(database.db, { stuck_default_minutes: 360, stuck_floor_minutes: 60 });
    }
  });

  it('leaves alone orders that started, show progress, ended, or are not at the provider', async () => {
    const started = await sent('st-new', 1000, { status: 'in_progress', startedAt: minutesBefore(900) });
    const counted = await sent('st-new', 1000, { startCount: 250 });
    const delivering = await sent('st-new', 1000, { remains: 40 });
    const done = await sent('st-new', 1000, { status: 'completed', startedAt: minutesBefore(900), completedAt: minutesBefore(800) });
    const unsent = await sent('st-new', 1000, { providerOrderId: null, submittedAt: null });
    const { flagged } = await checkDelayedOrders(deps, NOW);
    for (const o of [started, counted, delivering, done, unsent]) {
      expect(flagged).not.toContain(o.id);
      expect((await read(o.id)).delayedAt).toBeNull();
    }
  });

  it('is shown to the owner with the usual minutes until the order starts, without changing its status', async () => {
    const o = await sent('st-usual', 500);
    await checkDelayedOrders(deps, NOW);
    const flagged = await read(o.id);
    expect(toOrderView(flagged)).toMatchObject({ status: 'pending', delay: { since: NOW.toISOString(), usualMinutes: 136 } });

    const list = (await (await app.request('/api/orders', { headers: { cookie: customer.cookie } })).json()) as { orders: { id: string; delay?: unknown }[] };
    expect(list.orders.find((x) => x.id === o.id)!.delay).toEqual({ since: NOW.toISOString(), usualMinutes: 136 });
    const tracked = await (await app.request(`/api/track/${o.number}`)).json();
    expect(tracked).toMatchObject({ status: 'pending', delay: { usualMinutes: 136 } });

    await applyState(deps, flagged, { status: 'in_progress', startCount: 10, remains: 100, currentCount: null, delivered: null, raw: 'In progress', charge: null, currency: null }, new Date());
    const moving = await read(o.id);
    expect(moving.delayedAt).toEqual(NOW);
    expect(toOrderView(moving).delay).toBeNull();
  });

  it('is counted on the admin dashboard and listed by the orders filter', async () => {
    const o = await sent('st-usual', 600);
    await checkDelayedOrders(deps, NOW);
    // The team counts what the owners are shown.
    const n = (await database.db.select().from(orders)).filter((x) => delayOf(x) !== null).length;
    const dashboard = await (await send('GET', '/api/admin/dashboard', admin)).json();
    expect(dashboard.delayedOrders).toBe(n);
    expect(n).toBeGreaterThan(0);
    const page = await (await send('GET', '/api/admin/orders?delayed=1', admin)).json();
    expect(page.total).toBe(n);
    expect(page.orders.map((x: { id: string }) => x.id)).toContain(o.id);
    expect(page.orders.every((x: { delay: unknown }) => x.delay !== null)).toBe(true);
    expect((await send('GET', '/api/admin/orders?delayed=yes', admin)).status).toBe(422);
  });
});

describe('cancelling delayed orders past the team’s limit', () => {
  it('asks the provider once, and the provider’s cancel refunds the order in full', async () => {
    const service = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.params.length === 0 && s.cancel)!;
    expect(service).toBeTruthy();
    const placed = await placeOrderBody(deps, customer.id, {
      serviceId: service.id,
      link: `https://www.tiktok.com/@stuck/video/${Date.now()}`,
      quantity: service.amountMinimum,
      idempotencyKey: randomUUID(),
    });
    await submitPending(deps);
    const o = await read(placed.id);
    expect(o).toMatchObject({ status: 'pending', startedAt: null });
    expect(o.providerOrderId).not.toBeNull();
    const sentAt = o.submittedAt!.getTime();
    const cancelCalls = () => sandbox.control.calls()['smm-v2:cancel'] ?? 0;
    const before = cancelCalls();

    // Without a limit nothing is cancelled: the order is only flagged.
    const flaggedOnly = await checkDelayedOrders(deps, new Date(sentAt + 400 * MIN));
    expect(flaggedOnly.flagged).toContain(o.id);
    expect(flaggedOnly.cancels.size).toBe(0);

    await saveSettings(database.db, { stuck_cancel_after_hours: 8 });
    try {
      // Delayed, but not yet past the limit.
      expect((await checkDelayedOrders(deps, new Date(sentAt + 7 * 60 * MIN))).cancels.has(o.id)).toBe(false);
      expect(cancelCalls()).toBe(before);

      const past = await checkDelayedOrders(deps, new Date(sentAt + 8 * 60 * MIN + MIN));
      const outcome = past.cancels.get(o.id);
      expect(outcome && 'order' in outcome ? outcome.order : outcome).toMatchObject({ status: 'cancelled', refundedMicros: o.chargeMicros });
      expect(cancelCalls()).toBe(before + 1);
      const after = await read(o.id);
      expect(after).toMatchObject({ status: 'cancelled', refundedMicros: o.chargeMicros });
      expect(after.delayCancelAt).not.toBeNull();
      expect(toOrderView(after).delay).toBeNull();
      const [request] = await database.db.select().from(orderCancels).where(eq(orderCancels.orderId, o.id));
      expect(request).toMatchObject({ source: 'admin', result: 'accepted', attempts: 1 });

      await checkDelayedOrders(deps, new Date(sentAt + 20 * 60 * MIN));
      expect(cancelCalls()).toBe(before + 1);
      expect(await verifyLedger(database.db)).toEqual([]);
    } finally {
      await saveSettings(database.db, { stuck_cancel_after_hours: 0 });
    }
  });

  it('asks once even when the provider refuses, and the order stays delayed', async () => {
    const service = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.params.length === 0 && !s.cancel)!;
    expect(service).toBeTruthy();
    const placed = await placeOrderBody(deps, customer.id, {
      serviceId: service.id,
      link: `https://www.tiktok.com/@stuck/video/${Date.now()}`,
      quantity: service.amountMinimum,
      idempotencyKey: randomUUID(),
    });
    await submitPending(deps);
    const o = await read(placed.id);
    expect(o.providerOrderId).not.toBeNull();
    await saveSettings(database.db, { stuck_cancel_after_hours: 1 });
    try {
      const first = await checkDelayedOrders(deps, new Date(o.submittedAt!.getTime() + 400 * MIN));
      expect(first.flagged).toContain(o.id);
      expect(first.cancels.get(o.id)).toMatchObject({ refused: { code: 'CANCEL_NOT_ALLOWED' } });
      const second = await checkDelayedOrders(deps, new Date(o.submittedAt!.getTime() + 800 * MIN));
      expect(second.cancels.has(o.id)).toBe(false);
      const after = await read(o.id);
      expect(after.status).toBe('pending');
      expect(toOrderView(after).delay).not.toBeNull();
    } finally {
      await saveSettings(database.db, { stuck_cancel_after_hours: 0 });
    }
  });
});
