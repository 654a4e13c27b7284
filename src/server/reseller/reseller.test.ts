import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { MAX_API_KEYS } from '../../core/contracts/reseller';
import { microsToUsd, ratePer1000 } from '../../core/resellerApi';
import { ORDER_PARAM_MAX_LENGTH, quantityBounds } from '../../core/orderRules';
import { priceOrder } from '../../core/pricing';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { enableCaches } from '../cache';
import { syncCatalog } from '../catalog';
import type { Database } from '../db/client';
import { apiKeys, catalogServices, ledgerEntries, orderRefills, orders, rateLimits, users } from '../db/schema';
import { singleProvider, createProvider, type SmmProvider } from '../providers';
import { createLogger } from '../logger';
import { submitPending } from '../orders';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { getSettings, saveSettings } from '../settings';
import { credit } from '../wallet/ledger';
import { hashKey } from './keys';

let database: Database;
let sandbox: SandboxProvider;
let provider: SmmProvider;
let app: Hono;
let admin: string;
let a: Awaited<ReturnType<typeof signUpUser>>;
let b: Awaited<ReturnType<typeof signUpUser>>;
let keyA: string;
let keyB: string;
type Service = typeof catalogServices.$inferSelect;
let plain: Service;
let stopCaches: (() => Promise<void>) | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600, seed: 7 });
  provider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey });
  await syncCatalog(database.db, provider);
  ({ app } = await createTestApp(database, { providers: singleProvider(provider) }));
  // As in a running shop: keys, settings and catalogue rows are read through the instance's
  // caches, so a key revoked, rotated or turned off must be forgotten for the next call.
  stopCaches = await enableCaches(database);
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  a = await signUpUser(app);
  b = await signUpUser(app);
  await credit(database.db, { userId: a.id, amountMicros: 1_000_000_000, kind: 'topup', reference: `t-${a.id}` });
  plain = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.params.length === 0 && s.refill && s.cancel)!;
  expect(plain).toBeTruthy();
});
afterAll(async () => {
  await stopCaches?.();
  await sandbox.close();
  await database.close();
});

const json = { origin: TEST_ORIGIN, 'content-type': 'application/json' };
/** The submission worker's pass: accepted orders go to the provider. */
const sendAccepted = () => submitPending({ db: database.db, providers: singleProvider(provider), logger: createLogger('silent') });
const get = (path: string, cookie: string) => app.request(path, { headers: { cookie } });
const del = (path: string, cookie: string) => app.request(path, { method: 'DELETE', headers: { ...json, cookie } });

/** A v2 call as panels send it: a form POST without cookies or Origin. */
async function v2(params: Record<string, string | number>, ip = '203.0.113.9'): Promise<any> {
  const res = await app.request('/api/v2', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString(),
  });
  expect(res.status).toBe(200);
  return res.json();
}

let linkNo = 0;
const link = () => `https://www.tiktok.com/@reseller/video/${Date.now()}${++linkNo}`;
const balanceOf = async (id: string) => (await database.db.select({ b: users.balanceMicros }).from(users).where(eq(users.id, id)))[0]!.b;
const orderByApiId = async (apiId: number) => (await database.db.select().from(orders).where(eq(orders.apiId, apiId)))[0]!;

