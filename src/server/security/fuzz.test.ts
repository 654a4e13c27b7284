import fc from 'fast-check';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { ERROR_CODES } from '../../core/errors';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { createGateway } from '../gateways';
import { createProvider } from '../providers';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';

/**
 * Every JSON endpoint receives generated invalid and hostile bodies: wrong types, huge strings,
 * unicode, extreme numbers, prototype-pollution keys, SQL and HTML payloads. No answer may be a
 * 5xx or carry a stack trace; every refusal has a documented code; a refused request changes no
 * table. The seed is printed so a failure replays.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);

let database: Database;
let app: Hono;
let sandbox: SandboxProvider;
let gateway: SandboxGateway;
let admin: string;
let customer: string;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider();
  gateway = await startSandboxGateway();
  ({ app } = await createTestApp(database, {
    provider: createProvider({ protocol: 'qqtube', url: sandbox.qqtubeUrl, key: sandbox.apiKey }),
    gateway: createGateway({ kind: 'sandbox', baseUrl: gateway.url, publicKey: gateway.publicKey, privateKey: gateway.privateKey }),
  }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  customer = (await signUpUser(app)).cookie;
  await post(app, '/api/support/tickets', { title: 'A ticket to fuzz', description: 'Some text long enough.' }, { cookie: customer });
});
afterAll(async () => {
  await sandbox.close();
  await gateway.close();
  await database.close();
});

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom(
    "'; drop table users; --",
    '" or 1=1 --',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '${7*7}{{7*7}}',
    '../../etc/passwd',
    '\u0000\u202e\uFEFF',
    'javascript:alert(1)',
    'https://instagram.com/' + 'a'.repeat(3000),
  ),
  fc.constant('x'.repeat(70_000)),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e308, -1e308, 2 ** 63),
);
const hostileValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype', 'role', 'balanceCents', 'price')), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** Plausible keys with hostile values: gets past "not an object" to the field rules. */
const FIELD_NAMES = ['serviceId', 'link', 'quantity', 'params', 'idempotencyKey', 'amountCents', 'language', 'title', 'description', 'priority', 'message', 'name', 'email', 'phone', 'service', 'subject', 'status', 'role', 'reason', 'slug', 'apiServiceName', 'az', 'tr', 'en', 'service_fee', 'website'];
const shapedBody = fc.dictionary(fc.constantFrom(...FIELD_NAMES, '__proto__', 'constructor'), hostileValue, { maxKeys: 8 });
const anyBody = fc.oneof(shapedBody, hostileValue);

const TABLES = ['users', 'user_roles', 'orders', 'ledger_entries', 'payments', 'support_tickets', 'support_ticket_messages', 'consultations', 'contact_messages', 'services', 'service_custom_names', 'blog_posts', 'faq_items', 'admin_settings'];
async function snapshot(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number((await database.query<{ n: number }>(`select count(*)::int as n from ${t}`))[0]!.n);
  const settings = await database.query<{ v: string }>(`select string_agg(setting_key || '=' || setting_value, ',' order by setting_key) as v from admin_settings`);
  out[`settings:${settings[0]!.v}`] = 1;
  return out;
}

function jsonRoutes(): { method: string; path: string; cookie?: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string; cookie?: string }[] = [];
  for (const r of app.routes) {
    const key = `${r.method} ${r.path}`;
    if (seen.has(key) || !['POST', 'PUT', 'PATCH'].includes(r.method) || !r.path.startsWith('/api/')) continue;
    seen.add(key);
    if (r.path.includes('*') || r.path.endsWith('/sign-out') || r.path.endsWith('/callback')) continue;
    const path = r.path.replace(/:(\w+)/g, (_, p) => (p === 'role' ? 'user' : '00000000-0000-4000-8000-000000000000'));
    out.push({ method: r.method, path, cookie: r.path.startsWith('/api/admin/') ? admin : customer });
  }
  return out;
}

describe(`fuzzing JSON endpoints (FUZZ_SEED=${SEED})`, () => {
  it('answers every hostile body with a documented 4xx code, no stack trace, and no change to the data', async () => {
    const routes = jsonRoutes();
    expect(routes.length).toBeGreaterThan(20);
    console.log(`fuzzing ${routes.length} endpoints × ${RUNS} bodies, FUZZ_SEED=${SEED}`);
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(anyBody, async (body) => {
          const before = await snapshot();
          const res = await app.request(route.path, {
            method: route.method,
            headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie: route.cookie ?? '' },
            body: JSON.stringify(body),
          });
          const text = await res.text();
          expect(res.status, `${route.method} ${route.path} ${text.slice(0, 200)}`).toBeLessThan(500);
          expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
          if (res.status >= 400) {
            const code = JSON.parse(text).error?.code;
            expect(Object.keys(ERROR_CODES), `${route.method} ${route.path} → ${text.slice(0, 200)}`).toContain(code);
            expect(await snapshot(), `${route.method} ${route.path} changed data while refusing`).toEqual(before);
          }
          // Nothing may ever be polluted through a body.
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          expect(Object.prototype).not.toHaveProperty('role');
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
  }, 600_000);
});
