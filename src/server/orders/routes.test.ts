import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { historyPageSchema, orderOverviewSchema, orderViewSchema, trackResultSchema } from '../../core/contracts/orders';
import { post, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { catalogServices, ledgerEntries, orders } from '../db/schema';
import { createRealtimeHub, type RealtimeHub } from '../realtime/hub';
import { createLogger } from '../logger';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { parseEnv } from '../env';
import { credit } from '../wallet/ledger';
import { eventStreamReader } from '../testing/events';
import { sandboxClient } from '../testing/sandbox';
import { startDueRuns } from './dripfeed';
import type { OrdersDeps } from './service';
import { singleProvider } from '../providers';

let database: Database;
let sandbox: SandboxProvider;
let realtime: RealtimeHub;
let app: Hono;
let a: Awaited<ReturnType<typeof signUpUser>>;
let b: Awaited<ReturnType<typeof signUpUser>>;
let service: typeof catalogServices.$inferSelect;
let deps: OrdersDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 60 });
  const provider = sandboxClient(sandbox);
  await syncCatalog(database.db, provider);
  realtime = await createRealtimeHub(database, createLogger('silent'));
  ({ app } = await createTestApp(database, { providers: singleProvider(provider), realtime }));
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
  a = await signUpUser(app);
  b = await signUpUser(app);
  await credit(database.db, { userId: a.id, amountMicros: 500_000_000, kind: 'topup', reference: `t-${a.id}` });
  service = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.params.length === 0)!;
});
afterAll(async () => {
  await realtime.close();
  await sandbox.close();
  await database.close();
});

const get = (path: string, cookie?: string) => app.request(path, { headers: cookie ? { cookie } : {} });
const orderBody = (link: string) => ({ serviceId: service.id, link, quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() });