describe('API keys', () => {
  it('creates a key shown once and stored only as its hash; lists keys without it', async () => {
    const res = await post(app, '/api/api-keys', { name: 'My panel' }, { cookie: a.cookie });
    expect(res.status).toBe(201);
    const created = await res.json();
    keyA = created.key;
    expect(keyA).toMatch(/^[0-9a-f]{32}$/);
    expect(created.view).toMatchObject({ name: 'My panel', prefix: keyA.slice(0, 6), lastUsedAt: null });
    const rows = await database.db.select().from(apiKeys).where(eq(apiKeys.userId, a.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.keyHash).toBe(hashKey(keyA));
    expect(JSON.stringify(rows)).not.toContain(keyA);
    const list = await (await get('/api/api-keys', a.cookie)).json();
    expect(list).toMatchObject({ enabled: true, keys: [{ id: created.view.id, name: 'My panel' }] });
    expect(JSON.stringify(list)).not.toContain(keyA);
    keyB = (await (await post(app, '/api/api-keys', {}, { cookie: b.cookie })).json()).key;
  });

  it('records the last use with its time and address', async () => {
    expect(await v2({ key: keyA, action: 'balance' }, '203.0.113.77')).toEqual({ balance: '1000.00', currency: 'USD' });
    const [k] = (await (await get('/api/api-keys', a.cookie)).json()).keys;
    expect(k.lastUsedAt).not.toBeNull();
    expect(typeof k.lastUsedIp).toBe('string');
  });

  it('rotates a key (the old one stops at once), revokes, limits the count, and never touches another customer’s key', async () => {
    const [k] = (await (await get('/api/api-keys', a.cookie)).json()).keys;
    const bRotates = await post(app, `/api/api-keys/${k.id}/rotate`, {}, { cookie: b.cookie });
    expect(bRotates.status).toBe(404);
    expect((await del(`/api/api-keys/${k.id}`, b.cookie)).status).toBe(404);
    const rotated = await (await post(app, `/api/api-keys/${k.id}/rotate`, {}, { cookie: a.cookie })).json();
    expect(rotated.view.name).toBe('My panel');
    expect(await v2({ key: keyA, action: 'balance' })).toEqual({ error: 'Incorrect API key' });
    keyA = rotated.key;
    expect((await v2({ key: keyA, action: 'balance' })).balance).toBe('1000.00');

    const extra: string[] = [];
    for (let i = 1; i < MAX_API_KEYS; i++) extra.push((await (await post(app, '/api/api-keys', { name: `k${i}` }, { cookie: a.cookie })).json()).view.id);
    const over = await post(app, '/api/api-keys', {}, { cookie: a.cookie });
    expect(over.status).toBe(409);
    expect((await over.json()).error.code).toBe('API_KEY_LIMIT');
    for (const id of extra) expect((await del(`/api/api-keys/${id}`, a.cookie)).status).toBe(204);
    expect((await (await get('/api/api-keys', a.cookie)).json()).keys).toHaveLength(1);
  });

  it('an admin turns a customer’s API access off and on again', async () => {
    const off = await app.request(`/api/admin/users/${a.id}/api-access`, { method: 'PUT', headers: { ...json, cookie: admin }, body: JSON.stringify({ enabled: false }) });
    expect(off.status).toBe(200);
    expect(await v2({ key: keyA, action: 'balance' })).toEqual({ error: 'Incorrect API key' });
    expect((await (await get('/api/api-keys', a.cookie)).json()).enabled).toBe(false);
    expect((await post(app, '/api/api-keys', {}, { cookie: a.cookie })).status).toBe(403);
    const users = await (await get(`/api/admin/users?q=${encodeURIComponent(a.email)}`, admin)).json();
    expect(users.users[0].apiAccess).toBe(false);
    await app.request(`/api/admin/users/${a.id}/api-access`, { method: 'PUT', headers: { ...json, cookie: admin }, body: JSON.stringify({ enabled: true }) });
    expect((await v2({ key: keyA, action: 'balance' })).balance).toBe('1000.00');
  });
});

describe('/api/v2', () => {
  it('answers an unknown key, a missing action and a bad body with the protocol’s errors, HTTP 200', async () => {
    expect(await v2({ key: 'nope', action: 'balance' })).toEqual({ error: 'Incorrect API key' });
    expect(await v2({ action: 'balance' })).toEqual({ error: 'Incorrect API key' });
    expect(await v2({ key: keyA })).toEqual({ error: 'Incorrect request' });
    expect(await v2({ key: keyA, action: 'launch' })).toEqual({ error: 'Incorrect request' });
    const bad = await app.request('/api/v2', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"key":' });
    expect(bad.status).toBe(200);
    expect(await bad.json()).toEqual({ error: 'Incorrect request' });
  });

  it('reads query strings and JSON bodies as well as forms', async () => {
    const q = await app.request(`/api/v2?key=${keyA}&action=balance`);
    expect(await q.json()).toEqual({ balance: '1000.00', currency: 'USD' });
    const j = await app.request('/api/v2', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: keyA, action: 'balance' }) });
    expect(await j.json()).toEqual({ balance: '1000.00', currency: 'USD' });
  });

  it('lists services with the customer’s rate per 1000 (service fee included), numbers as strings', async () => {
    await database.db.execute(sql`update settings set value = '10' where key = 'service_fee'`).catch(() => {});
    await app.request('/api/admin/settings', { method: 'PUT', headers: { ...json, cookie: admin }, body: JSON.stringify({ service_fee: 10 }) });
    const list = await v2({ key: keyA, action: 'services' });
    const s = list.find((x: any) => String(x.service) === plain.id);
    const tier = plain.tiers.find((t) => t.minimum <= 1000 && 1000 <= t.maximum) ?? plain.tiers[0]!;
    expect(Number(s.rate)).toBeCloseTo((Number(tier.price) * 1000 * 1.1) / tier.pricingPer, 3);
    expect(s.rate).toBe(ratePer1000(plain, { serviceFeePercent: 10, baseFee: 0 }));
    expect(s).toMatchObject({ min: String(plain.amountMinimum), refill: true, cancel: true, type: 'Default', category: 'TikTok ' + plain.type });
    expect(typeof s.max).toBe('string');
  });

  it('add: the same order as on the site, charged to the same ledger, marked via API', async () => {
    const before = await balanceOf(a.id);
    const reply = await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum });
    expect(reply).toEqual({ order: expect.any(Number) });
    const o = await orderByApiId(reply.order);
    expect(o).toMatchObject({ userId: a.id, viaApi: true, quantity: plain.amountMinimum });
    expect(await balanceOf(a.id)).toBe(before - o.chargeMicros);
    const [entry] = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.reference, o.id));
    expect(entry).toMatchObject({ kind: 'order_charge', amountMicros: -o.chargeMicros });
    const history = await (await get('/api/orders/actions', a.cookie)).json();
    expect(history.orders[o.id]).toMatchObject({ viaApi: true, apiId: reply.order });
  });

  it('add: refuses with the wording clients match on', async () => {
    const base = { key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum };
    expect(await v2({ ...base, service: '999999999' })).toEqual({ error: 'Incorrect service ID' });
    expect(await v2({ ...base, quantity: plain.amountMinimum - 1 })).toEqual({ error: `Quantity less than minimal ${plain.amountMinimum}` });
    expect(await v2({ ...base, quantity: plain.tiers[0]!.maximum + 1 })).toEqual({ error: `Quantity more than maximum ${plain.tiers[0]!.maximum}` });
    expect(await v2({ ...base, link: 'not a link' })).toEqual({ error: 'Incorrect link' });
    expect(await v2({ ...base, quantity: 'many' })).toEqual({ error: 'Incorrect request' });
    const first = await v2(base);
    expect(first.order).toBeGreaterThan(0);
    expect(await v2(base)).toEqual({ error: 'You have active order with this link. Please wait until order being completed.' });
    expect(await v2({ key: keyB, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum })).toEqual({ error: 'Not enough funds on balance' });
  });

  it('charges rate × quantity / 1000, to the fifth decimal of what it answers, and answers the balance to its fifth decimal', async () => {
    // A rate of 0.21272 per 1000: 0.2 with a 6.36 % service fee.
    const cheap = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.params.length === 0 && s.id !== plain.id)!;
    const tiers = [{ minimum: 1, maximum: 1_000_000, price: '0.2', pricingPer: 1000 }];
    await database.db.update(catalogServices).set({ tiers, amountMinimum: 1, amountIncrement: 1 }).where(eq(catalogServices.id, cheap.id));
    const settings = (body: object) => app.request('/api/admin/settings', { method: 'PUT', headers: { ...json, cookie: admin }, body: JSON.stringify(body) });
    // Stored as it is (the team's form takes tenths of a percent, docs/rules.md#settings; the rate's arithmetic takes any fee).
    await saveSettings(database.db, { service_fee: 6.36 });
    try {
      const c = await signUpUser(app);
      const key = (await (await post(app, '/api/api-keys', {}, { cookie: c.cookie })).json()).key as string;
      await credit(database.db, { userId: c.id, amountMicros: 100_000_005, kind: 'topup', reference: `fifths-${c.id}` });
      expect(await v2({ key, action: 'balance' })).toEqual({ balance: '100.00', currency: 'USD' });
      const rate = (await v2({ key, action: 'services' })).find((x: any) => String(x.service) === cheap.id).rate;
      expect(rate).toBe('0.21272');
      let spent = 0;
      for (const quantity of [1000, 1, 7, 1234, 5001]) {
        const { order } = await v2({ key, action: 'add', service: cheap.id, link: link(), quantity });
        const o = await orderByApiId(order);
        // Debited to the micro: 0.21272 × 1000 / 1000 = 212 720 micros, not a rounded-up 0.22.
        expect(o.chargeMicros).toBe(Math.ceil((21_272 * 10 * quantity) / 1000));
        spent += o.chargeMicros;
        // Answered to the fifth decimal: rate × quantity / 1000, the sixth rounded up.
        const fifths = Math.ceil((21_272 * quantity) / 1000);
        expect((await v2({ key, action: 'status', order })).charge).toBe(`${Math.floor(fifths / 100_000)}.${String(fifths % 100_000).padStart(5, '0')}`.replace(/(\.\d{2}\d*?)0+$/, '$1'));
      }
      expect(spent).toBe(212_720 + 213 + 1_490 + 262_497 + 1_063_813);
      expect(await balanceOf(c.id)).toBe(100_000_005 - spent);
      // 98.459272 left: the balance as the protocol writes it, never more than can be spent.
      expect(await v2({ key, action: 'balance' })).toEqual({ balance: '98.45927', currency: 'USD' });
    } finally {
      expect((await settings({ service_fee: 10 })).status).toBe(200);
      await database.db.update(catalogServices).set({ tiers: cheap.tiers, amountMinimum: cheap.amountMinimum, amountIncrement: cheap.amountIncrement }).where(eq(catalogServices.id, cheap.id));
    }
  });

  it('status: one order, or many with unknown and foreign ids as per-item errors', async () => {
    const { order } = await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum });
    const o = await orderByApiId(order);
    const one = await v2({ key: keyA, action: 'status', order });
    expect(one).toEqual({ charge: microsToUsd(o.chargeMicros, 'up'), start_count: '0', status: 'Pending', remains: String(o.quantity), currency: 'USD' });
    // Customer B's key sees nothing of A's order.
    expect(await v2({ key: keyB, action: 'status', order })).toEqual({ error: 'Incorrect order ID' });
    const raw = await app.request('/api/v2', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `key=${keyA}&action=status&orders=${order},1,abc` });
    const text = await raw.text();
    // In the order asked (JavaScript objects would put integer keys first).
    expect(text.indexOf(`"${order}"`)).toBeLessThan(text.indexOf('"1"'));
    expect(text.indexOf('"1"')).toBeLessThan(text.indexOf('"abc"'));
    const many = JSON.parse(text);
    expect(many[String(order)].status).toBe('Pending');
    expect(many['1']).toEqual({ error: 'Incorrect order ID' });
    expect(many.abc).toEqual({ error: 'Incorrect order ID' });
    const tooMany = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    expect(await v2({ key: keyA, action: 'status', orders: tooMany })).toEqual({ error: 'Incorrect request' });
    await database.db.update(orders).set({ status: 'in_progress', startCount: 120, remains: 3 }).where(eq(orders.id, o.id));
    expect(await v2({ key: keyA, action: 'status', order })).toMatchObject({ status: 'In progress', start_count: '120', remains: '3' });
  });

  it('refill and refill_status: completed orders within the period only; the request goes to the provider', async () => {
    const { order } = await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum });
    const early = await v2({ key: keyA, action: 'refill', order });
    expect(early).toEqual({ error: 'Refill is available for completed orders only' });
    await sendAccepted();
    const o = await orderByApiId(order);
    sandbox.control.setOrderState(o.providerOrderId!, 'completed');
    await database.db.update(orders).set({ status: 'completed', remains: 0 }).where(eq(orders.id, o.id));
    const before = sandbox.control.calls()['smm-v2:refill'] ?? 0;
    const { refill } = await v2({ key: keyA, action: 'refill', order });
    expect(refill).toEqual(expect.any(Number));
    expect(sandbox.control.calls()['smm-v2:refill']).toBe(before + 1);
    expect(await v2({ key: keyA, action: 'refill', order })).toEqual({ error: 'A refill of this order is already in progress' });
    expect(await v2({ key: keyA, action: 'refill_status', refill })).toEqual({ status: 'Pending' });
    expect(await v2({ key: keyB, action: 'refill_status', refill })).toEqual({ error: 'Incorrect refill ID' });
    expect(await v2({ key: keyA, action: 'refill_status', refills: `${refill},42` })).toEqual([
      { refill, status: 'Pending' },
      { refill: 42, status: { error: 'Incorrect refill ID' } },
    ]);
    expect(await v2({ key: keyA, action: 'refill', orders: `${order},7` })).toEqual([
      { order, refill: { error: 'A refill of this order is already in progress' } },
      { order: 7, refill: { error: 'Incorrect order ID' } },
    ]);
    // Past the period: refused.
    await database.db.update(orderRefills).set({ status: 'completed' }).where(eq(orderRefills.id, refill));
    await database.db.update(orders).set({ createdAt: new Date(Date.now() - 4000 * 86_400_000) }).where(eq(orders.id, o.id));
    expect(await v2({ key: keyA, action: 'refill', order })).toEqual({ error: 'The refill period of this order has ended' });
  });

  it('cancel: the provider is asked, and the undelivered part comes back through the refund rules', async () => {
    const before = await balanceOf(a.id);
    const { order } = await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum });
    const o = await orderByApiId(order);
    const reply = await v2({ key: keyA, action: 'cancel', orders: `${order},5` });
    expect(reply).toEqual([{ order, cancel: 1 }, { order: 5, cancel: { error: 'Incorrect order ID' } }]);
    const after = await orderByApiId(order);
    expect(after.status).toBe('cancelled');
    expect(after.refundedMicros).toBe(o.chargeMicros);
    expect(await balanceOf(a.id)).toBe(before);
    expect(await v2({ key: keyA, action: 'status', order })).toMatchObject({ status: 'Canceled', charge: '0.00' });
    expect(await v2({ key: keyA, action: 'cancel', orders: String(order) })).toEqual([{ order, cancel: { error: 'Cancel is available for active orders only' } }]);
    // B cannot cancel A's order.
    const { order: other } = await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum });
    expect(await v2({ key: keyB, action: 'cancel', orders: String(other) })).toEqual([{ order: other, cancel: { error: 'Incorrect order ID' } }]);
    expect((await orderByApiId(other)).status).toBe('pending');
  });

  it('answers more calls than the per-key limit with the protocol’s error and a Retry-After', async () => {
    const [k] = await database.db.select().from(apiKeys).where(eq(apiKeys.keyHash, hashKey(keyB)));
    await database.db.insert(rateLimits).values({ key: `api:key:${k!.id}`, count: 600, resetAt: new Date(Date.now() + 60_000) }).onConflictDoUpdate({ target: rateLimits.key, set: { count: 600 } });
    const res = await app.request('/api/v2', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `key=${keyB}&action=balance` });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({ error: 'Too many requests. Please slow down.' });
    // Another key of another customer is not slowed by it.
    expect((await v2({ key: keyA, action: 'balance' })).currency).toBe('USD');
  });

  it('counts an add once, in the order’s statement or, refused before it, on its own; over the key’s limit nothing is placed or taken', async () => {
    const [k] = await database.db.select().from(apiKeys).where(eq(apiKeys.keyHash, hashKey(keyA)));
    const callKey = `api:key:${k!.id}`;
    const ordersKey = `orders:user:${a.id.toLowerCase()}`;
    const count = async (key: string) => (await database.db.select().from(rateLimits).where(eq(rateLimits.key, key)))[0]?.count ?? 0;
    const setCalls = (n: number) =>
      database.db.insert(rateLimits).values({ key: callKey, count: n, resetAt: new Date(Date.now() + 60_000) }).onConflictDoUpdate({ target: rateLimits.key, set: { count: n, resetAt: new Date(Date.now() + 60_000) } });
    await setCalls(0);
    const ordersBefore = await count(ordersKey);
    const placed = await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum });
    expect(typeof placed.order).toBe('number');
    expect([await count(callKey), await count(ordersKey)]).toEqual([1, ordersBefore + 1]);
    expect(await v2({ key: keyA, action: 'add', service: plain.id, link: 'not a link', quantity: plain.amountMinimum })).toEqual({ error: expect.any(String) });
    expect([await count(callKey), await count(ordersKey)]).toEqual([2, ordersBefore + 1]);

    await setCalls(600);
    const balance = await balanceOf(a.id);
    const [{ n: stored }] = await database.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.userId, a.id));
    const res = await app.request('/api/v2', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: String(plain.amountMinimum) }).toString() });
    expect(await res.json()).toEqual({ error: 'Too many requests. Please slow down.' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect([await count(callKey), await count(ordersKey), await balanceOf(a.id)]).toEqual([601, ordersBefore + 1, balance]);
    expect((await database.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.userId, a.id)))[0]!.n).toBe(stored);
    await setCalls(0);
  });
});

