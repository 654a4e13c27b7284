import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { overrideRolePermissionsForTest, PERMISSIONS, type Permission } from '../../core/permissions';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { catalogServices, orders, payments, twoFactors, users } from '../db/schema';
import { newOrderNumber } from '../orders/service';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sandboxClient } from '../testing/sandbox';
import { credit } from '../wallet/ledger';
import { ADMIN_API, ADMIN_ROUTE_PERMISSIONS } from './access';
import { singleProvider } from '../providers';

/**
 * The permission table (core/permissions.ts) is the one thing that decides who may use a team
 * route: every route under /api/admin is listed with its permission in admin/access.ts, and a
 * role given a permission — whatever the role — can use every route that names it, writes
 * included, while a role without it is refused.
 */

let database: Database;
let sandbox: SandboxProvider;
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
  sandbox = await startSandboxProvider({ orderSeconds: 600 });
  const provider = sandboxClient(sandbox);
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

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

/** The team's routes outside /api/admin, with the permission each needs. */
const OTHER_ROUTES: readonly (readonly [string, string, Permission])[] = [
  ['GET', '/api/dev/mailbox', 'mailbox:read'],
  ['GET', '/api/dev/mailbox/:id', 'mailbox:read'],
];

/** Every team route as `METHOD /api/…` with its permission. */
const ROUTES = new Map<string, Permission>([
  ...ADMIN_ROUTE_PERMISSIONS.map(([method, path, permission]) => [`${method} ${ADMIN_API}${path}`, permission] as const),
  ...OTHER_ROUTES.map(([method, path, permission]) => [`${method} ${path}`, permission] as const),
]);

/**
 * A request for each team route that gets past its input checks to the handler: real rows, valid
 * bodies. Each is made once and used once for a permitted call (a refused call changes nothing).
 */
