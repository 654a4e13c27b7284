import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { cachesOf, enableCaches } from '../cache';
import { syncCatalog } from '../catalog';
import type { Database } from '../db/client';
import { auditLog, catalogServices, ledgerEntries, orders, users } from '../db/schema';
import { createProvider, singleProvider } from '../providers';
import { createLogger } from '../logger';
import { createRealtimeHub, type RealtimeHub } from '../realtime/hub';
import { saveSettings } from '../settings';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sourceRenderer } from '../testing/web';
import { credit, verifyLedger } from '../wallet/ledger';

/**
 * Customer discounts (docs/rules.md#discounts, docs/decisions/0020) through every way a price is
 * computed, against figures worked out by hand: one service priced 0.2 USD per 1000 with a 6.36 %
 * service fee is 0.21272 per 1000 on the list;
 *   - 10 % off (the customer's own): 0.21272 × 0.9 = 0.191448 → 0.19145 per 1000;
 *   - 12.5 % off (the group's):      0.21272 × 0.875 = 0.18613 per 1000, exactly.
 * A charge is rate × quantity / 1000, rounded up to the micro-dollar.
 */

let database: Database;
let realtime: RealtimeHub;
let sandbox: SandboxProvider;
let app: Hono;
let admin: string;
type Service = typeof catalogServices.$inferSelect;
let svc: Service;
type Customer = Awaited<ReturnType<typeof signUpUser>>;
let own: Customer; // 10 % of their own, in the group too (their own counts)
let grouped: Customer; // the group's 12.5 %
let optedOut: Customer; // in the group, their own set to 0: list prices
let plain: Customer; // no discount at all
let groupId: string;

const LIST_RATE = 212_720;
const OWN_RATE = 191_450;
const GROUP_RATE = 186_130;

const json = { origin: TEST_ORIGIN, 'content-type': 'application/json' };
const send = (method: string, path: string, cookie: string, body?: unknown) =>
  app.request(path, { method, headers: { ...json, cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
const get = (path: string, cookie?: string) => app.request(path, { headers: cookie ? { cookie } : {} });

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600, seed: 29 });
  const provider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey });
  await syncCatalog(database.db, provider);
  // A service whose every quantity used here is in its tier, with its price set to 0.2 per 1000.
  const found = (await database.db.select().from(catalogServices)).find(
    (s) => s.active && s.params.length === 0 && s.amountMinimum <= 1000 && 1000 % s.amountIncrement === 0 && s.tiers[0]!.maximum >= 5000 && s.platform === 'tiktok',
  );
  expect(found).toBeTruthy();
  const tiers = [{ ...found!.tiers[0]!, price: '0.2', pricingPer: 1000 }];
  [svc] = await database.db.update(catalogServices).set({ tiers, dripfeed: true }).where(eq(catalogServices.id, found!.id)).returning();
  await saveSettings(database.db, { service_fee: 6.36, base_fee: 0 });
  // A built app (clientDir set) keeps anonymous pages in memory: the leak test needs that cache.
  realtime = await createRealtimeHub(database, createLogger('silent'));
  ({ app } = await createTestApp(database, { providers: singleProvider(provider), realtime, web: sourceRenderer(), clientDir: mkdtempSync(join(tmpdir(), 'artim-client-')) }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  [own, grouped, optedOut, plain] = [await signUpUser(app), await signUpUser(app), await signUpUser(app), await signUpUser(app)];
  for (const c of [own, grouped, optedOut, plain]) await credit(database.db, { userId: c.id, amountMicros: 100_000_000, kind: 'topup', reference: `discount-${c.id}` });
});
afterAll(async () => {
  await realtime.close();
  await sandbox.close();
  await database.close();
});

let linkNo = 0;
const link = () => `https://www.tiktok.com/@discount/video/${Date.now()}${++linkNo}`;
const balanceOf = async (id: string) => (await database.db.select({ b: users.balanceMicros }).from(users).where(eq(users.id, id)))[0]!.b;
const me = async (cookie: string) => (await (await get('/api/me', cookie)).json()).user;