describe('/api/v2 as the clients in the wild send it', () => {
  it('answers at /api/v2/ with a trailing slash, over POST and GET', async () => {
    const post = await app.request('/api/v2/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `key=${keyA}&action=balance` });
    expect(post.status).toBe(200);
    expect((await post.json()).currency).toBe('USD');
    expect(await (await app.request(`/api/v2/?key=${keyA}&action=balance`)).json()).toMatchObject({ currency: 'USD' });
  });

  it('reads a form sent as text/plain', async () => {
    const res = await app.request('/api/v2', { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: `key=${keyA}&action=balance` });
    expect(await res.json()).toMatchObject({ currency: 'USD' });
  });

  it('takes quantity=100.0, a link without https:// and runs=undefined on a plain order, and a list in order', async () => {
    const quantity = plain.amountMinimum;
    const bare = link().replace('https://', '');
    const placed = await v2({ key: keyA, action: 'add', service: plain.id, link: bare, quantity: `${quantity}.0`, runs: 'undefined', interval: 'undefined' });
    expect(typeof placed.order).toBe('number');
    const row = await orderByApiId(placed.order);
    expect([row.link, row.quantity, row.runs]).toEqual([`https://${bare}`, quantity, null]);
    const empty = await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity, runs: '', interval: '' });
    expect((await orderByApiId(empty.order)).runs).toBeNull();
    // A fraction that is not zero is not a quantity.
    expect(await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: `${quantity}.5` })).toEqual({ error: 'Incorrect request' });

    // Answered in the order asked, both ways round; read from the text, since JSON.parse puts integer keys in ascending order.
    for (const [first, second] of [[placed.order, empty.order], [empty.order, placed.order]]) {
      const raw = await app.request('/api/v2', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `key=${keyA}&action=status&order=${first},${second}` });
      const text = await raw.text();
      expect(text.indexOf(`"${first}":`)).toBe(1);
      expect(text.indexOf(`"${second}":`)).toBeGreaterThan(1);
      expect(JSON.parse(text)[String(first)]).toMatchObject({ status: expect.any(String), currency: 'USD' });
    }
  });
});

