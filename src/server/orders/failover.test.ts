import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { FaultConfig } from '../../../sandbox/provider/faults';
import { costOfOrderMicros } from '../../core/pricing';
import { readProviderCatalogue, setServiceSources } from '../catalog/sources';
import { rowsOf, type Database } from '../db/client';
import { catalogServices, ledgerEntries, orderCancels, orderRefills, orders, providers, providerServices } from '../db/schema';
import { createLogger } from '../logger';
import { createProvider, registryOver, type RegisteredProvider } from '../providers';
import { createTestDatabase } from '../testing/db';
import { placeOrderBody } from '../testing/orders';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import { requestRefill } from '../reseller/actions';
import { cancelOrders } from './cancels';
import { refundByStaff } from './staff';
import type { OrdersDeps } from './service';
import { submitOrder } from './submission';

/**
 * Routing and failover (orders/routing.ts, orders/submission.ts) over real HTTP: two sandbox
 * providers, A speaking SMM v2 and B the QQTube-style protocol, each with its own prices; the
 * shop's services are bought from A first, then from B.
 */

const logger = createLogger('silent');
let database: Database;
let sandboxA: SandboxProvider;
let sandboxB: SandboxProvider;
let a: RegisteredProvider;
let b: RegisteredProvider;
let deps: OrdersDeps;
type Service = typeof catalogServices.$inferSelect;
let service: Service;

/** Every call gives up after this long: the faults that never answer end here. */
const TIMEOUT_MS = 1500;

async function providerRow(name: string, protocol: 'smm-v2' | 'qqtube', url: string): Promise<string> {
  const [row] = await database.db.insert(providers).values({ name, protocol, url, keyEncrypted: 'sealed', keyHint: 'xxxx' }).returning();
  return row!.id;
}

beforeAll(async () => {
  database = await createTestDatabase();
  sandboxA = await startSandboxProvider({ serviceCount: 40, seed: 11 });
  sandboxB = await startSandboxProvider({ serviceCount: 40, seed: 11 });
  a = { id: await providerRow('A', 'smm-v2', sandboxA.v2Url), name: 'A', enabled: true, client: createProvider({ protocol: 'smm-v2', url: sandboxA.v2Url, key: sandboxA.apiKey, timeoutMs: TIMEOUT_MS }) };
  b = { id: await providerRow('B', 'qqtube', sandboxB.qqtubeUrl), name: 'B', enabled: true, client: createProvider({ protocol: 'qqtube', url: sandboxB.qqtubeUrl, key: sandboxB.apiKey, timeoutMs: TIMEOUT_MS }) };
  const list = [a, b];
  deps = { db: database.db, providers: registryOver(() => list), logger };
  // A's first read gives the shop its services (A's ids); B's copy is kept beside it.
  expect((await readProviderCatalogue(database.db, a, { isDefault: true })).imported).toBeGreaterThan(0);
  await readProviderCatalogue(database.db, b, { isDefault: false });
  const all = await database.db.select().from(catalogServices).where(eq(catalogServices.active, true));
  service = all.find((s) => s.params.length === 0 && !s.dripfeed && s.platform === 'instagram')!;
  expect(service).toBeDefined();
  // B sells it at another price: make it dearer, so the cost recorded tells which provider holds the order.
  await database.db
    .update(providerServices)
    .set({ tiers: service.tiers.map((t) => ({ ...t, price: (Number(t.price) * 2).toFixed(4) })) })
    .where(and(eq(providerServices.providerId, b.id!), eq(providerServices.serviceId, service.id)));
  await setServiceSources(database.db, service.id, { sources: [{ providerId: a.id!, providerServiceId: service.id }, { providerId: b.id!, providerServiceId: service.id }] });
});
afterAll(async () => {
  await sandboxA?.close();
  await sandboxB?.close();
  await database?.close();
});
beforeEach(() => {
  sandboxA.control.reset();
  sandboxB.control.reset();
});

let linkNo = 0;
const link = () => `https://www.instagram.com/failover_${Date.now().toString(36)}_${++linkNo}/`;
const row = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const costAt = async (p: RegisteredProvider, quantity: number) => {
  const [ps] = await database.db.select().from(providerServices).where(and(eq(providerServices.providerId, p.id!), eq(providerServices.serviceId, service.id)));
  return costOfOrderMicros(ps!.tiers, quantity);
};
const heldAt = (s: SandboxProvider, l: string) => s.control.orders().filter((o) => o.link === l);

async function placeAndSend(faultA: FaultConfig | null, faultB: FaultConfig | null) {
  const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
  const body = { serviceId: service.id, link: link(), quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() };
  const placed = await placeOrderBody(deps, user.id, body);
  if (faultA) sandboxA.control.setFault({ actions: ['add'], times: 1, ...faultA });
  if (faultB) sandboxB.control.setFault({ actions: ['add'], times: 1, ...faultB });
  const sent = await submitOrder(deps, await row(placed.id));
  return { user, body, placed, sent };
}

