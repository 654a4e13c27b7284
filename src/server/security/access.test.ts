import { createHash } from 'node:crypto';
import { gatewayRegistry } from '../gateways';
import { CAPTURE_SCRIPT } from '../../web/islands/capture';
import type { Hono } from 'hono';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { createGateway } from '../gateways';
import type { SmmProvider } from '../providers';
import { syncCatalog } from '../catalog/service';
import { catalogServices, orders } from '../db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sandboxClient } from '../testing/sandbox';
import { singleProvider } from '../providers';

/**
 * The authorization matrix, generated from the app's own route table: every API route must be
 * declared here with who may call it, so a new route cannot be forgotten. Each route is then
 * called as anonymous, customer A, customer B, a moderator and an admin.
 *
 * `staff`: moderators and admins (support work, orders and users read-only); `admin`: admins
 * only (money, roles, settings, catalogue, content, audit, deletions, the dev mailbox).
 */
type Access = 'public' | 'user' | 'staff' | 'admin' | 'auth' | 'gateway';
const ACCESS: Record<string, Access> = {
  'GET /api/ping': 'public',
  'GET /api/me': 'public',
  'POST /api/auth/sign-in/email': 'auth',
  'POST /api/auth/sign-up/email': 'auth',
  'POST /api/auth/request-password-reset': 'auth',
  'POST /api/auth/sign-out': 'auth',
  'POST /api/auth/update-user': 'auth',
  'POST /api/auth/change-password': 'auth',
  'POST /api/auth/reset-password': 'auth',
  'GET /api/auth/*': 'auth',
  'POST /api/auth/*': 'auth',
  'POST /api/auth-extra/email-available': 'public',
  'POST /api/auth-extra/reset-link': 'public',
  'GET /api/dev/mailbox': 'admin',
  'GET /api/dev/mailbox/:id': 'admin',
  'GET /api/catalog/services': 'public',
  'GET /api/catalog/services/:id': 'public',
  'GET /api/catalog/platforms': 'public',
  'POST /api/orders': 'user',
  'POST /api/orders/mass': 'user',
  'GET /api/orders': 'user',
  'GET /api/orders/history': 'user',
  'GET /api/orders/stats': 'user',
  'GET /api/orders/overview': 'user',
  'GET /api/wallet': 'user',
  // The reseller API authenticates by key, not by session: every caller gets the protocol's answer.
  'GET /api/v2': 'public',
  'POST /api/v2': 'public',
  'GET /api/v2/': 'public',
  'POST /api/v2/': 'public',
  'GET /api/api-keys': 'user',
  'POST /api/api-keys': 'user',
  'POST /api/api-keys/:id/rotate': 'user',
  'DELETE /api/api-keys/:id': 'user',
  'GET /api/orders/actions': 'user',
  'POST /api/orders/:id/refill': 'user',
  'POST /api/orders/:id/cancel': 'user',
  'GET /api/events': 'user',
  'GET /api/track/:number': 'public',
  'GET /api/support/tickets': 'user',
  'POST /api/support/tickets': 'user',
  'GET /api/support/tickets/:id/messages': 'user',
  'POST /api/support/tickets/:id/messages': 'user',
  'POST /api/consultations': 'user',
  'POST /api/contact': 'public',
  'POST /api/payments/topup': 'user',
  'GET /api/payments': 'user',
  'GET /api/payments/:reference': 'user',
  'GET /api/payments/:reference/status': 'public',
  'POST /api/payments/callback': 'gateway',
  'POST /api/payments/callback/:kind': 'gateway',
  'GET /api/payments/methods': 'user',
  'POST /api/payments/:reference/receipt': 'user',
  'POST /api/payments/coupon': 'user',
  'GET /api/settings': 'public',
  'GET /api/content/blog': 'public',
  'GET /api/content/blog/:slug': 'public',
  'GET /api/content/faq': 'public',
  'GET /api/content/services': 'public',
  'GET /api/content/services/:id': 'public',
  // The team's support work.
  'GET /api/admin/support/tickets': 'staff',
  'GET /api/admin/support/tickets/:id': 'staff',
  'POST /api/admin/support/tickets/:id/messages': 'staff',
  'PATCH /api/admin/support/tickets/:id': 'staff',
  'GET /api/admin/consultations': 'staff',
  'PATCH /api/admin/consultations/:id': 'staff',
  'GET /api/admin/contact-messages': 'staff',
  'GET /api/admin/contact-messages/:id': 'staff',
  'POST /api/admin/contact-messages/:id/replied': 'staff',
  'DELETE /api/admin/contact-messages/:id': 'admin',
  // Orders and users: read by the team, changed by admins.
  'GET /api/admin/orders': 'staff',
  'GET /api/admin/orders/:id': 'staff',
  'POST /api/admin/orders/:id/resync': 'admin',
  'POST /api/admin/orders/:id/refund': 'admin',
  'POST /api/admin/orders/:id/resubmit': 'admin',
  'POST /api/admin/orders/:id/refill': 'admin',
  'POST /api/admin/orders/:id/cancel': 'admin',
  'GET /api/admin/users': 'staff',
  'POST /api/admin/users/:id/roles': 'admin',
  'DELETE /api/admin/users/:id/roles/:role': 'admin',
  'POST /api/admin/users/:id/balance': 'admin',
  'PUT /api/admin/users/:id/api-access': 'admin',
  // Money, settings, catalogue, content and the audit log.
  'GET /api/admin/dashboard': 'admin',
  'GET /api/admin/payments': 'admin',
  'GET /api/admin/payments/methods': 'admin',
  'PUT /api/admin/payments/methods/:kind': 'admin',
  'GET /api/admin/payments/:id/receipt': 'admin',
  'POST /api/admin/payments/:id/review': 'admin',
  'GET /api/admin/audit': 'admin',
  'GET /api/admin/settings': 'admin',
  'PUT /api/admin/settings': 'admin',
  'GET /api/admin/settings/stats': 'admin',
  'GET /api/admin/catalog/services': 'admin',
  'POST /api/admin/catalog/services': 'admin',
  'PUT /api/admin/catalog/services/:id': 'admin',
  'DELETE /api/admin/catalog/services/:id': 'admin',
  'GET /api/admin/catalog/api-services': 'admin',
  'POST /api/admin/catalog/api-services/refresh': 'admin',
  'GET /api/admin/catalog/service-names': 'admin',
  'POST /api/admin/catalog/service-names': 'admin',
  'PUT /api/admin/catalog/service-names/:name': 'admin',
  'DELETE /api/admin/catalog/service-names/:name': 'admin',
  'GET /api/admin/catalog/param-texts': 'admin',
  'PUT /api/admin/catalog/param-texts': 'admin',
  'DELETE /api/admin/catalog/param-texts/:kind/:lang': 'admin',
  'GET /api/admin/content/blog': 'admin',
  'POST /api/admin/content/blog': 'admin',
  'PUT /api/admin/content/blog/:id': 'admin',
  'DELETE /api/admin/content/blog/:id': 'admin',
  'GET /api/admin/content/faq': 'admin',
  'POST /api/admin/content/faq': 'admin',
  'PUT /api/admin/content/faq/:id': 'admin',
  'DELETE /api/admin/content/faq/:id': 'admin',
  'GET /api/admin/providers': 'admin',
  'POST /api/admin/providers': 'admin',
  'PUT /api/admin/providers/:id': 'admin',
  'POST /api/admin/providers/:id/test': 'admin',
  'GET /api/admin/providers/:id/services': 'admin',
  'POST /api/admin/providers/:id/catalogue': 'admin',
  'GET /api/admin/catalog/changes': 'admin',
  'POST /api/admin/catalog/changes/:id': 'admin',
  'POST /api/admin/catalog/import/preview': 'admin',
  'POST /api/admin/catalog/import': 'admin',
  'GET /api/admin/catalog/services/:id/sources': 'admin',
  'PUT /api/admin/catalog/services/:id/sources': 'admin',
  // The second factor (the account's own, behind its password or its sign-in step) and recent sign-ins.
  'POST /api/auth/two-factor/enable': 'auth',
  'POST /api/auth/two-factor/disable': 'auth',
  'POST /api/auth/two-factor/generate-backup-codes': 'auth',
  'POST /api/auth/two-factor/verify-totp': 'auth',
  'POST /api/auth/two-factor/verify-backup-code': 'auth',
  'GET /api/auth-extra/sign-ins': 'user',
  'GET /api/admin/users/:id/sign-ins': 'staff',
  'POST /api/admin/users/:id/second-factor/reset': 'admin',
  // The owner's figures.
  // Customer discounts and groups: groups read by the team, set by admins.
  'GET /api/admin/customer-groups': 'staff',
  'POST /api/admin/customer-groups': 'admin',
  'PUT /api/admin/customer-groups/:id': 'admin',
  'DELETE /api/admin/customer-groups/:id': 'admin',
  'PUT /api/admin/users/:id/pricing': 'admin',
  // Payments: the list's export, chargebacks and refunds to the card.
  'GET /api/admin/payments/export': 'admin',
  'POST /api/admin/payments/:id/reversal': 'admin',
  // Deposit bonus rules and coupons: read with the payments, set with the prices.
  'GET /api/admin/bonuses': 'admin',
  'POST /api/admin/bonuses/rules': 'admin',
  'PUT /api/admin/bonuses/rules/:id': 'admin',
  'POST /api/admin/bonuses/coupons': 'admin',
  'PUT /api/admin/bonuses/coupons/:id': 'admin',
  'POST /api/admin/payments/:id/refund': 'admin',
  'GET /api/admin/analytics': 'admin',
  'GET /api/admin/analytics/breakdown': 'admin',
  'GET /api/admin/analytics/export': 'admin',
};