async function fixtures(): Promise<Map<string, { path: string; body?: unknown }>> {
  const target = await signUpUser(app);
  await credit(database.db, { userId: target.id, amountMicros: 50_000_000, kind: 'topup', reference: `access-${target.id}` });
  const [svc] = await database.db.select().from(catalogServices).where(eq(catalogServices.platform, 'instagram')).limit(1);
  const order = async (key: string, status: 'unknown' | 'pending' | 'completed') =>
    (
      await database.db
        .insert(orders)
        .values({ number: newOrderNumber(), userId: target.id, serviceId: svc!.id, serviceName: svc!.name, platform: 'instagram', serviceType: svc!.type, link: `https://instagram.com/${key}`, linkKey: key, quantity: 100, chargeMicros: 500_000, status, idempotencyKey: key, requestHash: 'h' })
        .returning()
    )[0]!;
  const [unknown, pending, done] = [await order('access-unknown', 'unknown'), await order('access-pending', 'pending'), await order('access-done', 'completed')];
  const ticket = (await (await post(app, '/api/support/tickets', { title: 'Late order', description: 'Where is it?' }, { cookie: customer.cookie })).json()).ticket;
  const consultation = (await (await post(app, '/api/consultations', { name: 'Ali', email: 'ali@example.com', phone: '+994501234567', service: 'seo', message: 'Please call me back' }, { cookie: customer.cookie })).json()).consultation;
  await post(app, '/api/contact', { name: 'Leyla', email: 'leyla@example.com', subject: 'Prices', message: 'Do you have discounts?' });
  await post(app, '/api/contact', { name: 'Murad', email: 'murad@example.com', subject: 'Spam', message: 'Please delete this.' });
  const contacts = (await (await send('GET', '/api/admin/contact-messages', admin)).json()).messages as { id: string }[];
  const localized = { az: 'a', tr: 't', en: 'e' };
  const local = await (await send('POST', '/api/admin/catalog/services', admin, { name: { az: 'SEO', tr: 'SEO', en: 'SEO' } })).json();
  const names = ['Access one', 'Access two'];
  for (const n of names) await send('POST', '/api/admin/catalog/service-names', admin, { apiServiceName: n, az: 'Az', tr: 'Tr' });
  await send('PUT', '/api/admin/catalog/param-texts', admin, { kind: 'groups', lang: 'en', hint: 'Group links' });
  const blog = await (await send('POST', '/api/admin/content/blog', admin, { slug: 'access-post', title: localized, excerpt: localized, body: localized, publishedOn: '2026-11-01' })).json();
  const faq = await (await send('POST', '/api/admin/content/faq', admin, { question: localized, answer: localized })).json();
  const bonusRule = { name: 'Access bonus', method: null, minMicros: 10_000_000, percentBp: 500, capMicros: null, startsAt: null, endsAt: null, enabled: true };
  const coupon = { code: 'ACCESS-ONE', kind: 'amount', amountMicros: 1_000_000, percentBp: null, capMicros: null, minTopUpMicros: 0, perCustomer: 1, totalUses: null, expiresAt: null, enabled: true };
  const bonuses = await (await send('POST', '/api/admin/bonuses/rules', admin, bonusRule)).json();
  await send('POST', '/api/admin/bonuses/coupons', admin, coupon);
  const coupons = (await (await send('GET', '/api/admin/bonuses', admin)).json()).coupons as { id: number }[];
  const provider = await (await send('POST', '/api/admin/providers', admin, { name: 'Access panel', protocol: 'smm-v2', url: 'https://panel.example/api/v2', key: 'access-key-1234' })).json();
  const mail = (await (await send('GET', '/api/dev/mailbox', admin)).json()).messages as { id: number }[];
  expect([ticket?.id, consultation?.id, contacts.length >= 2, local.id, blog.id, faq.id, provider.id, mail.length > 0].every(Boolean)).toBe(true);
  const groups = [];
  for (const name of ['Access resellers', 'Access agencies']) groups.push(await (await send('POST', '/api/admin/customer-groups', admin, { name, discountPercent: '5' })).json());
  expect(groups.every((g) => g.id)).toBe(true);

  // A completed top-up of 5 USD, credited as settlement credits it: the chargeback's subject.
  const [topUp] = await database.db
    .insert(payments)
    .values({ reference: `balance-access-${target.id}`, userId: target.id, amountUsdMicros: 5_000_000, amountMinor: 850, rate: '1.7', provider: 'sandbox', status: 'completed' })
    .returning();
  await credit(database.db, { userId: target.id, amountMicros: 5_000_000, kind: 'topup', reference: topUp!.id });

  // An account with a second factor to remove (its row as the two-factor plugin leaves it once on).
  const lost = await signUpUser(app);
  await database.db.insert(twoFactors).values({ id: `access-${lost.id}`, userId: lost.id, secret: 'sealed', backupCodes: 'sealed' });
  await database.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, lost.id));

  const a = `${ADMIN_API}`;
  return new Map<string, { path: string; body?: unknown }>([
    ['GET /api/admin/support/tickets', { path: `${a}/support/tickets` }],
    ['GET /api/admin/support/tickets/:id', { path: `${a}/support/tickets/${ticket.id}` }],
    ['POST /api/admin/support/tickets/:id/messages', { path: `${a}/support/tickets/${ticket.id}/messages`, body: { message: 'We are on it.' } }],
    ['PATCH /api/admin/support/tickets/:id', { path: `${a}/support/tickets/${ticket.id}`, body: { status: 'in_progress' } }],
    ['GET /api/admin/consultations', { path: `${a}/consultations` }],
    ['PATCH /api/admin/consultations/:id', { path: `${a}/consultations/${consultation.id}`, body: { status: 'handled' } }],
    ['GET /api/admin/contact-messages', { path: `${a}/contact-messages` }],
    ['GET /api/admin/contact-messages/:id', { path: `${a}/contact-messages/${contacts[0]!.id}` }],
    ['POST /api/admin/contact-messages/:id/replied', { path: `${a}/contact-messages/${contacts[0]!.id}/replied` }],
    ['DELETE /api/admin/contact-messages/:id', { path: `${a}/contact-messages/${contacts[1]!.id}` }],
    ['GET /api/admin/orders', { path: `${a}/orders?status=unknown` }],
    ['GET /api/admin/orders/:id', { path: `${a}/orders/${unknown.id}` }],
    ['POST /api/admin/orders/:id/resync', { path: `${a}/orders/${pending.id}/resync` }],
    ['POST /api/admin/orders/:id/refund', { path: `${a}/orders/${unknown.id}/refund`, body: { amountMicros: 100_000, reason: 'late delivery' } }],
    ['POST /api/admin/orders/:id/resubmit', { path: `${a}/orders/${unknown.id}/resubmit` }],
    ['POST /api/admin/orders/:id/refill', { path: `${a}/orders/${done.id}/refill` }],
    ['POST /api/admin/orders/:id/cancel', { path: `${a}/orders/${pending.id}/cancel` }],
    ['GET /api/admin/users', { path: `${a}/users?q=example` }],
    ['POST /api/admin/users/:id/roles', { path: `${a}/users/${target.id}/roles`, body: { role: 'moderator' } }],
    ['DELETE /api/admin/users/:id/roles/:role', { path: `${a}/users/${target.id}/roles/user` }],
    ['POST /api/admin/users/:id/balance', { path: `${a}/users/${target.id}/balance`, body: { amountMicros: 2_500_000, reason: 'goodwill' } }],
    ['PUT /api/admin/users/:id/api-access', { path: `${a}/users/${target.id}/api-access`, body: { enabled: false } }],
    ['GET /api/admin/dashboard', { path: `${a}/dashboard` }],
    ['GET /api/admin/payments', { path: `${a}/payments` }],
    ['GET /api/admin/audit', { path: `${a}/audit` }],
    ['GET /api/admin/settings', { path: `${a}/settings` }],
    ['PUT /api/admin/settings', { path: `${a}/settings`, body: { site_name: 'Artım Access' } }],
    ['GET /api/admin/settings/stats', { path: `${a}/settings/stats` }],
    ['GET /api/admin/catalog/services', { path: `${a}/catalog/services` }],
    ['POST /api/admin/catalog/services', { path: `${a}/catalog/services`, body: { name: { az: 'Loqo', tr: 'Logo', en: 'Logo design' }, priceQepik: 30000 } }],
    ['PUT /api/admin/catalog/services/:id', { path: `${a}/catalog/services/${local.id}`, body: { name: { az: 'SEO audit', tr: 'SEO denetimi', en: 'SEO audit' }, priceQepik: 8000 } }],
    ['DELETE /api/admin/catalog/services/:id', { path: `${a}/catalog/services/${local.id}` }],
    ['GET /api/admin/catalog/api-services', { path: `${a}/catalog/api-services` }],
    ['POST /api/admin/catalog/api-services/refresh', { path: `${a}/catalog/api-services/refresh` }],
    ['GET /api/admin/catalog/service-names', { path: `${a}/catalog/service-names` }],
    ['POST /api/admin/catalog/service-names', { path: `${a}/catalog/service-names`, body: { apiServiceName: 'Access three', az: 'Az', tr: 'Tr' } }],
    ['PUT /api/admin/catalog/service-names/:name', { path: `${a}/catalog/service-names/${encodeURIComponent(names[0]!)}`, body: { apiServiceName: 'Access renamed', az: 'Az2', tr: 'Tr2' } }],
    ['DELETE /api/admin/catalog/service-names/:name', { path: `${a}/catalog/service-names/${encodeURIComponent(names[1]!)}` }],
    ['GET /api/admin/catalog/param-texts', { path: `${a}/catalog/param-texts` }],
    ['PUT /api/admin/catalog/param-texts', { path: `${a}/catalog/param-texts`, body: { kind: 'usernames', lang: 'tr', label: 'Kullanıcılar' } }],
    ['DELETE /api/admin/catalog/param-texts/:kind/:lang', { path: `${a}/catalog/param-texts/groups/en` }],
    ['GET /api/admin/content/blog', { path: `${a}/content/blog` }],
    ['POST /api/admin/content/blog', { path: `${a}/content/blog`, body: { slug: 'access-new', title: localized, excerpt: localized, body: localized, publishedOn: '2026-11-02' } }],
    ['PUT /api/admin/content/blog/:id', { path: `${a}/content/blog/${blog.id}`, body: { slug: blog.slug, title: localized, excerpt: localized, body: localized, published: true, publishedOn: '2026-11-03' } }],
    ['DELETE /api/admin/content/blog/:id', { path: `${a}/content/blog/${blog.id}` }],
    ['GET /api/admin/content/faq', { path: `${a}/content/faq` }],
    ['POST /api/admin/content/faq', { path: `${a}/content/faq`, body: { question: localized, answer: localized } }],
    ['PUT /api/admin/content/faq/:id', { path: `${a}/content/faq/${faq.id}`, body: { question: localized, answer: localized, orderIndex: 2 } }],
    ['DELETE /api/admin/content/faq/:id', { path: `${a}/content/faq/${faq.id}` }],
    ['GET /api/admin/providers', { path: `${a}/providers` }],
    ['POST /api/admin/providers', { path: `${a}/providers`, body: { name: 'Second panel', protocol: 'qqtube', url: 'https://second.example/api', key: 'second-key-5678', callsPerSecond: 5 } }],
    ['PUT /api/admin/providers/:id', { path: `${a}/providers/${provider.id}`, body: { callsPerSecond: 3 } }],
    ['POST /api/admin/providers/:id/test', { path: `${a}/providers/${provider.id}/test` }],
    ['GET /api/admin/providers/:id/services', { path: `${a}/providers/${provider.id}/services?q=likes` }],
    // Not in this shop's registry (a client kept in no table): answered NOT_FOUND without a call out.
    ['POST /api/admin/providers/:id/catalogue', { path: `${a}/providers/${provider.id}/catalogue` }],
    ['GET /api/admin/catalog/changes', { path: `${a}/catalog/changes?all=1` }],
    ['POST /api/admin/catalog/changes/:id', { path: `${a}/catalog/changes/1`, body: { decision: 'dismissed' } }],
    ['POST /api/admin/catalog/import/preview', { path: `${a}/catalog/import/preview`, body: { providerId: provider.id, serviceIds: ['1'], markup: { percent: '10' } } }],
    ['POST /api/admin/catalog/import', { path: `${a}/catalog/import`, body: { providerId: provider.id, category: { platform: 'instagram', type: 'Default' }, markup: { percent: '10' } } }],
    ['GET /api/admin/catalog/services/:id/sources', { path: `${a}/catalog/services/${svc!.id}/sources` }],
    ['PUT /api/admin/catalog/services/:id/sources', { path: `${a}/catalog/services/${svc!.id}/sources`, body: { sources: [{ providerId: provider.id, providerServiceId: '1' }] } }],
    ['GET /api/admin/users/:id/sign-ins', { path: `${a}/users/${target.id}/sign-ins` }],
    ['POST /api/admin/users/:id/second-factor/reset', { path: `${a}/users/${lost.id}/second-factor/reset`, body: { reason: 'Lost phone and recovery codes' } }],
    ['GET /api/admin/customer-groups', { path: `${a}/customer-groups` }],
    ['POST /api/admin/customer-groups', { path: `${a}/customer-groups`, body: { name: 'Access partners', discountPercent: '12.5' } }],
    ['PUT /api/admin/customer-groups/:id', { path: `${a}/customer-groups/${groups[0].id}`, body: { name: 'Access resellers', discountPercent: '7.5' } }],
    ['DELETE /api/admin/customer-groups/:id', { path: `${a}/customer-groups/${groups[1].id}` }],
    ['PUT /api/admin/users/:id/pricing', { path: `${a}/users/${target.id}/pricing`, body: { discountPercent: '10', groupId: groups[0].id } }],
    ['GET /api/admin/analytics', { path: `${a}/analytics?period=7d&group=day` }],
    ['GET /api/admin/analytics/breakdown', { path: `${a}/analytics/breakdown?period=custom&from=2026-01-01&to=2026-03-31&by=customer` }],
    ['GET /api/admin/analytics/export', { path: `${a}/analytics/export?period=90d&table=series&group=week` }],
    ['GET /api/dev/mailbox', { path: '/api/dev/mailbox' }],
    ['GET /api/dev/mailbox/:id', { path: `/api/dev/mailbox/${mail[0]!.id}` }],
    ['GET /api/admin/payments/export', { path: `${a}/payments/export?status=completed&flagged=1` }],
    ['POST /api/admin/payments/:id/reversal', { path: `${a}/payments/${topUp.id}/reversal`, body: { reason: 'The bank reversed it' } }],
    // A method with no gateway that refunds here: the route answers 409 to whoever may use it.
    ['POST /api/admin/payments/:id/refund', { path: `${a}/payments/${topUp.id}/refund`, body: { reason: 'Customer asked for it' } }],
    ['GET /api/admin/payments/methods', { path: `${a}/payments/methods` }],
    // A payment with no receipt: the routes answer 404 / 409 to whoever may use them.
    ['GET /api/admin/payments/:id/receipt', { path: `${a}/payments/${topUp.id}/receipt` }],
    ['POST /api/admin/payments/:id/review', { path: `${a}/payments/${topUp.id}/review`, body: { approve: true } }],
    ['GET /api/admin/bonuses', { path: `${a}/bonuses` }],
    ['POST /api/admin/bonuses/rules', { path: `${a}/bonuses/rules`, body: { ...bonusRule, name: 'Access bonus two', method: 'bank' } }],
    ['PUT /api/admin/bonuses/rules/:id', { path: `${a}/bonuses/rules/${bonuses.rules[0].id}`, body: { ...bonusRule, enabled: false } }],
    ['POST /api/admin/bonuses/coupons', { path: `${a}/bonuses/coupons`, body: { ...coupon, code: 'ACCESS-TWO' } }],
    ['PUT /api/admin/bonuses/coupons/:id', { path: `${a}/bonuses/coupons/${coupons[0]!.id}`, body: { ...coupon, perCustomer: 2 } }],
    [
      'PUT /api/admin/payments/methods/:kind',
      {
        path: `${a}/payments/methods/epoint`,
        body: { name: { az: 'Kart', tr: 'Kart', en: 'Card' }, details: { az: '', tr: '', en: '' }, currency: 'AZN', minMicros: 1_000_000, maxMicros: 10_000_000_000, feeBp: 0, position: 0, enabled: true },
      },
    ],
  ]);
}