describe('routing', () => {
  it('sends an order to the primary provider and records it there with its cost at that price', async () => {
    const { body, placed, sent } = await placeAndSend(null, null);
    const atPlacement = await row(placed.id);
    expect(atPlacement.providerId).toBe(a.id);
    expect(sent).toMatchObject({ providerId: a.id, providerServiceId: service.id, costMicros: await costAt(a, body.quantity), costRefundedMicros: 0 });
    expect(sent.providerOrderId).toBeTruthy();
    expect(heldAt(sandboxA, body.link)).toHaveLength(1);
    expect(heldAt(sandboxB, body.link)).toHaveLength(0);
  });

  it('places at the fallback when the primary is disabled, and refuses when no provider can take the service', async () => {
    const list = [{ ...a, enabled: false }, b];
    const only = { ...deps, providers: registryOver(() => list) };
    const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
    const placed = await placeOrderBody(only, user.id, { serviceId: service.id, link: link(), quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() });
    expect(await row(placed.id)).toMatchObject({ providerId: b.id, costMicros: await costAt(b, service.amountMinimum) });
    const none = { ...deps, providers: registryOver(() => [{ ...a, enabled: false }, { ...b, enabled: false }]) };
    await expect(placeOrderBody(none, user.id, { serviceId: service.id, link: link(), quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() })).rejects.toMatchObject({
      code: 'PROVIDER_NO_ANSWER',
    });
  });
});

describe('failover', () => {
  it.each([
    ['a refusal', { mode: 'refuse', message: 'Service is temporarily disabled' }],
    ['a 5xx', { mode: '5xx' }],
  ] as const)('moves the order to the next provider after %s, with the cost at its price', async (_what, fault) => {
    const { body, sent } = await placeAndSend(fault as FaultConfig, null);
    expect(sent).toMatchObject({ status: 'pending', providerId: b.id, costMicros: await costAt(b, body.quantity) });
    expect(sent.providerOrderId).toBeTruthy();
    expect(heldAt(sandboxA, body.link)).toHaveLength(0);
    expect(heldAt(sandboxB, body.link)).toHaveLength(1);
  });

  it('moves on when the primary is rate-limited (429)', async () => {
    sandboxA.control.setRateLimit(1);
    // Use up A's one call of this second, then send.
    await a.client.balance().catch(() => {});
    const { body, sent } = await placeAndSend(null, null);
    sandboxA.control.setRateLimit(0);
    expect(sent.providerId).toBe(b.id);
    expect(heldAt(sandboxB, body.link)).toHaveLength(1);
    expect(heldAt(sandboxA, body.link)).toHaveLength(0);
  });

  it('never moves after an unanswered call: the order is unknown at the provider that may hold it', async () => {
    for (const fault of [{ mode: 'timeout' }, { acceptThenTimeout: true }] as FaultConfig[]) {
      const { body, sent } = await placeAndSend(fault, null);
      expect(sent).toMatchObject({ status: 'unknown', providerId: a.id, providerOrderId: null, refundedMicros: 0 });
      expect(heldAt(sandboxB, body.link)).toHaveLength(0);
    }
  });

  it('refunds the whole charge and records the whole cost given back when every provider refuses', async () => {
    const { user, placed, sent } = await placeAndSend({ mode: 'refuse', message: 'No' }, { mode: 'refuse', message: 'Closed' });
    expect(sent).toMatchObject({ status: 'error', providerId: b.id, providerMessage: 'Closed', refundedMicros: placed.chargeMicros });
    expect(sent.costRefundedMicros).toBe(sent.costMicros);
    const charges = await database.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, user.id), eq(ledgerEntries.kind, 'order_charge')));
    expect(charges).toHaveLength(1);
  });

  it('keeps the order waiting, at nobody, when a provider only rate-limited it and the other refused', async () => {
    sandboxA.control.setRateLimit(1);
    await a.client.balance().catch(() => {});
    const { body, sent } = await placeAndSend(null, { mode: 'refuse', message: 'Closed' });
    sandboxA.control.setRateLimit(0);
    expect(sent).toMatchObject({ status: 'pending', submittedAt: null, providerOrderId: null, refundedMicros: 0 });
    expect(heldAt(sandboxA, body.link)).toHaveLength(0);
    expect(heldAt(sandboxB, body.link)).toHaveLength(0);
    // Sent again later: A takes it.
    const again = await submitOrder(deps, sent);
    expect(again.providerOrderId).toBeTruthy();
    expect(heldAt(sandboxA, body.link).length + heldAt(sandboxB, body.link).length).toBe(1);
  });
});