describe('the team sets groups and customers’ discounts', () => {
  it('creates a group; a name taken in another letter case, a percent out of bounds or with 3 decimals, a number or an extra field are refused', async () => {
    const res = await send('POST', '/api/admin/customer-groups', admin, { name: 'Resellers', discountPercent: '12.5' });
    expect(res.status).toBe(201);
    const group = await res.json();
    expect(group).toMatchObject({ name: 'Resellers', discountPercent: '12.5', customers: 0 });
    groupId = group.id;
    const dup = await send('POST', '/api/admin/customer-groups', admin, { name: 'RESELLERS', discountPercent: '5' });
    expect([dup.status, (await dup.json()).error.code]).toEqual([409, 'DUPLICATE']);
    for (const body of [
      { name: 'Big', discountPercent: '90.01' },
      { name: 'Big', discountPercent: '100' },
      { name: 'Big', discountPercent: '-1' },
      { name: 'Big', discountPercent: '10.125' },
      { name: 'Big', discountPercent: 10 },
      { name: 'Big', discountPercent: '1e1' },
      { name: '   ', discountPercent: '10' },
      { name: 'Big', discountPercent: '10', extra: true },
    ]) {
      const bad = await send('POST', '/api/admin/customer-groups', admin, body);
      expect([bad.status, (await bad.json()).error.code], JSON.stringify(body)).toEqual([422, 'VALIDATION_FAILED']);
    }
    expect((await send('POST', '/api/admin/customer-groups', admin, { name: 'Top', discountPercent: '90' })).status).toBe(201);
  });

  it('sets a customer’s own discount and group, audited, and tells their open pages; an unknown group or customer is NOT_FOUND', async () => {
    const set = async (c: Customer, body: unknown) => send('PUT', `/api/admin/users/${c.id}/pricing`, admin, body);
    const published = vi.spyOn(realtime, 'publish');
    const res = await set(own, { discountPercent: '10', groupId });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ discountPercent: '10', groupId });
    expect(published.mock.calls.filter(([, e]) => e.type === 'pricing')).toEqual([[own.id, { type: 'pricing' }]]);
    published.mockRestore();
    expect((await set(grouped, { discountPercent: null, groupId })).status).toBe(200);
    expect((await set(optedOut, { discountPercent: '0', groupId })).status).toBe(200);
    const unknownGroup = await set(plain, { discountPercent: null, groupId: '00000000-0000-4000-8000-000000000000' });
    expect([unknownGroup.status, (await unknownGroup.json()).error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await send('PUT', '/api/admin/users/no-such-user/pricing', admin, { discountPercent: '5', groupId: null })).status).toBe(404);
    expect((await set(plain, { discountPercent: '5' })).status).toBe(422);

    const [entry] = await database.db.select().from(auditLog).where(and(eq(auditLog.action, 'user.discount'), eq(auditLog.targetId, own.id)));
    expect(entry!.details).toEqual({ from: { discountPercent: null, groupId: null }, to: { discountPercent: '10', groupId } });
    const list = await (await get(`/api/admin/users?q=${encodeURIComponent(own.email)}`, admin)).json();
    expect(list.users[0].pricing).toEqual({ discountPercent: '10', groupId });
    const groups = (await (await get('/api/admin/customer-groups', admin)).json()).groups;
    expect(groups.find((g: { id: string }) => g.id === groupId)).toMatchObject({ name: 'Resellers', customers: 3 });
  });

  it('tells each signed-in customer their own discount in /api/me, and nobody else’s', async () => {
    expect((await me(own.cookie)).discount).toEqual({ percent: '10', source: 'customer', groupName: null });
    expect((await me(grouped.cookie)).discount).toEqual({ percent: '12.5', source: 'group', groupName: 'Resellers' });
    expect((await me(optedOut.cookie)).discount).toBeNull();
    expect((await me(plain.cookie)).discount).toBeNull();
  });
});