describe('/api/v2 comment and mention orders as PerfectPanel clients send them', () => {
  /** An active service of the platform that requires the field. */
  const requiring = async (field: string, platform: string, also: (s: Service) => boolean = () => true) => {
    const s = (await database.db.select().from(catalogServices)).find((x) => x.active && x.platform === platform && x.params.some((p) => p.fieldName === field && p.required) && also(x));
    expect(s, `${platform} service with ${field}`).toBeTruthy();
    return s!;
  };
  /** What the site's own pricing charges for an order of `quantity`. */
  const priceOf = async (s: Service, quantity: number) => {
    const settings = await getSettings(database.db);
    return priceOrder(s.tiers, quantity, { serviceFeePercent: settings.service_fee, baseFee: settings.base_fee }).micros;
  };
  const items = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i + 1}`);
  const instagramPost = () => `https://www.instagram.com/p/Cm${Date.now()}${++linkNo}/`;

  it('Custom Comments: comments without quantity order one unit per non-empty line, charged for the lines', async () => {
    const s = await requiring('comments', 'tiktok');
    const services = await v2({ key: keyA, action: 'services' });
    expect(services.find((x: any) => String(x.service) === s.id).type).toBe('Custom Comments');
    const n = quantityBounds(s).min + 2;
    const comments = items(n, 'Great video ');
    // Windows line ends, blank and space-only lines between and around: only the comments count.
    const text = ['', comments[0], '   ', ...comments.slice(1), '', ''].join('\r\n');
    const before = await balanceOf(a.id);
    const reply = await v2({ key: keyA, action: 'add', service: s.id, link: link(), comments: text });
    expect(reply).toEqual({ order: expect.any(Number) });
    const o = await orderByApiId(reply.order);
    expect(o.quantity).toBe(n);
    expect(o.params.comments).toBe(comments.join('\n'));
    expect(o.chargeMicros).toBe(await priceOf(s, n));
    expect(await balanceOf(a.id)).toBe(before - o.chargeMicros);
    // It reaches the provider as the lines it is charged for.
    await sendAccepted();
    const sent = sandbox.control.order((await orderByApiId(reply.order)).providerOrderId!);
    expect(sent).toMatchObject({ quantity: n, params: { comments: comments.join('\n') } });
  });

  it('Mentions Custom List: usernames without quantity order one unit per non-empty line, charged for the lines', async () => {
    const s = await requiring('usernames', 'instagram');
    const services = await v2({ key: keyA, action: 'services' });
    expect(services.find((x: any) => String(x.service) === s.id).type).toBe('Mentions Custom List');
    const n = quantityBounds(s).min;
    const names = items(n, 'user');
    const reply = await v2({ key: keyA, action: 'add', service: s.id, link: instagramPost(), usernames: `${names.join('\n\n')}\n` });
    expect(reply).toEqual({ order: expect.any(Number) });
    const o = await orderByApiId(reply.order);
    expect([o.quantity, o.params.usernames]).toEqual([n, names.join('\n')]);
    expect(o.chargeMicros).toBe(await priceOf(s, n));
  });

  it('a quantity sent along with the lines is not read: the lines are the order', async () => {
    const s = await requiring('comments', 'tiktok');
    const n = quantityBounds(s).min;
    const comments = items(n, 'Nice ').join('\n');
    for (const quantity of [String(n + 7), String(quantityBounds(s).max + 1), 'many']) {
      const reply = await v2({ key: keyA, action: 'add', service: s.id, link: link(), quantity, comments });
      expect(reply, quantity).toEqual({ order: expect.any(Number) });
      const o = await orderByApiId(reply.order);
      expect(o.quantity).toBe(n);
      expect(o.chargeMicros).toBe(await priceOf(s, n));
    }
  });

  it('too few or too many lines are refused in the protocol’s quantity wording; none at all as a missing field', async () => {
    // One more comment than the maximum, a letter each, still fits in an order's field.
    const s = await requiring('comments', 'tiktok', (x) => 2 * (quantityBounds(x).max + 1) <= ORDER_PARAM_MAX_LENGTH);
    const { min, max } = quantityBounds(s);
    const before = await balanceOf(a.id);
    const add = (comments: string, quantity?: number) => v2({ key: keyA, action: 'add', service: s.id, link: link(), comments, ...(quantity ? { quantity } : {}) });
    expect(await add(items(min - 1, 'c').join('\n'), min)).toEqual({ error: `Quantity less than minimal ${min}` });
    // Blank lines do not make up for missing comments.
    expect(await add(`${items(min - 1, 'c').join('\n')}\n\n\n`)).toEqual({ error: `Quantity less than minimal ${min}` });
    expect(await add(Array.from({ length: max + 1 }, () => 'c').join('\n'), min)).toEqual({ error: `Quantity more than maximum ${max}` });
    expect(await add(' \n \n')).toEqual({ error: 'comments is required' });
    expect(await v2({ key: keyA, action: 'add', service: s.id, link: link(), quantity: min })).toEqual({ error: 'comments is required' });
    expect(await balanceOf(a.id)).toBe(before);
  });

  it('a list longer than an order’s field holds is refused in the protocol’s form, HTTP 200 and in words', async () => {
    const s = await requiring('comments', 'tiktok');
    const { min } = quantityBounds(s);
    const long = items(min, 'x'.repeat(1000)).join('\n');
    expect(await v2({ key: keyA, action: 'add', service: s.id, link: link(), quantity: min, comments: long })).toEqual({ error: `comments is too long (at most ${ORDER_PARAM_MAX_LENGTH} characters)` });
  });
});

