import type { Hono } from 'hono';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { createGateway } from '../gateways';
import { createProvider } from '../providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';

/**
 * The authorization matrix, generated from the app's own route table: every API route must be
 * declared here with who may call it, so a new route cannot be forgotten. Each route is then
 * called as anonymous, customer A, customer B, a moderator and an admin.
 */
type Access = 'public' | 'user' | 'admin' | 'auth' | 'sandbox' | 'gateway';
const ACCESS: Record<string, Access> = {
  'GET /api/ping': 'public',
  'GET /api/me': 'public',
  'POST /api/auth/sign-in/email': 'auth',
  'POST /api/auth/sign-up/email': 'auth',
  'POST /api/auth/request-password-reset': 'auth',
  'POST /api/auth/sign-out': 'auth',
  'GET /api/auth/*': 'auth',
  'POST /api/auth/*': 'auth',
  'POST /api/auth-extra/email-available': 'public',
  'GET /api/dev/mailbox': 'sandbox',
  'GET /api/dev/mailbox/:id': 'sandbox',
  'GET /api/catalog/services': 'public',
  'GET /api/catalog/services/:id': 'public',
  'GET /api/catalog/platforms': 'public',
  'POST /api/orders': 'user',
  'GET /api/orders': 'user',
  'GET /api/orders/stats': 'user',
  'GET /api/wallet': 'user',
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
  'POST /api/payments/callback': 'gateway',
  'GET /api/settings': 'public',
  'GET /api/content/blog': 'public',
  'GET /api/content/blog/:slug': 'public',
  'GET /api/content/faq': 'public',
  'GET /api/content/services': 'public',
  'GET /api/content/services/:id': 'public',
};

let database: Database;
let app: Hono;
let sandbox: SandboxProvider;
let gateway: SandboxGateway;
let admin: string;
let a: Awaited<ReturnType<typeof signUpUser>>;
let b: Awaited<ReturnType<typeof signUpUser>>;
let moderator: Awaited<ReturnType<typeof signUpUser>>;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider();
  gateway = await startSandboxGateway();
  ({ app } = await createTestApp(database, {
    provider: createProvider({ protocol: 'qqtube', url: sandbox.qqtubeUrl, key: sandbox.apiKey }),
    gateway: createGateway({ kind: 'sandbox', baseUrl: gateway.url, publicKey: gateway.publicKey, privateKey: gateway.privateKey }),
  }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  a = await signUpUser(app);
  b = await signUpUser(app);
  moderator = await signUpUser(app);
  await post(app, `/api/admin/users/${moderator.id}/roles`, { role: 'moderator' }, { cookie: admin });
});
afterAll(async () => {
  await sandbox.close();
  await gateway.close();
  await database.close();
});

const concrete = (path: string) =>
  path
    .replace('/*', '/get-session')
    .replace(/:(id|reference|number|slug|name|role)(\{[^}]+\})?/g, (_, p) => (p === 'role' ? 'user' : p === 'number' ? 'AR-0000000000' : '00000000-0000-4000-8000-000000000000'));

const call = async (method: string, path: string, cookie?: string) => {
  const controller = new AbortController();
  const res = await app.request(path, {
    method,
    signal: controller.signal,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
  });
  const status = res.status;
  controller.abort(); // event streams stay open otherwise
  await res.body?.cancel().catch(() => {});
  return status;
};

function routeTable() {
  const seen = new Set<string>();
  for (const r of app.routes) if (r.method !== 'ALL' && r.path.startsWith('/api/')) seen.add(`${r.method} ${r.path}`);
  return [...seen];
}

describe('authorization matrix', () => {
  it('every API route is declared (admin routes by their prefix)', () => {
    const undeclared = routeTable().filter((k) => !ACCESS[k] && !k.split(' ')[1]!.startsWith('/api/admin/'));
    expect(undeclared).toEqual([]);
  });

  it('anonymous, customers, a moderator and an admin get exactly what each route allows; nothing answers 5xx', async () => {
    for (const key of routeTable()) {
      const [method, pattern] = key.split(' ') as [string, string];
      const access: Access = pattern.startsWith('/api/admin/') ? 'admin' : ACCESS[key]!;
      const path = concrete(pattern);
      const anon = await call(method, path);
      // Identity endpoints (sign-out ends every session) are exercised by the accounts tests.
      if (access === 'auth') {
        expect(anon, key).toBeLessThan(500);
        continue;
      }
      const customer = await call(method, path, a.cookie);
      const mod = await call(method, path, moderator.cookie);
      const boss = await call(method, path, admin);
      for (const s of [anon, customer, mod, boss]) expect(s, `${key} → ${s}`).toBeLessThan(500);
      if (access === 'admin') {
        expect([anon, customer, mod, boss], key).toEqual([401, 403, 403, boss]);
        expect([401, 403], key).not.toContain(boss);
      } else if (access === 'user') {
        expect(anon, key).toBe(401);
        expect([401, 403], key).not.toContain(customer);
      } else if (access === 'public') {
        expect([401, 403], key).not.toContain(anon);
      }
    }
  }, 120_000);

  it('customer B can neither see nor change customer A’s ticket or payment', async () => {
    const ticket = await (await post(app, '/api/support/tickets', { title: 'My order is late', description: 'Please check order number AR-1.', priority: 'high' }, { cookie: a.cookie })).json();
    const ticketId = ticket.id ?? ticket.ticket?.id;
    expect(ticketId).toBeTruthy();
    expect((await app.request(`/api/support/tickets/${ticketId}/messages`, { headers: { cookie: b.cookie } })).status).toBe(404);
    expect((await post(app, `/api/support/tickets/${ticketId}/messages`, { message: 'hello from B' }, { cookie: b.cookie })).status).toBe(404);
    const listB = await (await app.request('/api/support/tickets', { headers: { cookie: b.cookie } })).json();
    expect(JSON.stringify(listB)).not.toContain(ticketId);
    expect((await app.request(`/api/support/tickets/${ticketId}/messages`, { headers: { cookie: a.cookie } })).status).toBe(200);
  });
});

describe('security headers, CORS and server identity', () => {
  it('sends CSP without inline scripts, no server version, and no CORS grant to other origins', async () => {
    const res = await app.request('/api/catalog/platforms', { headers: { origin: 'https://evil.example' } });
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self'(;|$)/);
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
      const env = parseEnv({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://artim.az', ALLOW_SANDBOX_IN_PRODUCTION: 'true', JOBS: 'false' });
      const { app: prod } = await createTestApp(prodDb, { env, publicUrl: 'https://artim.az' });
      expect((await prod.request('/healthz')).headers.get('strict-transport-security')).toContain('max-age=31536000');
    } finally {
      await prodDb.close();
    }
  });
});