describe('every way a price is computed takes the customer’s discount', () => {
  const order = (c: Customer, body: Record<string, unknown>) => post(app, '/api/orders', { serviceId: svc.id, link: link(), params: {}, idempotencyKey: `disc-${Date.now()}-${++linkNo}`, ...body }, { cookie: c.cookie });

  it('site order: 1000 at 0.19145 is 191 450 micros, at 0.18613 186 130, list 212 720; the total the customer was shown is checked', async () => {
    for (const [c, micros] of [[own, OWN_RATE], [grouped, GROUP_RATE], [optedOut, LIST_RATE], [plain, LIST_RATE]] as const) {
      const before = await balanceOf(c.id);
      const res = await order(c, { quantity: 1000, expectedTotalMicros: micros });
      expect(res.status, c.email).toBe(201);
      expect(await balanceOf(c.id)).toBe(before - micros);
    }
    // Shown the list price, a discounted customer is told the price changed, with their own.
    const stale = await order(own, { quantity: 3000, expectedTotalMicros: 3 * LIST_RATE });
    expect(stale.status).toBe(409);
    expect((await stale.json()).error).toMatchObject({ code: 'PRICE_CHANGED', details: { totalMicros: 574_350 } });
    // 0.18613 × 3333 / 1000 = 0.62037129 → 620 372.
    const odd = await order(grouped, { quantity: 3333 });
    expect(odd.status).toBe(201);
    expect((await odd.json()).chargeMicros).toBe(620_372);
  });

  it('drip-feed: 3 runs of 1000 cost 3 × 191 450', async () => {
    const res = await order(own, { quantity: 1000, runs: 3, interval: 10 });
    expect(res.status).toBe(201);
    const parent = (await database.db.select().from(orders).where(and(eq(orders.userId, own.id), eq(orders.runs, 3))))[0]!;
    expect(parent.chargeMicros).toBe(574_350);
  });

  it('mass order: 1000 and 2000 for the group’s customer cost 186 130 + 372 260', async () => {
    const before = await balanceOf(grouped.id);
    const text = [`${svc.id}|${link()}|1000`, `${svc.id}|${link()}|2000`].join('\n');
    const res = await post(app, '/api/orders/mass', { batchKey: `discount${Date.now()}`, text }, { cookie: grouped.cookie });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.placed).toBe(2);
    expect(body.chargedMicros).toBe(186_130 + 372_260);
    expect(await balanceOf(grouped.id)).toBe(before - 558_390);
  });

  describe('reseller API', () => {
    const keyOf = async (c: Customer) => (await (await post(app, '/api/api-keys', { name: 'panel' }, { cookie: c.cookie })).json()).key as string;
    const v2 = async (params: Record<string, string | number>) =>
      (
        await app.request('/api/v2', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString(),
        })
      ).json();

    it('services answers each key’s owner their own rate: 0.19145, 0.18613, 0.21272', async () => {
      for (const [c, rate] of [[own, '0.19145'], [grouped, '0.18613'], [optedOut, '0.21272'], [plain, '0.21272']] as const) {
        const list = (await v2({ key: await keyOf(c), action: 'services' })) as { service: unknown; rate: string }[];
        expect(list.find((s) => String(s.service) === svc.id)!.rate, c.email).toBe(rate);
      }
    });

    it('add charges rate × quantity / 1000 to the micro: 2500 at 0.19145 is 478 625, at 0.18613 465 325', async () => {
      for (const [c, rate, micros] of [[own, 191_450, 478_625], [grouped, 186_130, 465_325]] as const) {
        const key = await keyOf(c);
        const before = await balanceOf(c.id);
        const reply = (await v2({ key, action: 'add', service: svc.id, link: link(), quantity: 2500 })) as { order: number };
        expect(reply.order).toEqual(expect.any(Number));
        const [row] = await database.db.select().from(orders).where(eq(orders.apiId, reply.order));
        expect(row!.chargeMicros).toBe(micros);
        expect(row!.chargeMicros).toBe(Math.ceil((rate * 2500) / 1000));
        expect(await balanceOf(c.id)).toBe(before - micros);
        const status = (await v2({ key, action: 'status', order: reply.order })) as { charge: string };
        expect(status.charge).toBe(micros === 478_625 ? '0.47863' : '0.46533');
      }
    });
  });

  it('the provider’s cost is the same whoever orders: only the charge is lower', async () => {
    const rows = await database.db.select().from(orders).where(and(eq(orders.serviceId, svc.id), eq(orders.quantity, 1000)));
    const single = rows.filter((o) => o.runs === null && o.parentId === null);
    expect(new Set(single.map((o) => o.costMicros)).size).toBe(1);
    expect(new Set(single.map((o) => o.chargeMicros))).toEqual(new Set([OWN_RATE, GROUP_RATE, LIST_RATE]));
  });

  it('the books balance: every charge is a ledger entry', async () => {
    expect(await verifyLedger(database.db)).toEqual([]);
    for (const c of [own, grouped]) {
      const entries = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, c.id));
      expect(entries.reduce((s, e) => s + Number(e.amountMicros), 0)).toBe(await balanceOf(c.id));
    }
  });
});

