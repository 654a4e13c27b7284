import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { MassOrderResult } from '../../core/contracts/massOrder';
import { post, signUpUser } from '../auth/testing';
import { syncCatalog } from '../catalog';
import type { Database } from '../db/client';
import { catalogServices, ledgerEntries, orders, rateLimits, users } from '../db/schema';
import { parseEnv } from '../env';
import { RATE_RULES } from '../http/rateLimit';
import { createLogger } from '../logger';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sandboxClient } from '../testing/sandbox';
import { credit } from '../wallet/ledger';
import { startDueRuns } from './dripfeed';
import { singleProvider } from '../providers';

/** Orders one customer may place a minute here: small, so every way of ordering reaches it. */
const LIMIT = 6;

let database: Database;
let sandbox: SandboxProvider;
let app: Hono;
type Service = typeof catalogServices.$inferSelect;
let plain: Service;
let drip: Service;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600, seed: 5 });
  const provider = sandboxClient(sandbox, { timeoutMs: 5000 });
  await syncCatalog(database.db, provider);
  const env = parseEnv({ NODE_ENV: 'test', JOBS: 'false', LOG_LEVEL: 'silent', ORDERS_PER_MINUTE: String(LIMIT) });
  ({ app } = await createTestApp(database, { providers: singleProvider(provider), env }));
  const all = await database.db.select().from(catalogServices);
  plain = all.find((s) => s.platform === 'tiktok' && s.params.length === 0 && !s.dripfeed)!;
  drip = all.find((s) => s.platform === 'instagram' && s.params.length === 0 && s.dripfeed)!;
  expect(plain).toBeTruthy();
  expect(drip).toBeTruthy();
}, 60_000);
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

let linkNo = 0;
const link = () => `https://www.tiktok.com/@limit/video/${Date.now()}${++linkNo}`;

/** A customer with money enough for every order of these tests, and an API key. */
async function customer() {
  const user = await signUpUser(app);
  await credit(database.db, { userId: user.id, amountMicros: 10_000_000_000, kind: 'topup', reference: `t-${user.id}` });
  const key = (await (await post(app, '/api/api-keys', {}, { cookie: user.cookie })).json()).key as string;
  return { ...user, key };
}
type Customer = Awaited<ReturnType<typeof customer>>;

const siteOrder = (c: Customer) =>
  post(app, '/api/orders', { serviceId: plain.id, link: link(), quantity: plain.amountMinimum, params: {}, idempotencyKey: randomUUID() }, { cookie: c.cookie });

/** An `add` as panels send it: a form POST with the key, no cookies. */
async function apiOrder(c: Customer, extra: Record<string, string> = {}) {
  const res = await app.request('/api/v2', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key: c.key, action: 'add', service: plain.id, link: link(), quantity: String(plain.amountMinimum), ...extra }).toString(),
  });
  expect(res.status).toBe(200);
  return { body: (await res.json()) as { order?: number; error?: string }, retryAfter: res.headers.get('retry-after') };
}

const massOrder = (c: Customer, lines: number, batchKey = randomUUID()) =>
  post(app, '/api/orders/mass', { batchKey, text: Array.from({ length: lines }, () => `${plain.id}|${link()}|${plain.amountMinimum}`).join('\n') }, { cookie: c.cookie });

const ordersOf = async (id: string) => database.db.select().from(orders).where(eq(orders.userId, id));
const ledgerOf = async (id: string) => database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, id));
const balanceOf = async (id: string) => (await database.db.select({ b: users.balanceMicros }).from(users).where(eq(users.id, id)))[0]!.b;
const counted = async (id: string) =>
  (await database.db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, `${RATE_RULES.ordersPerUser.name}:${id.toLowerCase()}`)))[0]?.count ?? 0;

const RATE_ERROR = { error: 'Too many requests. Please slow down.' };

