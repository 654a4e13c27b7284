import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { parseUsdToMicros } from '../../core/money';
import { microsToUsd } from '../../core/resellerApi';
import { quantityBounds } from '../../core/orderRules';
import { priceOrder } from '../../core/pricing';
import { post, signUpUser } from '../auth/testing';
import { syncCatalog } from '../catalog';
import type { Database } from '../db/client';
import { catalogServices, orders, users } from '../db/schema';
import { parseEnv } from '../env';
import { getSettings } from '../settings';
import { createLogger } from '../logger';
import type { OrdersDeps } from '../orders';
import { submitPending, syncOrderStatuses } from '../orders';
import { clientFor, createProvider, singleProvider, type SmmProvider } from '../providers';
import { startExternalParts, type ExternalParts } from '../sandbox';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { credit, verifyLedger } from '../wallet/ledger';

/**
 * One Artım instance reselling another: instance A sells the sandbox provider's catalogue; a
 * customer of A creates an API key; instance B is configured with PROVIDER=smm-v2, A's
 * `/api/v2` and that key, and sells A's catalogue to its own customers through Artım's own
 * smm-v2 adapter. Money is checked on both sides.
 */
let sandbox: SandboxProvider;
let dbA: Database;
let dbB: Database;
let appA: Hono;
let appB: Hono;
let server: ServerType;
let urlA: string;
let external: ExternalParts;
let providerA: SmmProvider;
let providerB: SmmProvider;
let reseller: Awaited<ReturnType<typeof signUpUser>>;
let buyer: Awaited<ReturnType<typeof signUpUser>>;
let key: string;
let depsB: OrdersDeps;
let depsA: OrdersDeps;
type Service = typeof catalogServices.$inferSelect;
let serviceB: Service;

const logger = createLogger('silent');

beforeAll(async () => {
  sandbox = await startSandboxProvider({ orderSeconds: 600, seed: 11 });
  dbA = await createTestDatabase();
  dbB = await createTestDatabase();
  providerA = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey });
  await syncCatalog(dbA.db, providerA);
  ({ app: appA } = await createTestApp(dbA, { providers: singleProvider(providerA) }));
  server = serve({ fetch: appA.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((ok) => server.once('listening', ok));
  urlA = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  reseller = await signUpUser(appA);
  await credit(dbA.db, { userId: reseller.id, amountMicros: 500_000_000, kind: 'topup', reference: `peer-${reseller.id}` });
  key = (await (await post(appA, '/api/api-keys', { name: 'Instance B' }, { cookie: reseller.cookie })).json()).key;

  // Instance B, configured as an operator would: PROVIDER=smm-v2 with A's URL and the key.
  const env = parseEnv({ NODE_ENV: 'test', JOBS: 'false', LOG_LEVEL: 'silent', PROVIDER: 'smm-v2', PROVIDER_URL: `${urlA}/api/v2`, PROVIDER_KEY: key });
  external = await startExternalParts(env);
  providerB = clientFor(external.envProvider);
  ({ app: appB } = await createTestApp(dbB, { env, providers: singleProvider(providerB) }));
  const synced = await syncCatalog(dbB.db, providerB);
  expect(synced.services).toBeGreaterThan(10);
  buyer = await signUpUser(appB);
  await credit(dbB.db, { userId: buyer.id, amountMicros: 500_000_000, kind: 'topup', reference: `peer-${buyer.id}` });
  depsA = { db: dbA.db, providers: singleProvider(providerA), logger };
  depsB = { db: dbB.db, providers: singleProvider(providerB), logger };
  serviceB = (await dbB.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.params.length === 0 && s.refill && s.cancel)!;
  expect(serviceB).toBeTruthy();
}, 180_000);
afterAll(async () => {
  await external?.close();
  await new Promise((ok) => server?.close(ok));
  await sandbox?.close();
  await dbA?.close();
  await dbB?.close();
});