let database: Database;
let app: Hono;
let sandbox: SandboxProvider;
let gateway: SandboxGateway;
let admin: string;
let a: Awaited<ReturnType<typeof signUpUser>>;
let b: Awaited<ReturnType<typeof signUpUser>>;
let moderator: Awaited<ReturnType<typeof signUpUser>>;
let provider: SmmProvider;
let owned: { ticketId: string; orderId: string; orderNumber: string; paymentReference: string };

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider();
  gateway = await startSandboxGateway();
  provider = sandboxClient(sandbox);
  ({ app } = await createTestApp(database, {
    providers: singleProvider(provider),
    gateways: gatewayRegistry({ epoint: createGateway({ kind: 'sandbox', baseUrl: gateway.url, publicKey: gateway.publicKey, privateKey: gateway.privateKey }) }),
  }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  a = await signUpUser(app);
  b = await signUpUser(app);
  moderator = await signUpUser(app);
  await post(app, `/api/admin/users/${moderator.id}/roles`, { role: 'moderator' }, { cookie: admin });
  owned = await rowsOf(a.id, a.cookie);
});

/** A ticket, an order and a payment of one customer: what another customer must never see. */
async function rowsOf(userId: string, cookie: string) {
  await syncCatalog(database.db, provider);
  const ticket = await (await post(app, '/api/support/tickets', { title: 'My order is late', description: 'Please check order number AR-1.', priority: 'high' }, { cookie })).json();
  const [svc] = await database.db.select().from(catalogServices).limit(1);
  const [order] = await database.db
    .insert(orders)
    .values({ number: 'AR-ACCESS0001', userId, serviceId: svc!.id, serviceName: svc!.name, platform: svc!.platform, serviceType: svc!.type, link: 'https://instagram.com/a', linkKey: 'a', quantity: 100, chargeMicros: 500_000, status: 'pending', idempotencyKey: 'access-a', requestHash: 'h' })
    .returning();
  const payment = await (await post(app, '/api/payments/topup', { amountMicros: 5_000_000 }, { cookie })).json();
  expect(ticket.ticket?.id && order?.id && payment.reference).toBeTruthy();
  return { ticketId: ticket.ticket.id as string, orderId: order!.id, orderNumber: order!.number, paymentReference: payment.reference as string };
}
afterAll(async () => {
  await sandbox.close();
  await gateway.close();
  await database.close();
});