describe('a personal price never reaches a shared page or another customer', () => {
  const boot = (html: string) => JSON.parse(/<script type="application\/json" id="artim-boot">([\s\S]*?)<\/script>/.exec(html)![1]!) as { me?: { discount?: unknown } | null };

  it('pages rendered for the discounted customer are private; the kept anonymous page and the public list carry list prices only', async () => {
    for (const path of ['/en/order', '/en/services', `/en/order?platform=${svc.platform}`]) {
      const personal = await get(path, own.cookie);
      expect(personal.headers.get('cache-control'), path).toBe('private, no-store');
      expect(boot(await personal.text()).me?.discount, path).toEqual({ percent: '10', source: 'customer', groupName: null });
      // Asked anonymously twice (the second from the kept copy) and by another customer: no discount anywhere.
      for (const cookie of [undefined, undefined, plain.cookie]) {
        const page = await (await get(path, cookie)).text();
        const seen = boot(page).me;
        expect(seen?.discount ?? null, path).toBeNull();
        expect(page, path).not.toContain('0.19145');
        expect(page, path).not.toMatch(/"percent":"10"/);
      }
    }
    const anonymous = await get('/api/catalog/services?lang=en');
    const signed = await get('/api/catalog/services?lang=en', own.cookie);
    const [a, b] = [await anonymous.text(), await signed.text()];
    expect(b).toBe(a);
    expect(signed.headers.get('etag')).toBe(anonymous.headers.get('etag'));
    const list = JSON.parse(a) as { fees: Record<string, unknown>; services: { id: string; displayPrice: string }[] };
    expect(list.fees).toEqual({ serviceFeePercent: 6.36, baseFee: 0 });
    expect(list.services.find((s) => s.id === svc.id)!.displayPrice).toBe('0.21272');
    expect((await get('/api/me', own.cookie)).headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('groups changed and deleted', () => {
  it('a group’s new percent prices its customers at once; deleted, its customers pay list prices (their own discounts stay)', async () => {
    const published = vi.spyOn(realtime, 'publish');
    const res = await send('PUT', `/api/admin/customer-groups/${groupId}`, admin, { name: 'Resellers', discountPercent: '20' });
    expect(res.status).toBe(200);
    // Every customer of the group is told, once the change is committed.
    expect(published.mock.calls.filter(([, e]) => e.type === 'pricing').sort()).toEqual([own.id, grouped.id, optedOut.id].sort().map((id) => [id, { type: 'pricing' }]));
    published.mockRestore();
    expect((await me(grouped.cookie)).discount).toEqual({ percent: '20', source: 'group', groupName: 'Resellers' });
    const [upd] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'group.update'));
    expect(upd!.details).toEqual({ name: 'Resellers', changes: { discountPercent: { from: '12.5', to: '20' } } });
    expect((await send('DELETE', `/api/admin/customer-groups/${groupId}`, admin)).status).toBe(204);
    expect((await send('DELETE', `/api/admin/customer-groups/${groupId}`, admin)).status).toBe(404);
    expect((await me(grouped.cookie)).discount).toBeNull();
    expect((await me(own.cookie)).discount).toEqual({ percent: '10', source: 'customer', groupName: null });
    const [del] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'group.delete'));
    expect(del!.details).toMatchObject({ name: 'Resellers', discountPercent: '20', customers: 3 });
  });

  it('a moderator sees the groups but cannot change them or a customer’s discount; a customer sees nothing', async () => {
    const mod = await signUpUser(app);
    expect((await send('POST', `/api/admin/users/${mod.id}/roles`, admin, { role: 'moderator' })).status).toBe(201);
    expect((await get('/api/admin/customer-groups', mod.cookie)).status).toBe(200);
    expect((await send('POST', '/api/admin/customer-groups', mod.cookie, { name: 'Mods', discountPercent: '50' })).status).toBe(403);
    expect((await send('PUT', `/api/admin/users/${mod.id}/pricing`, mod.cookie, { discountPercent: '50', groupId: null })).status).toBe(403);
    expect((await get('/api/admin/customer-groups', plain.cookie)).status).toBe(403);
    expect((await send('PUT', `/api/admin/users/${plain.id}/pricing`, plain.cookie, { discountPercent: '50', groupId: null })).status).toBe(403);
  });
});

describe('discounts read through the instance’s cache', () => {
  const order = (c: Customer) => post(app, '/api/orders', { serviceId: svc.id, link: link(), params: {}, idempotencyKey: `cached-${Date.now()}-${++linkNo}`, quantity: 1000 }, { cookie: c.cookie });
  const charged = async (c: Customer) => {
    const res = await order(c);
    expect(res.status).toBe(201);
    return (await res.json()).chargeMicros as number;
  };

  it('a discount the team sets, or a group’s new percent, prices the next order (the cached one is forgotten)', async () => {
    const stop = await enableCaches(database);
    try {
      const customer = await signUpUser(app);
      await credit(database.db, { userId: customer.id, amountMicros: 100_000_000, kind: 'topup', reference: `cached-${customer.id}` });
      // Priced twice at list: the second order reads the customer's discount from the cache.
      expect(await charged(customer)).toBe(LIST_RATE);
      expect(cachesOf(database.db)!.discounts.get(customer.id)).toMatchObject({ bp: 0 });
      expect(await charged(customer)).toBe(LIST_RATE);

      expect((await send('PUT', `/api/admin/users/${customer.id}/pricing`, admin, { discountPercent: '10', groupId: null })).status).toBe(200);
      expect(await charged(customer)).toBe(OWN_RATE);

      const group = await (await send('POST', '/api/admin/customer-groups', admin, { name: 'Cached', discountPercent: '10' })).json();
      expect((await send('PUT', `/api/admin/users/${customer.id}/pricing`, admin, { discountPercent: null, groupId: group.id })).status).toBe(200);
      expect(await charged(customer)).toBe(OWN_RATE);
      expect((await send('PUT', `/api/admin/customer-groups/${group.id}`, admin, { name: 'Cached', discountPercent: '12.5' })).status).toBe(200);
      expect(await charged(customer)).toBe(GROUP_RATE);
      expect((await send('DELETE', `/api/admin/customer-groups/${group.id}`, admin)).status).toBe(204);
      expect(await charged(customer)).toBe(LIST_RATE);
    } finally {
      await stop();
    }
  });
});