describe('/api/v2 in maintenance', () => {
  it('refuses orders, refills and cancels in the protocol’s form, over POST and GET alike, and keeps answering reads', async () => {
    const put = (on: boolean) => app.request('/api/admin/settings', { method: 'PUT', headers: { ...json, cookie: admin }, body: JSON.stringify({ maintenance_mode: on }) });
    expect((await put(true)).status).toBe(200);
    try {
      const before = (await database.db.select().from(orders)).length;
      const maintenance = { error: 'The service is under maintenance. Please try again later.' };
      expect(await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum })).toEqual(maintenance);
      const viaGet = await app.request(`/api/v2?key=${keyA}&action=add&service=${plain.id}&quantity=${plain.amountMinimum}&link=${encodeURIComponent(link())}`);
      expect(await viaGet.json()).toEqual(maintenance);
      expect(await v2({ key: keyA, action: 'cancel', orders: '1' })).toEqual(maintenance);
      expect((await database.db.select().from(orders)).length).toBe(before);
      expect((await v2({ key: keyA, action: 'balance' })).currency).toBe('USD');
    } finally {
      await put(false);
    }
  });
});

describe('refill and cancel from the site and the admin area', () => {
  it('history shows buttons only where allowed; refill and cancel work for the owner only', async () => {
    const placed = await post(app, '/api/orders', { serviceId: plain.id, link: link(), quantity: plain.amountMinimum, params: {}, idempotencyKey: randomUUID() }, { cookie: a.cookie });
    const view = await placed.json();
    let actions = (await (await get('/api/orders/actions', a.cookie)).json()).orders[view.id];
    expect(actions).toMatchObject({ viaApi: false, canRefill: false, canCancel: true });
    expect((await post(app, `/api/orders/${view.id}/cancel`, {}, { cookie: b.cookie })).status).toBe(404);
    const cancelled = await post(app, `/api/orders/${view.id}/cancel`, {}, { cookie: a.cookie });
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).status).toBe('cancelled');
    actions = (await (await get('/api/orders/actions', a.cookie)).json()).orders[view.id];
    expect(actions).toMatchObject({ canCancel: false, cancelRequested: true });

    const second = await (await post(app, '/api/orders', { serviceId: plain.id, link: link(), quantity: plain.amountMinimum, params: {}, idempotencyKey: randomUUID() }, { cookie: a.cookie })).json();
    await sendAccepted();
    const row = (await database.db.select().from(orders).where(eq(orders.id, second.id)))[0]!;
    sandbox.control.setOrderState(row.providerOrderId!, 'completed');
    await database.db.update(orders).set({ status: 'completed', remains: 0 }).where(eq(orders.id, row.id));
    actions = (await (await get('/api/orders/actions', a.cookie)).json()).orders[second.id];
    expect(actions).toMatchObject({ canRefill: true, canCancel: false, refill: null });
    expect(actions.refillUntil).not.toBeNull();
    expect((await post(app, `/api/orders/${second.id}/refill`, {}, { cookie: b.cookie })).status).toBe(404);
    const refill = await post(app, `/api/orders/${second.id}/refill`, {}, { cookie: a.cookie });
    expect(refill.status).toBe(201);
    actions = (await (await get('/api/orders/actions', a.cookie)).json()).orders[second.id];
    expect(actions).toMatchObject({ canRefill: false, refill: { status: 'pending' } });
    const again = await post(app, `/api/orders/${second.id}/refill`, {}, { cookie: a.cookie });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('REFILL_NOT_ALLOWED');
  });

  it('an admin refills and cancels any customer’s order, audited', async () => {
    const { order } = await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum });
    const o = await orderByApiId(order);
    // The team's order detail says what the order allows, by the customer's rule: a pending order may be cancelled, not refilled.
    expect((await (await get(`/api/admin/orders/${o.id}`, admin)).json()).actions).toMatchObject({ canRefill: false, canCancel: true });
    const res = await app.request(`/api/admin/orders/${o.id}/cancel`, { method: 'POST', headers: { ...json, cookie: admin } });
    expect(res.status).toBe(200);
    expect((await orderByApiId(order)).status).toBe('cancelled');
    const detail = await (await get(`/api/admin/orders/${o.id}`, admin)).json();
    expect(detail.order).toMatchObject({ viaApi: true, apiId: order });
    expect(detail.actions).toMatchObject({ canRefill: false, canCancel: false });
    const audit = await (await get('/api/admin/audit', admin)).json();
    expect(audit.entries.some((e: any) => e.action === 'order.cancel')).toBe(true);
  });
});