describe('refills and cancels of an order that moved', () => {
  it('follow the terms of the provider that holds it, and are asked of it', async () => {
    const { sent } = await placeAndSend({ mode: 'refuse', message: 'Closed for now' }, null);
    expect(sent.providerId).toBe(b.id);
    // Completed at B (on both sides), with a service that offers refills.
    sandboxB.control.setOrderState(sent.providerOrderId!, 'completed');
    await database.db.update(catalogServices).set({ refill: true, refillDays: 30 }).where(eq(catalogServices.id, service.id));
    const done = (await database.db.update(orders).set({ status: 'completed', completedAt: new Date(), startedAt: new Date() }).where(eq(orders.id, sent.id)).returning())[0]!;
    const refillsAtB = sandboxB.control.calls()['qqtube:refill'] ?? 0;
    const refill = await requestRefill(deps, done, 'site').catch((err: unknown) => err);
    // The QQTube-style API has no refills: the terms of the provider that holds the order say so,
    // whatever the shop's service says, and nobody is asked — least of all A, which does not hold it.
    expect(refill).toMatchObject({ code: 'REFILL_NOT_ALLOWED' });
    expect(sandboxA.control.calls()['smm-v2:refill'] ?? 0).toBe(0);
    expect(sandboxB.control.calls()['qqtube:refill'] ?? 0).toBe(refillsAtB);
    expect(await database.db.select().from(orderRefills).where(eq(orderRefills.orderId, sent.id))).toEqual([]);

    // A cancel of an order at B (still running there) is asked of B and records B.
    const other = await placeAndSend({ mode: 'refuse', message: 'Closed for now' }, null);
    expect(other.sent.providerId).toBe(b.id);
    await database.db.update(catalogServices).set({ cancel: true }).where(eq(catalogServices.id, service.id));
    await cancelOrders(deps, [other.sent], 'site');
    const [cancel] = await database.db.select().from(orderCancels).where(eq(orderCancels.orderId, other.sent.id));
    expect(cancel!.providerId).toBe(b.id);
    expect(sandboxA.control.calls()['smm-v2:cancel'] ?? 0).toBe(0);
  });
});

describe('what an order cost', () => {
  it('a partial gives back the same share of the cost as of the charge; a goodwill refund gives back no cost', async () => {
    const { sent } = await placeAndSend(null, null);
    const cost = sent.costMicros!;
    const charge = sent.chargeMicros;
    // The team refunds a third of it of its own accord: the provider gives the shop nothing back.
    const third = Math.floor(charge / 3);
    await database.db.transaction((tx) => refundByStaff(tx, sent.id, { amountMicros: third, reason: 'goodwill' }));
    expect(await row(sent.id)).toMatchObject({ refundedMicros: third, costRefundedMicros: 0 });
    // The order never reached a provider: a refund of it gives the same share of the cost back.
    const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
    const unsent = await placeOrderBody(deps, user.id, { serviceId: service.id, link: link(), quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() });
    await database.db.transaction((tx) => refundByStaff(tx, unsent.id, { reason: 'not wanted' }));
    const back = await row(unsent.id);
    expect(back.costRefundedMicros).toBe(back.costMicros);
    // Margin of every order is computable from its row alone.
    const [margin] = rowsOf<{ m: string }>(await database.db.execute(sql`select (charge_micros - refunded_micros - cost_micros + cost_refunded_micros)::text as m from ${orders} where id = ${sent.id}`));
    expect(Number(margin!.m)).toBe(charge - third - cost);
  });
});

describe('failover under random provider behaviour (property)', () => {
  it('every order is at one provider at most, charged once, refunded at most its charge, and the books balance', async () => {
    const behaviours: (FaultConfig | null)[] = [null, { mode: 'refuse', message: 'No' }, { mode: '5xx' }, { mode: 'garbage' }, { mode: 'timeout' }, { acceptThenTimeout: true }];
    let seed = 20261126;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const placed: { id: string; link: string; userId: string }[] = [];
    for (let i = 0; i < 24; i++) {
      const { body, sent, user } = await placeAndSend(behaviours[rand(behaviours.length)]!, behaviours[rand(behaviours.length)]!);
      placed.push({ id: sent.id, link: body.link, userId: user.id });
    }
    for (const p of placed) {
      const o = await row(p.id);
      const atA = heldAt(sandboxA, p.link);
      const atB = heldAt(sandboxB, p.link);
      expect(atA.length + atB.length, `order ${o.id} (${o.status})`).toBeLessThanOrEqual(1);
      if (o.providerOrderId) {
        const held = o.providerId === a.id ? atA : atB;
        expect(held.map((h) => String(h.id))).toEqual([o.providerOrderId]);
      }
      // An order some provider holds (even one it never answered for) is recorded there.
      if (atA.length) expect(o.providerId).toBe(a.id);
      if (atB.length) expect(o.providerId).toBe(b.id);
      expect(o.refundedMicros).toBeLessThanOrEqual(o.chargeMicros);
      expect(o.costRefundedMicros).toBeLessThanOrEqual(o.costMicros!);
      const charges = await database.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, p.userId), eq(ledgerEntries.kind, 'order_charge')));
      expect(charges).toHaveLength(1);
    }
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});
