import { randomUUID } from 'node:crypto';
import { ensurePaymentMethods } from '../payments';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { applyNameRules, displayNames, previewNames, type NameRule } from '../../core/serviceNames';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { auditLog, catalogServices, coupons, customerGroups, depositBonusRules, ledgerEntries, orders, paymentReceipts, payments, providerServiceChanges, providerServices, serviceSources, twoFactors, users } from '../db/schema';
import { createLogger } from '../logger';
import { newOrderNumber } from '../orders/service';
import { applyState } from '../orders/sync';
import { singleProvider, type createProvider } from '../providers';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { credit, debit, verifyLedger } from '../wallet/ledger';
import { sandboxClient } from '../testing/sandbox';

let database: Database;
let sandbox: SandboxProvider;
let provider: ReturnType<typeof createProvider>;
let app: Hono;
let admin: string;
let customer: Awaited<ReturnType<typeof signUpUser>>;
let moderator: Awaited<ReturnType<typeof signUpUser>>;

const send = (method: string, path: string, cookie?: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 60 });
  provider = sandboxClient(sandbox);
  await syncCatalog(database.db, provider);
  ({ app } = await createTestApp(database, { providers: singleProvider(provider) }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  customer = await signUpUser(app);
  moderator = await signUpUser(app);
  expect((await send('POST', `/api/admin/users/${moderator.id}/roles`, admin, { role: 'moderator' })).status).toBe(201);
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

/** Builds a valid admin request for each admin route; the walk fails for a route without one. */
async function fixtures(): Promise<Record<string, () => Promise<{ path: string; body?: unknown }>>> {
  const target = await signUpUser(app);
  const [svc] = await database.db.select().from(catalogServices).where(eq(catalogServices.platform, 'instagram')).limit(1);
  const [order] = await database.db
    .insert(orders)
    .values({ number: `AR-${Date.now().toString(36).toUpperCase().padEnd(10, 'X').slice(0, 10)}`, userId: target.id, serviceId: svc!.id, serviceName: svc!.name, platform: 'instagram', serviceType: svc!.type, link: 'https://instagram.com/x', linkKey: 'x', quantity: 100, chargeMicros: 500_000, status: 'unknown', idempotencyKey: `k-${Date.now()}`, requestHash: 'h' })
    .returning();
  const plain = (await database.db.select().from(catalogServices)).find((s) => s.params.length === 0)!;
  const sent = await provider.add({ serviceId: plain.id, link: 'https://instagram.com/resync', quantity: plain.amountMinimum, params: {} });
  const [tracked] = await database.db
    .insert(orders)
    .values({ number: 'AR-RESYNC0001', userId: target.id, serviceId: plain.id, serviceName: plain.name, platform: plain.platform, serviceType: plain.type, link: 'https://instagram.com/resync', linkKey: 'resync', quantity: plain.amountMinimum, chargeMicros: 200_000, status: 'pending', providerOrderId: sent.providerOrderId, idempotencyKey: `r-${Date.now()}`, requestHash: 'h' })
    .returning();
  await database.db.update(users).set({ balanceMicros: 10_000_000 }).where(eq(users.id, target.id));
  await database.db.execute(`insert into ledger_entries (user_id, amount_micros, kind, reference) values ('${target.id}', 10000000, 'topup', 'fixture-${target.id}')` as never);
  const local = await (await send('POST', '/api/admin/catalog/services', admin, { name: { az: 'SEO', tr: 'SEO', en: 'SEO' } })).json();
  await send('POST', '/api/admin/catalog/service-names', admin, { apiServiceName: `Walk ${Date.now()}`, az: 'Az', tr: 'Tr' });
  const blog = await (await send('POST', '/api/admin/content/blog', admin, { slug: `walk-${Date.now()}`, title: { az: 'a', tr: 't', en: 'e' }, excerpt: { az: '', tr: '', en: '' }, body: { az: 'a', tr: 't', en: 'e' }, publishedOn: '2026-11-01' })).json();
  const faq = await (await send('POST', '/api/admin/content/faq', admin, { question: { az: 'a', tr: 't', en: 'e' }, answer: { az: 'a', tr: 't', en: 'e' } })).json();
  const localized = { az: 'a', tr: 't', en: 'e' };
  const panel = await (await send('POST', '/api/admin/providers', admin, { name: `Walk panel ${Date.now()}`, protocol: 'smm-v2', url: 'https://walk.example/api/v2', key: 'walk-key-0001' })).json();
  // The panel's catalogue as if read: one service, a change waiting for an answer, a service of the shop bought there.
  const terms = { name: 'Walk likes', platform: 'instagram', type: 'Default', amountMinimum: 10, amountIncrement: 1, tiers: [{ minimum: 10, maximum: 10_000, price: '0.5', pricingPer: 1000 }] };
  await database.db.insert(providerServices).values({ providerId: panel.id, serviceId: 'walk-1', ...terms, params: [] });
  const [change] = await database.db.insert(providerServiceChanges).values({ providerId: panel.id, serviceId: 'walk-gone', kind: 'removed', before: terms }).returning();
  await database.db.insert(catalogServices).values({ ...plain, id: 'walk-sourced' });
  await database.db.insert(serviceSources).values({ serviceId: 'walk-sourced', position: 0, providerId: panel.id, providerServiceId: 'walk-1' });
  const bonusRule = { name: 'Walk bonus', method: null, minMicros: 0, percentBp: 500, capMicros: null, startsAt: null, endsAt: null, enabled: true };
  const coupon = { code: 'WALK-ONE', kind: 'amount', amountMicros: 1_000_000, percentBp: null, capMicros: null, minTopUpMicros: 0, perCustomer: 1, totalUses: null, expiresAt: null, enabled: true };
  const newBonusRule = async () => (await database.db.insert(depositBonusRules).values(bonusRule).returning())[0]!.id;
  const newCoupon = async () => (await database.db.insert(coupons).values({ ...coupon, kind: 'amount' }).returning())[0]!.id;
  const nameKey = encodeURIComponent((await (await send('GET', '/api/admin/catalog/service-names', admin)).json()).names[0].apiServiceName);
  return {
    'GET /api/admin/dashboard': async () => ({ path: '/api/admin/dashboard' }),
    'GET /api/admin/audit': async () => ({ path: '/api/admin/audit' }),
    'GET /api/admin/payments': async () => ({ path: '/api/admin/payments' }),
    'GET /api/admin/users': async () => ({ path: '/api/admin/users?q=example' }),
    'POST /api/admin/users/:id/roles': async () => ({ path: `/api/admin/users/${target.id}/roles`, body: { role: 'moderator' } }),
    'DELETE /api/admin/users/:id/roles/:role': async () => ({ path: `/api/admin/users/${target.id}/roles/user` }),
    'POST /api/admin/users/:id/balance': async () => ({ path: `/api/admin/users/${target.id}/balance`, body: { amountMicros: 2_500_000, reason: 'goodwill' } }),
    'PUT /api/admin/users/:id/api-access': async () => ({ path: `/api/admin/users/${target.id}/api-access`, body: { enabled: false } }),
    'GET /api/admin/users/:id/sign-ins': async () => ({ path: `/api/admin/users/${target.id}/sign-ins` }),
    'POST /api/admin/users/:id/second-factor/reset': async () => {
      // An account with a second factor (its row as the two-factor plugin leaves it once on).
      const lost = await signUpUser(app);
      await database.db.insert(twoFactors).values({ id: `walk-${lost.id}`, userId: lost.id, secret: 'sealed', backupCodes: 'sealed' });
      await database.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, lost.id));
      return { path: `/api/admin/users/${lost.id}/second-factor/reset`, body: { reason: 'Lost phone and recovery codes' } };
    },
    'GET /api/admin/orders': async () => ({ path: '/api/admin/orders?status=unknown' }),
    'GET /api/admin/orders/:id': async () => ({ path: `/api/admin/orders/${order!.id}` }),
    'POST /api/admin/orders/:id/resync': async () => ({ path: `/api/admin/orders/${tracked!.id}/resync` }),
    'POST /api/admin/orders/:id/refund': async () => ({ path: `/api/admin/orders/${order!.id}/refund`, body: { amountMicros: 100_000, reason: 'late delivery' } }),
    'POST /api/admin/orders/:id/resubmit': async () => ({ path: `/api/admin/orders/${order!.id}/resubmit` }),
    'GET /api/admin/settings': async () => ({ path: '/api/admin/settings' }),
    'PUT /api/admin/settings': async () => ({ path: '/api/admin/settings', body: { site_name: 'Artım Test' } }),
    'GET /api/admin/settings/stats': async () => ({ path: '/api/admin/settings/stats' }),
    'GET /api/admin/analytics': async () => ({ path: '/api/admin/analytics?period=7d&group=week' }),
    'GET /api/admin/analytics/breakdown': async () => ({ path: '/api/admin/analytics/breakdown?period=today&by=service' }),
    'GET /api/admin/analytics/export': async () => ({ path: '/api/admin/analytics/export?period=30d&table=customer' }),
    'GET /api/admin/catalog/services': async () => ({ path: '/api/admin/catalog/services' }),
    'POST /api/admin/catalog/services': async () => ({ path: '/api/admin/catalog/services', body: { name: { az: 'Loqo', tr: 'Logo', en: 'Logo design' }, priceQepik: 30000 } }),
    'PUT /api/admin/catalog/services/:id': async () => ({ path: `/api/admin/catalog/services/${local.id}`, body: { name: { az: 'SEO audit', tr: 'SEO denetimi', en: 'SEO audit' }, priceQepik: 8000 } }),
    'DELETE /api/admin/catalog/services/:id': async () => ({ path: `/api/admin/catalog/services/${local.id}` }),
    'GET /api/admin/catalog/api-services': async () => ({ path: '/api/admin/catalog/api-services' }),
    'POST /api/admin/catalog/api-services/refresh': async () => ({ path: '/api/admin/catalog/api-services/refresh' }),
    'GET /api/admin/catalog/service-names': async () => ({ path: '/api/admin/catalog/service-names' }),
    'POST /api/admin/catalog/service-names': async () => ({ path: '/api/admin/catalog/service-names', body: { apiServiceName: `Likes ${Date.now()}`, az: 'Bəyənmələr', tr: 'Beğeniler' } }),
    'PUT /api/admin/catalog/service-names/:name': async () => ({ path: `/api/admin/catalog/service-names/${nameKey}`, body: { apiServiceName: `Renamed ${Date.now()}`, az: 'Az2', tr: 'Tr2' } }),
    'DELETE /api/admin/catalog/service-names/:name': async () => {
      const names = (await (await send('GET', '/api/admin/catalog/service-names', admin)).json()).names;
      return { path: `/api/admin/catalog/service-names/${encodeURIComponent(names[0].apiServiceName)}` };
    },
    'GET /api/admin/catalog/param-texts': async () => ({ path: '/api/admin/catalog/param-texts' }),
    'PUT /api/admin/catalog/param-texts': async () => ({ path: '/api/admin/catalog/param-texts', body: { kind: 'usernames', lang: 'tr', label: 'Kullanıcılar' } }),
    'DELETE /api/admin/catalog/param-texts/:kind/:lang': async () => {
      await send('PUT', '/api/admin/catalog/param-texts', admin, { kind: 'groups', lang: 'en', hint: 'Group links' });
      return { path: '/api/admin/catalog/param-texts/groups/en' };
    },
    'GET /api/admin/content/blog': async () => ({ path: '/api/admin/content/blog' }),
    'POST /api/admin/content/blog': async () => ({ path: '/api/admin/content/blog', body: { slug: `post-${Date.now()}`, title: localized, excerpt: localized, body: localized, publishedOn: '2026-11-02' } }),
    'PUT /api/admin/content/blog/:id': async () => ({ path: `/api/admin/content/blog/${blog.id}`, body: { slug: blog.slug, title: localized, excerpt: localized, body: localized, published: true, publishedOn: '2026-11-03' } }),
    'DELETE /api/admin/content/blog/:id': async () => ({ path: `/api/admin/content/blog/${blog.id}` }),
    'GET /api/admin/content/faq': async () => ({ path: '/api/admin/content/faq' }),
    'POST /api/admin/content/faq': async () => ({ path: '/api/admin/content/faq', body: { question: localized, answer: localized } }),
    'PUT /api/admin/content/faq/:id': async () => ({ path: `/api/admin/content/faq/${faq.id}`, body: { question: localized, answer: localized, orderIndex: 2 } }),
    'DELETE /api/admin/content/faq/:id': async () => ({ path: `/api/admin/content/faq/${faq.id}` }),
    'GET /api/admin/providers': async () => ({ path: '/api/admin/providers' }),
    'POST /api/admin/providers': async () => ({ path: '/api/admin/providers', body: { name: `Panel ${Date.now()}`, protocol: 'qqtube', url: 'https://panel.example/api', key: 'panel-key-0002' } }),
    'PUT /api/admin/providers/:id': async () => ({ path: `/api/admin/providers/${panel.id}`, body: { enabled: false } }),
    'POST /api/admin/providers/:id/test': async () => ({ path: `/api/admin/providers/${panel.id}/test` }),
    'GET /api/admin/providers/:id/services': async () => ({ path: `/api/admin/providers/${panel.id}/services?q=walk` }),
    'GET /api/admin/catalog/changes': async () => ({ path: '/api/admin/catalog/changes' }),
    'POST /api/admin/catalog/changes/:id': async () => ({ path: `/api/admin/catalog/changes/${change!.id}`, body: { decision: 'dismissed' } }),
    'POST /api/admin/catalog/import/preview': async () => ({ path: '/api/admin/catalog/import/preview', body: { providerId: panel.id, serviceIds: ['walk-1'], markup: { percent: '10' } } }),
    'POST /api/admin/catalog/import': async () => ({ path: '/api/admin/catalog/import', body: { providerId: panel.id, category: { platform: 'instagram', type: 'Default' }, markup: { percent: '10' } } }),
    'GET /api/admin/catalog/services/:id/sources': async () => ({ path: '/api/admin/catalog/services/walk-sourced/sources' }),
    'PUT /api/admin/catalog/services/:id/sources': async () => ({ path: '/api/admin/catalog/services/walk-sourced/sources', body: { sources: [{ providerId: panel.id, providerServiceId: 'walk-1' }], markup: { percent: '15' } } }),
    'GET /api/admin/customer-groups': async () => ({ path: '/api/admin/customer-groups' }),
    'POST /api/admin/customer-groups': async () => ({ path: '/api/admin/customer-groups', body: { name: `Walk ${Date.now()}`, discountPercent: '10' } }),
    'PUT /api/admin/customer-groups/:id': async () => ({ path: `/api/admin/customer-groups/${await walkGroup()}`, body: { name: `Walk renamed ${Date.now()}`, discountPercent: '12.5' } }),
    'DELETE /api/admin/customer-groups/:id': async () => ({ path: `/api/admin/customer-groups/${await walkGroup()}` }),
    'PUT /api/admin/users/:id/pricing': async () => ({ path: `/api/admin/users/${target.id}/pricing`, body: { discountPercent: '5', groupId: null } }),
    'GET /api/admin/payments/export': async () => ({ path: '/api/admin/payments/export?status=completed' }),
    'POST /api/admin/payments/:id/reversal': async () => {
      // A completed top-up of 5 USD, credited as settlement credits it.
      const [p] = await database.db
        .insert(payments)
        .values({ reference: `balance-walk-${target.id}`, userId: target.id, amountUsdMicros: 5_000_000, amountMinor: 850, rate: '1.7', provider: 'sandbox', status: 'completed' })
        .returning();
      await credit(database.db, { userId: target.id, amountMicros: 5_000_000, kind: 'topup', reference: p!.id });
      return { path: `/api/admin/payments/${p!.id}/reversal`, body: { reason: 'The bank reversed it' } };
    },
    'GET /api/admin/payments/methods': async () => ({ path: '/api/admin/payments/methods' }),
    'PUT /api/admin/payments/methods/:kind': async () => ({
      path: '/api/admin/payments/methods/epoint',
      body: { name: { az: 'Kart', tr: 'Kart', en: 'Card' }, details: { az: '', tr: '', en: '' }, currency: 'AZN', minMicros: 1_000_000, maxMicros: 10_000_000_000, feeBp: 0, position: 0, enabled: true },
    }),
    'GET /api/admin/payments/:id/receipt': async () => ({ path: `/api/admin/payments/${await bankTransfer(target.id)}/receipt` }),
    'POST /api/admin/payments/:id/review': async () => ({ path: `/api/admin/payments/${await bankTransfer(target.id)}/review`, body: { approve: true } }),
    'GET /api/admin/bonuses': async () => ({ path: '/api/admin/bonuses' }),
    'POST /api/admin/bonuses/rules': async () => ({ path: '/api/admin/bonuses/rules', body: bonusRule }),
    'PUT /api/admin/bonuses/rules/:id': async () => ({ path: `/api/admin/bonuses/rules/${await newBonusRule()}`, body: { ...bonusRule, percentBp: 750 } }),
    'POST /api/admin/bonuses/coupons': async () => ({ path: '/api/admin/bonuses/coupons', body: { ...coupon, code: 'WALK-NEW' } }),
    'PUT /api/admin/bonuses/coupons/:id': async () => ({ path: `/api/admin/bonuses/coupons/${await newCoupon()}`, body: { ...coupon, perCustomer: 3 } }),
  };
}