describe('orders over HTTP', () => {
  it('needs a signed-in customer', async () => {
    expect((await post(app, '/api/orders', orderBody('https://tiktok.com/@a'))).status).toBe(401);
    expect((await get('/api/orders')).status).toBe(401);
    expect((await get('/api/orders/stats')).status).toBe(401);
    expect((await get('/api/orders/overview')).status).toBe(401);
    expect((await get('/api/wallet')).status).toBe(401);
    expect((await get('/api/events')).status).toBe(401);
  });

  it('refuses a request from another origin', async () => {
    const res = await post(app, '/api/orders', orderBody('https://tiktok.com/@x'), { cookie: a.cookie, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('places an order, lists it only for its owner, and counts it', async () => {
    const res = await post(app, '/api/orders', orderBody('https://tiktok.com/@artim'), { cookie: a.cookie });
    expect(res.status).toBe(201);
    const order = orderViewSchema.parse(await res.json());
    const mine = (await (await get('/api/orders', a.cookie)).json()).orders;
    expect(mine.map((o: { id: string }) => o.id)).toContain(order.id);
    const theirs = (await (await get('/api/orders', b.cookie)).json()).orders;
    expect(theirs).toEqual([]);
    expect(await (await get('/api/orders/stats', a.cookie)).json()).toMatchObject({ total: 1, active: 1 });
    expect(await (await get('/api/orders/stats', b.cookie)).json()).toEqual({ total: 0, active: 0, completed: 0, partial: 0, error: 0 });
    expect((await (await get('/api/wallet', a.cookie)).json()).balanceMicros).toBe(500_000_000 - order.chargeMicros);
  });

  it("gives the dashboard's counters and its owner's active orders, and no final one, in one answer", async () => {
    const c = await signUpUser(app);
    await credit(database.db, { userId: c.id, amountMicros: 500_000_000, kind: 'topup', reference: `t-${c.id}` });
    const placed = [];
    for (const link of ['https://tiktok.com/@overview.a', 'https://tiktok.com/@overview.b', 'https://tiktok.com/@overview.c']) {
      const res = await post(app, '/api/orders', orderBody(link), { cookie: c.cookie });
      expect(res.status).toBe(201);
      placed.push(orderViewSchema.parse(await res.json()));
    }
    await database.db.update(orders).set({ status: 'completed' }).where(eq(orders.id, placed[0]!.id));
    await database.db.update(orders).set({ status: 'completed' }).where(eq(orders.id, placed[1]!.id));
    const overview = orderOverviewSchema.parse(await (await get('/api/orders/overview', c.cookie)).json());
    expect(overview.stats).toEqual(await (await get('/api/orders/stats', c.cookie)).json());
    expect(overview.stats).toMatchObject({ total: 3, active: 1, completed: 2 });
    expect(overview.active.map((o) => o.id)).toEqual([placed[2]!.id]);
    // Another customer's overview holds none of them.
    expect(orderOverviewSchema.parse(await (await get('/api/orders/overview', b.cookie)).json())).toEqual({ stats: { total: 0, active: 0, completed: 0, partial: 0, error: 0 }, active: [] });
  });

  it('answers invalid bodies with stable codes, never 500', async () => {
    for (const body of [{}, { serviceId: 1 }, { ...orderBody('x'), quantity: 'ten' }, { ...orderBody('https://tiktok.com/@q'), idempotencyKey: 'short' }, [], 'text']) {
      const res = await post(app, '/api/orders', body, { cookie: a.cookie });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect((await res.json()).error.code).toMatch(/^[A-Z_]+$/);
    }
    const broken = await app.request('/api/orders', { method: 'POST', headers: { origin: TEST_ORIGIN, cookie: a.cookie, 'content-type': 'application/json' }, body: '{not json' });
    expect(broken.status).toBe(400);
  });

  it('counts every attempt against the orders a minute of a customer (ORDERS_PER_MINUTE): refused, invalid and placed alike', async () => {
    const c = await signUpUser(app);
    const limit = parseEnv({ NODE_ENV: 'test' }).ORDERS_PER_MINUTE;
    // Orders the balance does not cover and bodies that are not orders take their turn too.
    for (let i = 0; i < limit - 2; i++) expect((await post(app, '/api/orders', orderBody(`https://tiktok.com/@limit.${i}`), { cookie: c.cookie })).status).toBe(402);
    expect((await post(app, '/api/orders', { serviceId: 1 }, { cookie: c.cookie })).status).toBe(422);
    expect((await post(app, '/api/orders', orderBody('https://evil.example/x'), { cookie: c.cookie })).status).toBeLessThan(500);
    await credit(database.db, { userId: c.id, amountMicros: 500_000_000, kind: 'topup', reference: `t-${c.id}` });
    const refused = await post(app, '/api/orders', orderBody('https://tiktok.com/@limit.over'), { cookie: c.cookie });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('RATE_LIMITED');
    expect((await (await get('/api/wallet', c.cookie)).json()).balanceMicros).toBe(500_000_000);
    // Another customer is not affected.
    expect((await post(app, '/api/orders', orderBody('https://tiktok.com/@limit.other'), { cookie: a.cookie })).status).toBe(201);
  });

  it('refuses the keys the server makes for its own orders: a customer takes no drip-feed run’s key and places nothing as if through the API', async () => {
    const drip = (await database.db.select().from(catalogServices)).find((s) => s.dripfeed && s.platform === 'instagram' && s.params.length === 0 && s.tiers.length > 0)!;
    const placed = await post(app, '/api/orders', { serviceId: drip.id, link: 'https://instagram.com/keys.drip', quantity: drip.amountMinimum, params: {}, idempotencyKey: randomUUID(), runs: 2, interval: 60 }, { cookie: a.cookie });
    expect(placed.status).toBe(201);
    const parent = orderViewSchema.parse(await placed.json());
    const before = (await (await get('/api/wallet', a.cookie)).json()).balanceMicros;
    for (const idempotencyKey of [`drip_${parent.id}_1`, `drip:${parent.id}:1`, `api_${randomUUID()}`, 'mass_3f1c9a2e-7b4d_1']) {
      const res = await post(app, '/api/orders', { ...orderBody(`https://tiktok.com/@keys.${randomUUID()}`), idempotencyKey }, { cookie: a.cookie });
      expect(res.status, idempotencyKey).toBe(422);
      expect((await res.json()).error.code).toBe('VALIDATION_FAILED');
    }
    expect((await (await get('/api/wallet', a.cookie)).json()).balanceMicros).toBe(before);
    expect(await database.db.select({ key: orders.idempotencyKey }).from(orders).where(and(eq(orders.userId, a.id), eq(orders.viaApi, true)))).toEqual([]);

    // An order keyed as runs were keyed before (placed while such keys were taken) does not stop the run either.
    const site = orderViewSchema.parse(await (await post(app, '/api/orders', orderBody('https://tiktok.com/@keys.old'), { cookie: a.cookie })).json());
    await database.db.update(orders).set({ idempotencyKey: `drip_${parent.id}_1` }).where(eq(orders.id, site.id));
    expect(await startDueRuns(deps, { minuteMs: 60_000 })).toBe(1);
    const [run] = await database.db.select().from(orders).where(eq(orders.parentId, parent.id));
    expect(run).toMatchObject({ idempotencyKey: `drip:${parent.id}:1`, chargeMicros: parent.chargeMicros / 2, quantity: drip.amountMinimum, status: 'pending', viaApi: false });
    expect((await database.db.select().from(orders).where(eq(orders.id, parent.id)))[0]).toMatchObject({ runsSent: 1, refundedMicros: 0 });
    // Charged once, on the parent; the run carries its share of that charge.
    const charges = await database.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, a.id), eq(ledgerEntries.kind, 'order_charge')));
    expect(charges.filter((e) => e.reference === parent.id || e.reference === run!.id).map((e) => [e.reference, e.amountMicros])).toEqual([[parent.id, -parent.chargeMicros]]);
  });

  it('tracks an order by its number without personal data; unknown numbers are not found', async () => {
    const order = orderViewSchema.parse(await (await post(app, '/api/orders', orderBody('https://tiktok.com/@tracked'), { cookie: a.cookie })).json());
    const res = await get(`/api/track/${order.number.toLowerCase()}`);
    expect(res.status).toBe(200);
    const tracked = trackResultSchema.strict().parse(await res.json());
    expect(tracked.number).toBe(order.number);
    expect(JSON.stringify(tracked)).not.toContain(a.email);
    expect((await get('/api/track/AR-0000000000')).status).toBe(404);
    expect((await get('/api/track/1')).status).toBe(404);
  });

  it('pushes order and balance events to the owner’s open event stream only', async () => {
    const controller = new AbortController();
    const res = await app.request('/api/events', { headers: { cookie: a.cookie }, signal: controller.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const { until, text, cancel } = eventStreamReader(res);
    await until('event: ready');
    await post(app, '/api/orders', orderBody('https://tiktok.com/@live'), { cookie: a.cookie });
    await until('event: order');
    await until('event: balance');
    expect(text()).toContain('"deltaMicros":-');
    controller.abort();
    await cancel();
  });
});

describe('the order history', () => {
  it('counts a drip-feed once, lists it with its runs, and filters by tab and search, a page at a time', async () => {
    const c = await signUpUser(app);
    await credit(database.db, { userId: c.id, amountMicros: 900_000_000, kind: 'topup', reference: `t-${c.id}` });
    const history = async (search: string) => {
      const res = await get(`/api/orders/history${search}`, c.cookie);
      expect(res.status, search).toBe(200);
      return historyPageSchema.parse(await res.json());
    };
    const drip = (await database.db.select().from(catalogServices)).find((s) => s.dripfeed && s.platform === 'instagram' && s.params.length === 0 && s.tiers.length > 0)!;
    const parent = orderViewSchema.parse(
      await (
        await post(app, '/api/orders', { serviceId: drip.id, link: 'https://instagram.com/p/history.drip', quantity: drip.amountMinimum, params: {}, idempotencyKey: randomUUID(), runs: 3, interval: 60 }, { cookie: c.cookie })
      ).json(),
    );
    await startDueRuns(deps, { minuteMs: 60_000 });
    const [run] = await database.db.select().from(orders).where(eq(orders.parentId, parent.id));
    expect(run).toBeDefined();
    const single = orderViewSchema.parse(await (await post(app, '/api/orders', orderBody('https://tiktok.com/@history.single/video/7'), { cookie: c.cookie })).json());

    // Two orders placed, one of them a drip-feed with a run written: two orders, both active.
    expect(await (await get('/api/orders/stats', c.cookie)).json()).toEqual({ total: 2, active: 2, completed: 0, partial: 0, error: 0 });
    const all = await history('');
    expect(all.orders.map((o) => o.id)).toEqual([single.id, parent.id]);
    expect(all.runs.map((o) => o.id)).toEqual([run!.id]);
    expect(all.total).toBe(2);

    // Each tab lists one counter's statuses (docs/rules.md#statuses).
    await database.db.update(orders).set({ status: 'partial' }).where(eq(orders.id, single.id));
    expect((await history('?status=partial')).orders.map((o) => o.id)).toEqual([single.id]);
    expect((await history('?status=active')).orders.map((o) => o.id)).toEqual([parent.id]);
    expect((await history('?status=completed')).orders).toEqual([]);
    await database.db.update(orders).set({ status: 'cancelled', refundedMicros: single.chargeMicros }).where(eq(orders.id, single.id));
    expect((await history('?status=failed')).orders.map((o) => o.id)).toEqual([single.id]);

    // The search: the number (any case, a part of it), the link, the service, a run's number.
    expect((await history(`?q=${single.number.slice(3).toLowerCase()}`)).orders.map((o) => o.id)).toEqual([single.id]);
    expect((await history('?q=history.single')).orders.map((o) => o.id)).toEqual([single.id]);
    expect((await history(`?q=${encodeURIComponent(drip.name.slice(0, 12))}`)).orders.map((o) => o.id)).toContain(parent.id);
    expect((await history(`?q=${run!.number}`)).orders.map((o) => o.id)).toEqual([parent.id]);
    expect((await history('?q=100%25')).orders).toEqual([]);
    expect((await history('?q=nothing.like.this&status=failed')).total).toBe(0);
    // Nobody else's orders.
    expect((await (await get(`/api/orders/history?q=${single.number}`, a.cookie)).json()).orders).toEqual([]);

    // A page holds 20 orders; the next page the rest.
    const { id: _id, apiId: _apiId, ...row } = (await database.db.select().from(orders).where(eq(orders.id, single.id)))[0]!;
    await database.db.insert(orders).values(
      Array.from({ length: 20 }, (_, i) => ({ ...row, id: randomUUID(), number: `AR-PAGE${String(i).padStart(5, '0')}`, idempotencyKey: `page-${randomUUID()}`, createdAt: new Date(Date.now() - 86_400_000 - i * 1000) })),
    );
    const first = await history('?status=failed');
    expect([first.total, first.orders.length, first.pageSize]).toEqual([21, 20, 20]);
    const second = await history('?status=failed&page=2');
    expect(second.orders.map((o) => o.number)).toEqual(['AR-PAGE00019']);

    // Refused at the boundary: an unknown tab, an unknown parameter, a search too long, page 0.
    for (const search of ['?status=done', '?sort=asc', `?q=${'x'.repeat(201)}`, '?page=0']) {
      const res = await get(`/api/orders/history${search}`, c.cookie);
      expect(res.status, search).toBe(422);
      expect((await res.json()).error.code).toBe('VALIDATION_FAILED');
    }
    expect((await get('/api/orders/history')).status).toBe(401);
  });
});