let linkNo = 0;
const link = () => `https://www.tiktok.com/@peer/video/${Date.now()}${++linkNo}`;
const balanceA = async () => (await dbA.db.select({ b: users.balanceMicros }).from(users).where(eq(users.id, reseller.id)))[0]!.b;
const balanceB = async () => (await dbB.db.select({ b: users.balanceMicros }).from(users).where(eq(users.id, buyer.id)))[0]!.b;
const rowB = async (id: string) => (await dbB.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const rowA = async (apiId: string) => (await dbA.db.select().from(orders).where(eq(orders.apiId, Number(apiId))))[0]!;

async function orderOnB() {
  const res = await post(appB, '/api/orders', { serviceId: serviceB.id, link: link(), quantity: serviceB.amountMinimum, params: {}, idempotencyKey: randomUUID() }, { cookie: buyer.cookie });
  expect(res.status).toBe(201);
  const view = await res.json();
  // B's submission worker sends it to A, where it is accepted; A's worker sends it on.
  expect(await submitPending(depsB)).toBeGreaterThanOrEqual(1);
  expect(await submitPending(depsA)).toBeGreaterThanOrEqual(1);
  const b = await rowB(view.id);
  expect(b.providerOrderId).toMatch(/^\d+$/);
  return { b, a: await rowA(b.providerOrderId!) };
}

describe('Artım reselling Artım over /api/v2', () => {
  it('services: B sells A’s catalogue at A’s customer rate, with refill and cancel flags', async () => {
    const [a] = await dbA.db.select().from(catalogServices).where(eq(catalogServices.id, serviceB.id));
    expect(a).toBeTruthy();
    expect(serviceB).toMatchObject({ platform: 'tiktok', refill: a!.refill, cancel: a!.cancel, amountMinimum: a!.amountMinimum, refillDays: a!.refillDays });
    const tierA = a!.tiers.find((t) => t.minimum <= 1000 && 1000 <= t.maximum) ?? a!.tiers[0]!;
    expect(Number(serviceB.tiers[0]!.price)).toBeCloseTo((Number(tierA.price) * 1000) / tierA.pricingPer, 3);
  });

  it('add and balance: an order on B is an order of B’s reseller on A; both ledgers move by their own charge', async () => {
    const [beforeA, beforeB] = [await balanceA(), await balanceB()];
    const { a, b } = await orderOnB();
    expect(a).toMatchObject({ userId: reseller.id, viaApi: true, link: b.link, quantity: b.quantity, serviceId: b.serviceId, status: 'pending' });
    expect(a.providerOrderId).toMatch(/^\d+$/);
    expect(sandbox.control.order(a.providerOrderId!)).toMatchObject({ link: b.link, quantity: b.quantity });
    expect(await balanceA()).toBe(beforeA - a.chargeMicros);
    expect(await balanceB()).toBe(beforeB - b.chargeMicros);
    // B pays A no more than B charged its own customer (B has no fee set).
    expect(a.chargeMicros).toBeLessThanOrEqual(b.chargeMicros);
    const reported = await providerB.balance();
    expect(reported.currency).toBe('USD');
    // The protocol's 5 decimals of A's balance, the sixth rounded down.
    expect(parseUsdToMicros(reported.amount)).toBe(parseUsdToMicros(microsToUsd(await balanceA(), 'down')));
  });

  it('charges reconcile to the last digit: A’s charge is rate × quantity / 1000 of the rate A lists, and B, selling at that rate, charges its customer the same', async () => {
    const v2A = async (form: Record<string, string>) => (await fetch(`${urlA}/api/v2`, { method: 'POST', body: new URLSearchParams({ key, ...form }) })).json();
    /** A protocol amount in 10^-5 USD, read as a client reads it. */
    const fifths = (text: string) => {
      const [whole, fraction = ''] = text.split('.');
      expect(fraction.length).toBeLessThanOrEqual(5);
      return BigInt(whole! + fraction.padEnd(5, '0'));
    };
    const listed = ((await v2A({ action: 'services' })) as { service: number; rate: string }[]).find((s) => String(s.service) === serviceB.id)!;
    const rate = fifths(listed.rate);
    const step = Math.max(1, serviceB.amountIncrement);
    for (const extra of [1, 7, 33]) {
      const quantity = serviceB.amountMinimum + extra * step;
      const res = await post(appB, '/api/orders', { serviceId: serviceB.id, link: link(), quantity, params: {}, idempotencyKey: randomUUID() }, { cookie: buyer.cookie });
      expect(res.status).toBe(201);
      expect(await submitPending(depsB)).toBeGreaterThanOrEqual(1);
      const b = await rowB((await res.json()).id);
      const a = await rowA(b.providerOrderId!);
      // Debited on A: rate × quantity / 1000, rounded up to the micro; answered: to the fifth decimal.
      expect(BigInt(a.chargeMicros)).toBe((rate * 10n * BigInt(quantity) + 999n) / 1000n);
      const status = await v2A({ action: 'status', order: b.providerOrderId! });
      expect(fifths(status.charge)).toBe((rate * BigInt(quantity) + 999n) / 1000n);
      // B has no fee: what its customer pays is exactly what A charges B.
      expect(b.chargeMicros).toBe(a.chargeMicros);
    }
    expect(await verifyLedger(dbA.db)).toEqual([]);
    expect(await verifyLedger(dbB.db)).toEqual([]);
  });

  it('status and multi-status: the sandbox’s progress reaches B through A', async () => {
    const one = await orderOnB();
    const two = await orderOnB();
    sandbox.control.setOrderState(one.a.providerOrderId!, 'in_progress', 3);
    sandbox.control.setOrderState(two.a.providerOrderId!, 'completed');
    await syncOrderStatuses(depsA);
    const states = await providerB.status([one.b.providerOrderId!, two.b.providerOrderId!, '99999999']);
    expect(states.get(one.b.providerOrderId!)).toMatchObject({ status: 'in_progress', remains: one.b.quantity - 3, raw: 'In progress' });
    expect(states.get(two.b.providerOrderId!)).toMatchObject({ status: 'completed', remains: 0, raw: 'Completed' });
    expect(states.get('99999999')).toEqual({ error: 'Incorrect order ID' });
    await syncOrderStatuses(depsB);
    expect((await rowB(one.b.id)).status).toBe('in_progress');
    expect((await rowB(two.b.id)).status).toBe('completed');
  });

  it('refill: B’s customer asks on B, the request travels through A to the provider, and its state comes back', async () => {
    const { a, b } = await orderOnB();
    sandbox.control.setOrderState(a.providerOrderId!, 'completed');
    await syncOrderStatuses(depsA);
    await syncOrderStatuses(depsB);
    expect((await rowB(b.id)).status).toBe('completed');
    const calls = sandbox.control.calls()['smm-v2:refill'] ?? 0;
    const res = await post(appB, `/api/orders/${b.id}/refill`, {}, { cookie: buyer.cookie });
    expect(res.status).toBe(201);
    expect(sandbox.control.calls()['smm-v2:refill']).toBe(calls + 1);
    const actionsB = (await (await appB.request('/api/orders/actions', { headers: { cookie: buyer.cookie } })).json()).orders[b.id];
    expect(actionsB).toMatchObject({ canRefill: false, refill: { status: 'pending' } });
    const actionsA = (await (await appA.request('/api/orders/actions', { headers: { cookie: reseller.cookie } })).json()).orders[a.id];
    expect(actionsA).toMatchObject({ viaApi: true, refill: { status: 'pending' } });
    // The sandbox moves the refill on; B hears it from A.
    sandbox.control.advance(600_000);
    const refillIdOnA = String(actionsA.refill.id);
    const state = await providerB.refillStatus([refillIdOnA]);
    expect(state).toEqual(new Map([[refillIdOnA, { status: 'completed', raw: 'Completed' }]]));
  });

  it('cancel: B’s customer cancels on B; A cancels at the provider, and both sides refund the whole charge', async () => {
    const [beforeA, beforeB] = [await balanceA(), await balanceB()];
    const { a, b } = await orderOnB();
    const res = await post(appB, `/api/orders/${b.id}/cancel`, {}, { cookie: buyer.cookie });
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe('cancelled');
    expect(await rowA(b.providerOrderId!)).toMatchObject({ status: 'cancelled', refundedMicros: a.chargeMicros });
    expect(await rowB(b.id)).toMatchObject({ status: 'cancelled', refundedMicros: b.chargeMicros });
    expect(await balanceA()).toBe(beforeA);
    expect(await balanceB()).toBe(beforeB);
    expect(await verifyLedger(dbA.db)).toEqual([]);
    expect(await verifyLedger(dbB.db)).toEqual([]);
  });

  it('comments without quantity: a script’s form reaches A over HTTP, and A orders and charges the lines', async () => {
    const [comments] = (await dbA.db.select().from(catalogServices)).filter((s) => s.active && s.platform === 'tiktok' && s.params.some((p) => p.fieldName === 'comments' && p.required));
    expect(comments).toBeTruthy();
    const n = quantityBounds(comments!).min + 1;
    const lines = Array.from({ length: n }, (_, i) => `Great video ${i + 1}`);
    const before = await balanceA();
    // As PHP example code and panel software post it: service, link and comments, no quantity.
    const res = await fetch(`${urlA}/api/v2`, { method: 'POST', body: new URLSearchParams({ key, action: 'add', service: comments!.id, link: link(), comments: `${lines.join('\n')}\n\n` }) });
    const reply = await res.json();
    expect(reply).toEqual({ order: expect.any(Number) });
    const a = await rowA(String(reply.order));
    const settings = await getSettings(dbA.db);
    expect([a.quantity, a.chargeMicros]).toEqual([n, priceOrder(comments!.tiers, n, { serviceFeePercent: settings.service_fee, baseFee: settings.base_fee }).micros]);
    expect(await balanceA()).toBe(before - a.chargeMicros);
    expect(await submitPending(depsA)).toBeGreaterThanOrEqual(1);
    expect(sandbox.control.order((await rowA(String(reply.order))).providerOrderId!)).toMatchObject({ quantity: n, params: { comments: lines.join('\n') } });
  });

  it('comments ordered on B reach A and the provider as the same lines', async () => {
    const serviceOnB = (await dbB.db.select().from(catalogServices)).find((s) => s.active && s.platform === 'tiktok' && s.params.some((p) => p.fieldName === 'comments'));
    expect(serviceOnB).toBeTruthy();
    const n = quantityBounds(serviceOnB!).min;
    const lines = Array.from({ length: n }, (_, i) => `Nice ${i + 1}`);
    const res = await post(appB, '/api/orders', { serviceId: serviceOnB!.id, link: link(), quantity: n, params: { comments: lines.join('\n') }, idempotencyKey: randomUUID() }, { cookie: buyer.cookie });
    expect(res.status).toBe(201);
    expect(await submitPending(depsB)).toBeGreaterThanOrEqual(1);
    const b = await rowB((await res.json()).id);
    const a = await rowA(b.providerOrderId!);
    expect([a.quantity, a.params.comments]).toEqual([n, lines.join('\n')]);
    expect(await submitPending(depsA)).toBeGreaterThanOrEqual(1);
    expect(sandbox.control.order((await rowA(b.providerOrderId!)).providerOrderId!)).toMatchObject({ quantity: n, params: { comments: lines.join('\n') } });
    expect(await verifyLedger(dbA.db)).toEqual([]);
    expect(await verifyLedger(dbB.db)).toEqual([]);
  });

  it('cancel right after add: B’s customer cancels while A is still sending the order on; A carries it out once sent, and both sides refund', async () => {
    const res = await post(appB, '/api/orders', { serviceId: serviceB.id, link: link(), quantity: serviceB.amountMinimum, params: {}, idempotencyKey: randomUUID() }, { cookie: buyer.cookie });
    const view = await res.json();
    expect(await submitPending(depsB)).toBeGreaterThanOrEqual(1);
    const b = await rowB(view.id);
    // A's submission is on its way to the provider, which takes its time to answer.
    sandbox.control.setFault({ latencyMs: 1500, actions: ['add'], times: 1 });
    const sending = submitPending(depsA);
    for (let i = 0; i < 400 && (await rowA(b.providerOrderId!)).submittedAt === null; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await rowA(b.providerOrderId!)).providerOrderId).toBeNull();
    const cancelled = await post(appB, `/api/orders/${b.id}/cancel`, {}, { cookie: buyer.cookie });
    expect(cancelled.status).toBe(200);
    // A accepted the cancel; the provider has not seen the order yet, so it is still pending.
    expect((await cancelled.json()).status).toBe('pending');
    await sending;
    const a = await rowA(b.providerOrderId!);
    expect(a.status).toBe('cancelled');
    expect(a.refundedMicros).toBe(a.chargeMicros);
    expect(sandbox.control.order(a.providerOrderId!)?.status).toBe('cancelled');
    await syncOrderStatuses(depsB);
    const after = await rowB(b.id);
    expect(after.status).toBe('cancelled');
    expect(after.refundedMicros).toBe(after.chargeMicros);
    expect(await verifyLedger(dbA.db)).toEqual([]);
    expect(await verifyLedger(dbB.db)).toEqual([]);
  });

  it('drip-feed through the chain: B sends ONE drip-feed order to A, A ONE to the provider; every run is delivered and nothing refunded', async () => {
    const service = (await dbB.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.dripfeed && s.params.length === 0)!;
    expect(service).toBeTruthy();
    const [beforeA, beforeB] = [await balanceA(), await balanceB()];
    const addsAtProvider = sandbox.control.calls()['smm-v2:add'] ?? 0;
    const ordersOnA = (await dbA.db.select().from(orders)).length;
    const body = { serviceId: service.id, link: link(), quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID(), runs: 3, interval: 1 };
    const res = await post(appB, '/api/orders', body, { cookie: buyer.cookie });
    expect(res.status).toBe(201);
    const placed = await res.json();
    expect(placed).toMatchObject({ status: 'pending', quantity: service.amountMinimum * 3, drip: { runs: 3, runsSent: 0 } });

    expect(await submitPending(depsB)).toBe(1);
    const b = await rowB(placed.id);
    expect(b).toMatchObject({ upstreamDrip: true, runsSent: 3 });
    // A holds ONE order for it: a drip-feed of 3 runs, which A's worker sends on as ONE.
    expect((await dbA.db.select().from(orders)).length).toBe(ordersOnA + 1);
    const a = await rowA(b.providerOrderId!);
    expect(a).toMatchObject({ userId: reseller.id, viaApi: true, runs: 3, intervalMinutes: 1, quantity: b.quantity, upstreamDrip: true, status: 'pending' });
    expect(await submitPending(depsA)).toBe(1);
    const sentA = await rowA(b.providerOrderId!);
    expect(sandbox.control.calls()['smm-v2:add']).toBe(addsAtProvider + 1);
    expect(sandbox.control.order(sentA.providerOrderId!)).toMatchObject({ runs: 3, interval: 1, quantity: b.quantity, link: b.link });

    // Every run delivered at the provider; A hears it, then B from A.
    sandbox.control.advance(3 * 600_000 + 3 * 60_000);
    await syncOrderStatuses(depsA);
    expect(await rowA(b.providerOrderId!)).toMatchObject({ status: 'completed', remains: 0, refundedMicros: 0 });
    await syncOrderStatuses(depsB);
    expect(await rowB(b.id)).toMatchObject({ status: 'completed', remains: 0, refundedMicros: 0 });
    expect(await balanceA()).toBe(beforeA - a.chargeMicros);
    expect(await balanceB()).toBe(beforeB - b.chargeMicros);
    expect(await verifyLedger(dbA.db)).toEqual([]);
    expect(await verifyLedger(dbB.db)).toEqual([]);
  });

  it('a key of another customer of A reads and touches none of the reseller’s orders', async () => {
    const { b } = await orderOnB();
    const other = await signUpUser(appA);
    const otherKey = (await (await post(appA, '/api/api-keys', {}, { cookie: other.cookie })).json()).key;
    const intruder = createProvider({ protocol: 'smm-v2', url: `${urlA}/api/v2`, key: otherKey });
    const id = b.providerOrderId!;
    expect((await intruder.status([id])).get(id)).toEqual({ error: 'Incorrect order ID' });
    expect(((await intruder.cancel([id])) as Map<string, unknown>).get(id)).toEqual({ error: 'Incorrect order ID' });
    expect(((await intruder.refill([id])) as Map<string, unknown>).get(id)).toEqual({ error: 'Incorrect order ID' });
    expect(Number((await intruder.balance()).amount)).toBe(0);
    expect((await rowA(id)).status).toBe('pending');
  });
});