/** A bank transfer of 5 USD with its receipt, waiting for the team. */
async function bankTransfer(userId: string) {
  await ensurePaymentMethods(database.db, []);
  const [p] = await database.db
    .insert(payments)
    .values({ reference: `balance-walk-bank-${randomUUID()}`, userId, amountUsdMicros: 5_000_000, amountMinor: 850, rate: '1.7', method: 'bank', provider: 'bank' })
    .returning();
  await database.db.insert(paymentReceipts).values({ paymentId: p!.id, contentType: 'application/pdf', size: 8, data: Buffer.from('%PDF-1.7') });
  return p!.id;
}

/** A customer group of its own for a walked route. */
const walkGroup = async () => (await database.db.insert(customerGroups).values({ name: `Walk group ${randomUUID()}`, discountBp: 500 }).returning())[0]!.id;

/** What a moderator may do here: read orders and users; everything else is refused. */
const MODERATOR_MAY = new Set(['GET /api/admin/users', 'GET /api/admin/orders', 'GET /api/admin/orders/:id', 'GET /api/admin/users/:id/sign-ins']);
// Customer groups are read like users (their discounts are set by admins only).
MODERATOR_MAY.add('GET /api/admin/customer-groups');

describe('admin routes', () => {
  it('answer 401 to anonymous, 403 to customers, 403 to moderators beyond reading orders and users, 2xx to admins; every write is audited', async () => {
    const table = app.routes
      .filter((r) => r.path.startsWith('/api/admin/') && r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path}`);
    const unique = [...new Set(table)];
    const fx = await fixtures();
    const missing = unique.filter((k) => !fx[k]);
    // Routes owned by other features are walked in their own tests; this walk covers these.
    const ours = unique.filter((k) => fx[k]);
    expect(ours.length).toBeGreaterThanOrEqual(30);
    // Refill and cancel need a provider that has them: src/server/reseller/reseller.test.ts walks them.
    // Reading a catalogue needs a stored provider in the shop's registry: providerCatalog.test.ts walks it.
    // A refund to the card needs a gateway that refunds: src/server/payments/refund.test.ts walks it (and admin/access.test.ts).
    expect(missing.filter((k) => !/support|contact|consultation|\/orders\/:id\/(refill|cancel)$|\/providers\/:id\/catalogue$|\/payments\/:id\/refund$/.test(k))).toEqual([]);

    for (const key of ours) {
      const [method, pattern] = key.split(' ') as [string, string];
      const { path, body } = await fx[key]!();
      expect((await send(method, path, undefined, body)).status, `${key} anonymous`).toBe(401);
      expect((await send(method, path, customer.cookie, body)).status, `${key} customer`).toBe(403);
      expect((await send(method, path, moderator.cookie, body)).status, `${key} moderator`).toBe(MODERATOR_MAY.has(key) ? 200 : 403);
      const before = (await database.db.select().from(auditLog)).length;
      const res = await send(method, path, admin, body);
      expect([200, 201, 204], `${key} admin → ${res.status} ${await res.clone().text()}`).toContain(res.status);
      // An import's preview writes nothing at all.
      if (method !== 'GET' && !pattern.endsWith('/import/preview')) {
        expect((await database.db.select().from(auditLog)).length, `${key} audited`).toBeGreaterThan(before);
      }
    }
    expect(await verifyLedger(database.db)).toEqual([]);
  }, 120_000);
});

describe('admin rules', () => {
  it('refuses a role the user already has, and never removes the last admin role', async () => {
    const res = await send('POST', `/api/admin/users/${customer.id}/roles`, admin, { role: 'user' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'ROLE_EXISTS' } });
    const me = (await (await app.request('/api/me', { headers: { cookie: admin } })).json()).user;
    const last = await send('DELETE', `/api/admin/users/${me.id}/roles/admin`, admin);
    expect(last.status).toBe(409);
    expect(await last.json()).toMatchObject({ error: { code: 'LAST_ADMIN' } });
  });

  it('a balance adjustment needs a reason and cannot take the balance below zero', async () => {
    expect((await send('POST', `/api/admin/users/${customer.id}/balance`, admin, { amountMicros: 1_000_000 })).status).toBe(422);
    const minus = await send('POST', `/api/admin/users/${customer.id}/balance`, admin, { amountMicros: -9_999_990_000, reason: 'mistake' });
    expect(minus.status).toBe(402);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('a balance adjustment for a user that does not exist answers 404 NOT_FOUND and writes nothing', async () => {
    const entries = (await database.db.select().from(ledgerEntries)).length;
    for (const amountMicros of [2_500_000, -2_500_000]) {
      const res = await send('POST', `/api/admin/users/no-such-user-${amountMicros}/balance`, admin, { amountMicros, reason: 'goodwill' });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect((await database.db.select().from(ledgerEntries)).length).toBe(entries);
  });

  it('an admin refund after a partial refund gives back at most the remainder; the provider cancelling later refunds the rest', async () => {
    const target = await signUpUser(app);
    const balance = async () => (await database.db.select().from(users).where(eq(users.id, target.id)))[0]!.balanceMicros;
    const start = await balance();
    const [o] = await database.db.transaction(async (tx) => {
      await credit(tx, { userId: target.id, amountMicros: 50_000_000, kind: 'topup', reference: `admin-refund-test-${target.id}` });
      const rows = await tx
        .insert(orders)
        .values({ number: newOrderNumber(), userId: target.id, serviceId: '1', serviceName: 'Followers', platform: 'instagram', serviceType: 'Default', link: 'https://instagram.com/admin.refund', linkKey: 'instagram.com/admin.refund', quantity: 1000, chargeMicros: 20_580_000, status: 'in_progress', providerOrderId: 'P-admin-refund', idempotencyKey: 'admin-refund', requestHash: 'h' })
        .returning();
      await debit(tx, { userId: target.id, amountMicros: 20_580_000, kind: 'order_charge', reference: rows[0]!.id });
      return rows;
    });
    const od = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
    const state = (status: 'partial' | 'cancelled') => ({ status, remains: 300, startCount: 1, currentCount: null, delivered: null, raw: status, charge: null, currency: null });
    await applyState(od, o!, state('partial'));
    const tooMuch = await send('POST', `/api/admin/orders/${o!.id}/refund`, admin, { amountMicros: 14_406_001, reason: 'too much' });
    expect(tooMuch.status).toBe(422);
    const some = await send('POST', `/api/admin/orders/${o!.id}/refund`, admin, { amountMicros: 5_000_000, reason: 'late delivery' });
    expect(await some.json()).toMatchObject({ status: 'partial', chargeMicros: 20_580_000, refundedMicros: 11_174_000 });
    const [row] = await database.db.select().from(orders).where(eq(orders.id, o!.id));
    await applyState(od, row!, state('cancelled'));
    const detail = await (await send('GET', `/api/admin/orders/${o!.id}`, admin)).json();
    expect(detail.order).toMatchObject({ status: 'cancelled', refundedMicros: 20_580_000 });
    const refunds = detail.ledger.filter((e: { kind: string }) => e.kind === 'order_refund').map((e: { amountMicros: number }) => e.amountMicros);
    expect(refunds).toEqual([6_174_000, 5_000_000, 9_406_000]);
    expect((await send('POST', `/api/admin/orders/${o!.id}/refund`, admin, { reason: 'again' })).status).toBe(422);
    expect(await balance()).toBe(start + 50_000_000);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('settings: admins save and the storefront sees the public keys only; bad values refused', async () => {
    expect((await send('PUT', '/api/admin/settings', admin, { service_fee: 150 })).status).toBe(422);
    expect((await send('PUT', '/api/admin/settings', admin, { service_fee: 12.5, notification_email: 'team@artim.az' })).status).toBe(200);
    const pub = await (await app.request('/api/settings')).json();
    expect(pub.service_fee).toBe(12.5);
    expect(pub).not.toHaveProperty('notification_email');
    expect(pub).not.toHaveProperty('default_balance');
  });

  it('settings: a numeric value off its declared step is refused, naming the field; one on it is saved', async () => {
    for (const [key, value] of [['service_fee', 12.55], ['base_fee', 0.375], ['default_balance', 1.005], ['usd_azn_rate', 1.70005], ['provider_low_balance', 10.001]] as const) {
      const res = await send('PUT', '/api/admin/settings', admin, { [key]: value });
      expect(res.status, key).toBe(422);
      expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: { issues: [{ path: key, code: 'custom' }] } } });
    }
    const saved = await send('PUT', '/api/admin/settings', admin, { service_fee: 12.6, base_fee: 0.38, usd_azn_rate: 1.7005 });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ service_fee: 12.6, base_fee: 0.38, usd_azn_rate: 1.7005 });
    await send('PUT', '/api/admin/settings', admin, { service_fee: 12.5, base_fee: 0, usd_azn_rate: 1.7 });
  });

  it('settings: the delayed orders’ floor, default wait and cancel limit are whole numbers within bounds, kept from the storefront', async () => {
    for (const bad of [{ stuck_floor_minutes: 0 }, { stuck_default_minutes: 43_201 }, { stuck_cancel_after_hours: -1 }, { stuck_cancel_after_hours: 1.5 }]) {
      expect((await send('PUT', '/api/admin/settings', admin, bad)).status).toBe(422);
    }
    const saved = await send('PUT', '/api/admin/settings', admin, { stuck_floor_minutes: 45, stuck_default_minutes: 240, stuck_cancel_after_hours: 12 });
    expect(saved.status).toBe(200);
    expect(await (await send('GET', '/api/admin/settings', admin)).json()).toMatchObject({ stuck_floor_minutes: 45, stuck_default_minutes: 240, stuck_cancel_after_hours: 12 });
    const pub = await (await app.request('/api/settings')).json();
    for (const key of ['stuck_floor_minutes', 'stuck_default_minutes', 'stuck_cancel_after_hours']) expect(pub).not.toHaveProperty(key);
    await send('PUT', '/api/admin/settings', admin, { stuck_floor_minutes: 60, stuck_default_minutes: 360, stuck_cancel_after_hours: 0 });
  });

  it('duplicate service names are refused with DUPLICATE', async () => {
    const body = { apiServiceName: 'Followers HQ', az: 'İzləyicilər', tr: 'Takipçiler' };
    expect((await send('POST', '/api/admin/catalog/service-names', admin, body)).status).toBe(201);
    const again = await send('POST', '/api/admin/catalog/service-names', admin, body);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'DUPLICATE' } });
    expect((await send('POST', '/api/admin/catalog/service-names', admin, { apiServiceName: ' ', az: 'x', tr: 'y' })).status).toBe(422);
  });

  it('a service name holding a % sign can be renamed and deleted by its address', async () => {
    const body = { apiServiceName: '100% Real Likes', az: 'Bəyənmələr', tr: 'Beğeniler' };
    expect((await send('POST', '/api/admin/catalog/service-names', admin, body)).status).toBe(201);
    const renamed = { ...body, apiServiceName: '100% Real Likes HQ' };
    expect((await send('PUT', `/api/admin/catalog/service-names/${encodeURIComponent(body.apiServiceName)}`, admin, renamed)).status).toBe(200);
    expect((await send('DELETE', `/api/admin/catalog/service-names/${encodeURIComponent(renamed.apiServiceName)}`, admin)).status).toBe(204);
    expect((await send('DELETE', '/api/admin/catalog/service-names/%zz', admin)).status).toBe(404);
  });
});

describe('service names', () => {
  const rulesOf = (names: { apiServiceName: string; az: string; tr: string; serviceId: string | null }[]): NameRule[] =>
    names.flatMap((n) => (['az', 'tr'] as const).map((lang) => ({ keyword: n.apiServiceName, lang, name: n[lang], serviceId: n.serviceId })));

  it('the preview over the admin’s catalogue is what the storefront shows once saved; a name may be limited to one service', async () => {
    const { services } = (await (await send('GET', '/api/admin/catalog/api-services', admin)).json()) as { services: { id: string; name: string }[] };
    const before = rulesOf((await (await send('GET', '/api/admin/catalog/service-names', admin)).json()).names);
    const followers = services.filter((s) => /^Instagram Followers\b/.test(s.name));
    const phrase = { apiServiceName: 'instagram followers', az: 'İnstaqram İzləyiciləri', tr: 'Instagram Takipçileri', serviceId: null };
    const single = { apiServiceName: followers[0]!.name, az: 'Seçilmiş izləyicilər', tr: 'Seçilmiş takipçiler', serviceId: followers[0]!.id };
    const after = [...before, ...rulesOf([phrase, single])];
    const preview = previewNames(services, 'az', before, after);
    expect(preview.length).toBe(followers.length);
    const rest = applyNameRules({ id: followers[1]!.id, name: followers[1]!.name.replace(/^Instagram Followers/, '') }, 'az', []);
    expect(preview.find((r) => r.id === followers[1]!.id)!.after).toBe(`İnstaqram İzləyiciləri${rest}`);
    expect(preview.find((r) => r.id === followers[0]!.id)!.after).toBe('Seçilmiş izləyicilər');

    expect((await send('POST', '/api/admin/catalog/service-names', admin, phrase)).status).toBe(201);
    expect((await send('POST', '/api/admin/catalog/service-names', admin, single)).status).toBe(201);
    const listed = (await (await send('GET', '/api/admin/catalog/service-names', admin)).json()).names;
    expect(listed).toEqual(expect.arrayContaining([expect.objectContaining(single), expect.objectContaining(phrase)]));
    const az = (await (await app.request('/api/catalog/services?lang=az')).json()) as { services: { id: string; name: string }[] };
    const shown = new Map(az.services.map((s) => [s.id, s.name]));
    for (const row of preview) expect(shown.get(row.id)).toBe(row.after);
    for (const [id, name] of displayNames(services, 'az', after)) expect(shown.get(id)).toBe(name);

    // A name limited to a service that is not in the catalogue, or a body with unknown fields, is refused.
    expect((await send('POST', '/api/admin/catalog/service-names', admin, { ...phrase, apiServiceName: 'Likes X', serviceId: 'no-such-service' })).status).toBe(404);
    expect((await send('POST', '/api/admin/catalog/service-names', admin, { ...phrase, apiServiceName: 'Likes Y', serviceId: '../1' })).status).toBe(422);
    expect((await send('POST', '/api/admin/catalog/service-names', admin, { ...phrase, apiServiceName: 'Likes Z', scope: 'all' })).status).toBe(422);
    for (const n of [phrase, single]) expect((await send('DELETE', `/api/admin/catalog/service-names/${encodeURIComponent(n.apiServiceName)}`, admin)).status).toBe(204);
  });

  it('refuses a name whose words differ from another’s only in letter case or spacing, which could never apply', async () => {
    const likes = { apiServiceName: 'Instagram Likes', az: 'Instagram bəyənmələri', tr: 'Instagram beğeni', serviceId: null };
    expect((await send('POST', '/api/admin/catalog/service-names', admin, likes)).status).toBe(201);
    for (const apiServiceName of ['instagram likes', 'INSTAGRAM LIKES', '  Instagram   Likes ']) {
      const res = await send('POST', '/api/admin/catalog/service-names', admin, { ...likes, apiServiceName, az: 'Başqa ad' });
      expect(res.status, apiServiceName).toBe(409);
      expect((await res.json()).error.code).toBe('DUPLICATE');
    }
    // Another name cannot be renamed into it either; its own letter case may change.
    const views = { apiServiceName: 'Instagram Views', az: 'Instagram baxışları', tr: 'Instagram izlenme', serviceId: null };
    expect((await send('POST', '/api/admin/catalog/service-names', admin, views)).status).toBe(201);
    expect((await send('PUT', `/api/admin/catalog/service-names/${encodeURIComponent('Instagram Views')}`, admin, { ...views, apiServiceName: 'instagram LIKES' })).status).toBe(409);
    expect((await send('PUT', `/api/admin/catalog/service-names/${encodeURIComponent('Instagram Views')}`, admin, { ...views, apiServiceName: 'instagram views' })).status).toBe(200);
    const names = (await (await send('GET', '/api/admin/catalog/service-names', admin)).json()).names as { apiServiceName: string; az: string }[];
    expect(names.filter((n) => n.apiServiceName.toLowerCase() === 'instagram likes')).toEqual([expect.objectContaining({ apiServiceName: 'Instagram Likes', az: 'Instagram bəyənmələri' })]);
    for (const n of ['Instagram Likes', 'instagram views']) expect((await send('DELETE', `/api/admin/catalog/service-names/${encodeURIComponent(n)}`, admin)).status).toBe(204);
  });
});

describe('param texts', () => {
  it('an admin override of a param kind is served with the service details in its language only', async () => {
    const rows = await database.db.select().from(catalogServices).where(eq(catalogServices.active, true));
    const geo = rows.find((r) => r.params.some((p) => p.fieldName === 'geo-countries'))!;
    expect(geo).toBeDefined();
    const detail = async (lang: string) =>
      (await (await app.request(`/api/catalog/services/${geo.id}?lang=${lang}`)).json()).params.find((p: { fieldName: string }) => p.fieldName === 'geo-countries');

    // Without an override: the storefront's own texts, not the provider's English.
    expect(await detail('az')).toMatchObject({ fieldLabel: 'Ölkə', description: 'İki hərfli ISO ölkə kodu (məs. AZ, TR, US).', requiredMessage: 'Ölkə kodunu yazın', kind: 'country' });

    const body = { kind: 'country', lang: 'az', label: '  Hədəf ölkə ', hint: '', required: 'Hədəf ölkəni seçin' };
    const saved = await send('PUT', '/api/admin/catalog/param-texts', admin, body);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ label: 'Hədəf ölkə', hint: null, placeholder: null });
    expect(await detail('az')).toMatchObject({ fieldLabel: 'Hədəf ölkə', description: 'İki hərfli ISO ölkə kodu (məs. AZ, TR, US).', requiredMessage: 'Hədəf ölkəni seçin' });
    expect(await detail('tr')).toMatchObject({ fieldLabel: 'Ülke' });
    const list = (await (await send('GET', '/api/admin/catalog/param-texts', admin)).json()).overrides;
    expect(list).toContainEqual({ kind: 'country', lang: 'az', label: 'Hədəf ölkə', hint: null, placeholder: null, required: 'Hədəf ölkəni seçin', invalid: null });

    // The write is strict: unknown keys, unknown languages and bad kinds are refused.
    expect((await send('PUT', '/api/admin/catalog/param-texts', admin, { ...body, colour: 'red' })).status).toBe(422);
    expect((await send('PUT', '/api/admin/catalog/param-texts', admin, { ...body, lang: 'ru' })).status).toBe(422);
    expect((await send('PUT', '/api/admin/catalog/param-texts', admin, { ...body, kind: 'Country Code!' })).status).toBe(422);
    expect((await send('PUT', '/api/admin/catalog/param-texts', admin, { ...body, label: 'x'.repeat(101) })).status).toBe(422);

    // Saving every text blank removes the override; the defaults come back.
    expect((await send('PUT', '/api/admin/catalog/param-texts', admin, { kind: 'country', lang: 'az' })).status).toBe(200);
    expect(await detail('az')).toMatchObject({ fieldLabel: 'Ölkə' });
    expect((await send('DELETE', '/api/admin/catalog/param-texts/country/az', admin)).status).toBe(404);
  });
});

describe('public content and SEO', () => {
  it('serves robots.txt with crawl-delay, the disallowed paths and the sitemap', async () => {
    const text = await (await app.request('/robots.txt')).text();
    expect(text).toContain('Crawl-delay: 1');
    for (const p of ['admin', 'dashboard', 'auth', 'reset-password', 'password-recovery', 'payment-success', 'payment-error']) expect(text).toContain(`Disallow: /${p}`);
    expect(text).toContain('Sitemap: http://localhost:3000/sitemap.xml');
  });

  it('lists a published post in the blog sitemap of each language and in the blog API; drafts stay hidden', async () => {
    const localized = { az: 'Yazı', tr: 'Yazı', en: 'Post' };
    await send('POST', '/api/admin/content/blog', admin, { slug: 'growth-tips', title: localized, excerpt: localized, body: localized, published: true, publishedOn: '2026-11-10' });
    await send('POST', '/api/admin/content/blog', admin, { slug: 'draft-post', title: localized, excerpt: localized, body: localized, published: false, publishedOn: '2026-11-10' });
    const az = await (await app.request('/sitemaps/blog-az.xml')).text();
    expect(az).toContain('<loc>http://localhost:3000/az/blog/growth-tips</loc>');
    expect(az).not.toContain('draft-post');
    expect(await (await app.request('/sitemaps/blog.xml')).text()).toContain('/en/blog/growth-tips');
    const posts = await (await app.request('/api/content/blog?lang=az')).json();
    expect(posts.posts.map((p: { slug: string }) => p.slug)).toEqual(expect.arrayContaining(['growth-tips']));
    expect(posts.posts.map((p: { slug: string }) => p.slug)).not.toContain('draft-post');
    expect((await app.request('/api/content/blog/draft-post')).status).toBe(404);
    const index = await (await app.request('/sitemap.xml')).text();
    for (const n of ['main', 'services', 'blog', 'blog-az', 'blog-tr', 'pages']) expect(index).toContain(`/sitemaps/${n}.xml`);
  });
});