/** The moderator role holds exactly these permissions from now until the test ends. */
function moderatorHolds(permissions: readonly Permission[]) {
  restore?.();
  restore = overrideRolePermissionsForTest({ moderator: permissions });
}

describe('one permission table', () => {
  it('every route under /api/admin is listed with its permission in admin/access.ts, and every listed route exists', () => {
    const registered = [...new Set(app.routes.filter((r) => r.path.startsWith(`${ADMIN_API}/`) && r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))];
    const listed = ADMIN_ROUTE_PERMISSIONS.map(([method, path]) => `${method} ${ADMIN_API}${path}`);
    expect(registered.length).toBeGreaterThanOrEqual(45);
    expect(registered.filter((k) => !listed.includes(k))).toEqual([]);
    expect(listed.filter((k) => !registered.includes(k))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('a route missing from the table answers NOT_FOUND even to an admin', async () => {
    const res = await send('GET', `${ADMIN_API}/not-in-the-table`, admin);
    expect(res.status).toBe(404);
    expect((await send('GET', `${ADMIN_API}/not-in-the-table`, customer.cookie)).status).toBe(403);
  });

  it('for each permission: a role given only it uses every route that names it, reads and writes; a role given all others is refused there', async () => {
    const fx = await fixtures();
    expect([...ROUTES.keys()].filter((k) => !fx.has(k))).toEqual([]);
    const wrong: string[] = [];
    let calls = 0;
    for (const permission of PERMISSIONS) {
      // Passing maintenance mode names no route: auth.test.ts walks it ('maintenance mode').
      if (permission === 'maintenance:pass') continue;
      // Entering the team's area is what every route needs first: without it, nothing opens.
      const needing = permission === 'staff:enter' ? [...ROUTES.keys()].filter((k) => k.includes(ADMIN_API)) : [...ROUTES].filter(([, p]) => p === permission).map(([k]) => k);
      if (permission !== 'staff:enter') expect(needing.length, `routes that need ${permission}`).toBeGreaterThan(0);

      moderatorHolds(PERMISSIONS.filter((p) => p !== permission));
      for (const key of needing) {
        const { path, body } = fx.get(key)!;
        const res = await send(key.split(' ')[0]!, path, moderator.cookie, body);
        calls += 1;
        const code = res.status === 403 ? (await res.json()).error?.code : undefined;
        if (code !== 'FORBIDDEN') wrong.push(`${key} without ${permission}: ${res.status} ${code ?? ''}`);
      }
      if (permission === 'staff:enter') continue;

      moderatorHolds(['staff:enter', permission]);
      for (const key of needing) {
        const { path, body } = fx.get(key)!;
        const res = await send(key.split(' ')[0]!, path, moderator.cookie, body);
        calls += 1;
        const text = await res.text();
        if (res.status === 401 || res.status === 403 || res.status >= 500) wrong.push(`${key} with ${permission}: ${res.status} ${text}`);
      }
    }
    console.log(`permission walk: ${PERMISSIONS.length} permissions, ${ROUTES.size} routes, ${calls} calls`);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('a write by a member given the permission is audited under that member', async () => {
    moderatorHolds(['staff:enter', 'content:manage']);
    const localized = { az: 'S', tr: 'S', en: 'Q' };
    const res = await send('POST', `${ADMIN_API}/content/faq`, moderator.cookie, { question: localized, answer: localized });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    moderatorHolds(['staff:enter', 'audit:read']);
    const { entries } = await (await send('GET', `${ADMIN_API}/audit`, moderator.cookie)).json();
    expect(entries).toContainEqual(expect.objectContaining({ action: 'faq.create', targetId: String(id), actorId: moderator.id, actorEmail: moderator.email }));
  });

  it('without a test override, the moderator keeps the table’s permissions', async () => {
    expect((await send('GET', `${ADMIN_API}/content/faq`, moderator.cookie)).status).toBe(403);
    expect((await send('GET', `${ADMIN_API}/orders?status=unknown`, moderator.cookie)).status).toBe(200);
  });
});