const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';
const concrete = (path: string) =>
  path
    .replace('/*', '/get-session')
    .replace(/:(id|reference|number|slug|name|role)(\{[^}]+\})?/g, (_, p) => (p === 'role' ? 'user' : p === 'number' ? 'AR-0000000000' : PLACEHOLDER_ID));

const call = async (method: string, path: string, cookie?: string, body = '{}') => {
  const controller = new AbortController();
  const res = await app.request(path, {
    method,
    signal: controller.signal,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: method === 'GET' || method === 'DELETE' ? undefined : body,
  });
  const status = res.status;
  // Event streams stay open: read nothing from them.
  const text = res.headers.get('content-type')?.startsWith('text/event-stream') ? '' : await res.text();
  controller.abort();
  await res.body?.cancel().catch(() => {});
  return { status, text };
};

function routeTable() {
  const seen = new Set<string>();
  for (const r of app.routes) if (r.method !== 'ALL' && r.path.startsWith('/api/')) seen.add(`${r.method} ${r.path}`);
  return [...seen];
}

/** What each caller must get — anonymous, customer A, customer B, moderator, admin: 401, 403 or `ok` (below 500, neither 401 nor 403). */
type Outcome = 401 | 403 | 'ok';
const EXPECTED: Record<Exclude<Access, 'auth' | 'gateway'>, Outcome[]> = {
  public: ['ok', 'ok', 'ok', 'ok', 'ok'],
  user: [401, 'ok', 'ok', 'ok', 'ok'],
  staff: [401, 403, 403, 'ok', 'ok'],
  admin: [401, 403, 403, 403, 'ok'],
};
const outcome = (status: number): Outcome | number => (status === 401 || status === 403 ? status : status < 500 ? 'ok' : status);