describe('under concurrency (PostgreSQL when TEST_DATABASE_URL is set)', () => {
  it('parallel refill requests of one order: one reaches the provider, the others are refused', async () => {
    const { order } = await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum });
    await sendAccepted();
    const o = await orderByApiId(order);
    sandbox.control.setOrderState(o.providerOrderId!, 'completed');
    await database.db.update(orders).set({ status: 'completed', remains: 0, createdAt: new Date() }).where(eq(orders.id, o.id));
    const calls = sandbox.control.calls()['smm-v2:refill'] ?? 0;
    const replies = await Promise.all(Array.from({ length: 10 }, () => v2({ key: keyA, action: 'refill', order })));
    expect(replies.filter((r) => typeof r.refill === 'number')).toHaveLength(1);
    expect(replies.filter((r) => r.error === 'A refill of this order is already in progress')).toHaveLength(9);
    expect(sandbox.control.calls()['smm-v2:refill']).toBe(calls + 1);
    const rows = await database.db.select().from(orderRefills).where(eq(orderRefills.orderId, o.id));
    expect(rows).toHaveLength(1);
  });

  it('parallel key creation never goes past the limit', async () => {
    const c = await signUpUser(app);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => post(app, '/api/api-keys', { name: `p${i}` }, { cookie: c.cookie })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_API_KEYS);
    expect(results.filter((r) => r.status === 409)).toHaveLength(12 - MAX_API_KEYS);
  });

  it('parallel API orders spend the balance exactly once each and never below zero', async () => {
    const c = await signUpUser(app);
    const k = (await (await post(app, '/api/api-keys', {}, { cookie: c.cookie })).json()).key as string;
    const probe = await v2({ key: keyA, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum });
    const price = (await orderByApiId(probe.order)).chargeMicros;
    await credit(database.db, { userId: c.id, amountMicros: price * 7, kind: 'topup', reference: `race-${c.id}` });
    const replies = await Promise.all(Array.from({ length: 20 }, () => v2({ key: k, action: 'add', service: plain.id, link: link(), quantity: plain.amountMinimum })));
    expect(replies.filter((r) => typeof r.order === 'number')).toHaveLength(7);
    expect(replies.filter((r) => r.error === 'Not enough funds on balance')).toHaveLength(13);
    expect(await balanceOf(c.id)).toBe(0);
    const placed = await database.db.select().from(orders).where(eq(orders.userId, c.id));
    expect(placed.every((o) => o.viaApi)).toBe(true);
    expect(placed).toHaveLength(7);
  });
});