describe('one order counter per customer, whichever way they order', () => {
  it('refuses API orders beyond the limit in the protocol’s words, with a Retry-After, and places nothing more', async () => {
    const c = await customer();
    for (let i = 0; i < LIMIT; i++) expect(typeof (await apiOrder(c)).body.order).toBe('number');
    const balance = await balanceOf(c.id);
    const refused = await apiOrder(c);
    expect(refused.body).toEqual(RATE_ERROR);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect(await ordersOf(c.id)).toHaveLength(LIMIT);
    expect(await balanceOf(c.id)).toBe(balance);
  });

  it('counts API orders against the site and site orders against the API', async () => {
    const apiFirst = await customer();
    for (let i = 0; i < LIMIT; i++) expect(typeof (await apiOrder(apiFirst)).body.order).toBe('number');
    const site = await siteOrder(apiFirst);
    expect(site.status).toBe(429);
    expect(await site.json()).toMatchObject({ error: { code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } } });

    const siteFirst = await customer();
    for (let i = 0; i < LIMIT; i++) expect((await siteOrder(siteFirst)).status).toBe(201);
    expect((await apiOrder(siteFirst)).body).toEqual(RATE_ERROR);
    expect(await ordersOf(siteFirst.id)).toHaveLength(LIMIT);
  });

  it('counts a drip-feed parent as one order, and never the runs the server writes', async () => {
    const c = await customer();
    const placed = await apiOrder(c, { service: drip.id, link: `https://instagram.com/limit.drip${Date.now()}`, quantity: String(drip.amountMinimum), runs: '3', interval: '1' });
    expect(typeof placed.body.order).toBe('number');
    expect(await counted(c.id)).toBe(1);
    // The parent's first run is due at once.
    expect(await startDueRuns({ db: database.db, logger: createLogger('silent') })).toBeGreaterThan(0);
    const [parent] = await database.db.select().from(orders).where(and(eq(orders.userId, c.id), eq(orders.apiId, placed.body.order!)));
    expect((await database.db.select().from(orders).where(eq(orders.parentId, parent!.id))).length).toBeGreaterThan(0);
    expect(await counted(c.id)).toBe(1);
  });

  it('refuses a mass order whole when its lines exceed what is left, and takes nothing for it', async () => {
    const c = await customer();
    for (let i = 0; i < LIMIT - 2; i++) expect((await siteOrder(c)).status).toBe(201);
    const [ordersBefore, ledgerBefore, balanceBefore] = [await ordersOf(c.id), await ledgerOf(c.id), await balanceOf(c.id)];

    const refused = await massOrder(c, 3);
    expect(refused.status).toBe(429);
    const { error } = await refused.json();
    expect(error).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } });
    expect(error.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(error.details.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await ordersOf(c.id)).toHaveLength(ordersBefore.length);
    expect(await ledgerOf(c.id)).toHaveLength(ledgerBefore.length);
    expect(await balanceOf(c.id)).toBe(balanceBefore);

    // What is left is still there: a batch of exactly that many passes, and then nothing else does.
    const fits = (await (await massOrder(c, 2)).json()) as MassOrderResult;
    expect(fits.placed).toBe(2);
    expect((await apiOrder(c)).body).toEqual(RATE_ERROR);
    expect(await ordersOf(c.id)).toHaveLength(LIMIT);
  });

  it('counts each line of a mass order once: a retried batch replays without counting again', async () => {
    const c = await customer();
    const batchKey = randomUUID();
    const text = Array.from({ length: 3 }, () => `${plain.id}|${link()}|${plain.amountMinimum}`).join('\n');
    const first = (await (await post(app, '/api/orders/mass', { batchKey, text }, { cookie: c.cookie })).json()) as MassOrderResult;
    expect(first.placed).toBe(3);
    const again = (await (await post(app, '/api/orders/mass', { batchKey, text }, { cookie: c.cookie })).json()) as MassOrderResult;
    expect(again.lines.map((l) => (l.ok ? l.order.id : null))).toEqual(first.lines.map((l) => (l.ok ? l.order.id : null)));
    expect(await counted(c.id)).toBe(3);
    for (let i = 3; i < LIMIT; i++) expect((await siteOrder(c)).status).toBe(201);
    expect((await siteOrder(c)).status).toBe(429);
  });

  it('refuses a mass order longer than the whole limit as too long, since no wait would let it pass', async () => {
    const c = await customer();
    const res = await massOrder(c, LIMIT + 1);
    expect(res.status).toBe(422);
    expect((await res.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: { reason: 'too_many', max: LIMIT } });
    expect(await ordersOf(c.id)).toHaveLength(0);
    expect(await counted(c.id)).toBe(0);
  });
});

describe('under concurrency (PostgreSQL when TEST_DATABASE_URL is set)', () => {
  it('a parallel burst of site, API and mass orders never places more than the limit', async () => {
    const c = await customer();
    const balance = await balanceOf(c.id);
    const site = Array.from({ length: 8 }, () => siteOrder(c));
    const api = Array.from({ length: 8 }, () => apiOrder(c));
    const mass = Array.from({ length: 4 }, () => massOrder(c, 2));
    const [siteReplies, apiReplies, massReplies] = await Promise.all([Promise.all(site), Promise.all(api), Promise.all(mass)]);

    const placed = await ordersOf(c.id);
    // Twenty single orders wanted a slot, so every slot was taken by someone: exactly the limit.
    expect(placed).toHaveLength(LIMIT);
    // Each refusal is the limit's, in each way's own words; each accepted request placed its orders.
    const siteStatuses = siteReplies.map((r) => r.status);
    expect(siteStatuses.every((s) => s === 201 || s === 429)).toBe(true);
    expect(apiReplies.every((r) => typeof r.body.order === 'number' || r.body.error === RATE_ERROR.error)).toBe(true);
    const massStatuses = massReplies.map((r) => r.status);
    expect(massStatuses.every((s) => s === 200 || s === 429)).toBe(true);
    const accepted = siteStatuses.filter((s) => s === 201).length + apiReplies.filter((r) => r.body.order).length + 2 * massStatuses.filter((s) => s === 200).length;
    expect(accepted).toBe(LIMIT);
    // Charged once per placed order, nothing for the refused ones.
    const charges = (await ledgerOf(c.id)).filter((e) => e.kind === 'order_charge');
    expect(charges).toHaveLength(LIMIT);
    expect(await balanceOf(c.id)).toBe(balance - placed.reduce((sum, o) => sum + o.chargeMicros, 0));
    expect(await counted(c.id)).toBe(LIMIT);
  });
});