describe('authorization matrix', () => {
  it('every API route is declared, and every declared route exists', () => {
    const routes = routeTable();
    expect(routes.filter((k) => !ACCESS[k])).toEqual([]);
    expect(Object.keys(ACCESS).filter((k) => !routes.includes(k))).toEqual([]);
  });

  it('anonymous, customers A and B, a moderator and an admin get exactly what each route allows; nothing answers 5xx', async () => {
    const callers = [undefined, a.cookie, b.cookie, moderator.cookie, admin];
    let calls = 0;
    const wrong: string[] = [];
    for (const key of routeTable()) {
      const [method, pattern] = key.split(' ') as [string, string];
      const access = ACCESS[key]!;
      const path = concrete(pattern);
      // Identity endpoints (sign-out ends every session) are exercised by the accounts tests.
      const who = access === 'auth' ? [undefined] : callers;
      const got: (Outcome | number)[] = [];
      for (const cookie of who) got.push(outcome((await call(method, path, cookie)).status));
      calls += who.length;
      const want = access === 'auth' || access === 'gateway' ? got.map(() => 'ok') : EXPECTED[access];
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${key}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    }
    console.log(`authorization matrix: ${routeTable().length} routes, ${calls} calls`);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('customer B reads none of customer A’s rows through any customer route, and answers as for a missing row', async () => {
    const markers = [owned.ticketId, owned.orderId, owned.orderNumber, owned.paymentReference, a.email];
    const leaks: string[] = [];
    for (const key of routeTable().filter((k) => ACCESS[k] === 'user')) {
      const [method, pattern] = key.split(' ') as [string, string];
      const path = pattern.replace(':id', owned.ticketId).replace(':reference', owned.paymentReference);
      const body = method === 'POST' && pattern.includes(':id') ? JSON.stringify({ message: 'hello from B' }) : '{}';
      const { status, text } = await call(method, path, b.cookie, body);
      if (pattern.includes(':') && status < 400) leaks.push(`${key} answered ${status} to B`);
      for (const m of markers) if (text.includes(m)) leaks.push(`${key} showed B ${m}`);
    }
    expect(leaks).toEqual([]);
    // A still sees their own.
    expect((await call('GET', `/api/support/tickets/${owned.ticketId}/messages`, a.cookie)).status).toBe(200);
    expect((await call('GET', `/api/payments/${owned.paymentReference}`, a.cookie)).text).toContain(owned.paymentReference);
  });

  it('a moderator reads A’s order and account and answers A’s ticket, but touches no money and no role', async () => {
    const mod = moderator.cookie;
    expect((await call('GET', `/api/admin/orders/${owned.orderId}`, mod)).text).toContain(owned.orderNumber);
    expect((await call('GET', `/api/admin/users?q=${encodeURIComponent(a.email)}`, mod)).text).toContain(a.email);
    expect((await call('GET', `/api/admin/support/tickets/${owned.ticketId}`, mod)).status).toBe(200);
    expect((await call('POST', `/api/admin/support/tickets/${owned.ticketId}/messages`, mod, JSON.stringify({ message: 'We are on it.' }))).status).toBe(201);
    const refused: [string, string, unknown][] = [
      ['POST', `/api/admin/orders/${owned.orderId}/refund`, { amountMicros: 100_000, reason: 'goodwill' }],
      ['POST', `/api/admin/orders/${owned.orderId}/resubmit`, {}],
      ['POST', `/api/admin/orders/${owned.orderId}/resync`, {}],
      ['POST', `/api/admin/users/${a.id}/balance`, { amountMicros: 10_000_000, reason: 'goodwill' }],
      ['POST', `/api/admin/users/${moderator.id}/roles`, { role: 'admin' }],
      ['DELETE', `/api/admin/users/${a.id}/roles/user`, undefined],
      ['PUT', '/api/admin/settings', { maintenance_mode: true }],
      ['GET', '/api/admin/payments', undefined],
      ['GET', '/api/admin/dashboard', undefined],
    ];
    const before = await database.query<{ n: number }>('select (select count(*) from ledger_entries) + (select count(*) from user_roles) as n');
    for (const [method, path, body] of refused) {
      const res = await call(method, path, mod, JSON.stringify(body ?? {}));
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(JSON.parse(res.text).error.code).toBe('FORBIDDEN');
    }
    expect(await database.query('select (select count(*) from ledger_entries) + (select count(*) from user_roles) as n')).toEqual(before);
  });
});

describe('security headers, CORS and server identity', () => {
  it('sends CSP without inline scripts but the one named by its hash, no server version, and no CORS grant to other origins', async () => {
    const res = await app.request('/api/catalog/platforms', { headers: { origin: 'https://evil.example' } });
    const csp = res.headers.get('content-security-policy')!;
    const hash = `'sha256-${createHash('sha256').update(CAPTURE_SCRIPT).digest('base64')}'`;
    expect(csp).toContain(`script-src 'self' ${hash};`);
    expect(csp).not.toMatch(/unsafe-inline[^;]*;[^;]*$|script-src[^;]*unsafe/);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('server')).toBeNull();
    expect(res.headers.get('x-powered-by')).toBeNull();
    const preflight = await app.request('/api/orders', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('adds HSTS in production only', async () => {
    expect((await app.request('/healthz')).headers.get('strict-transport-security')).toBeNull();
    const prodDb = await createTestDatabase();
    try {
      const { parseEnv } = await import('../env');
      const env = parseEnv({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://artim.az', ALLOW_SANDBOX_IN_PRODUCTION: 'true', JOBS: 'false', SMTP_URL: 'smtp://mail.example.com:587', PROVIDER_KEYS_SECRET: 'y'.repeat(40) });
      const { app: prod } = await createTestApp(prodDb, { env, publicUrl: 'https://artim.az' });
      expect((await prod.request('/healthz')).headers.get('strict-transport-security')).toContain('max-age=31536000');
    } finally {
      await prodDb.close();
    }
  });
});
