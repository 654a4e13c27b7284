import fc from 'fast-check';
import { gatewayRegistry } from '../gateways';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { ERROR_CODES } from '../../core/errors';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { createGateway } from '../gateways';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sandboxClient } from '../testing/sandbox';
import { singleProvider } from '../providers';

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
    providers: singleProvider(sandboxClient(sandbox)),
    gateways: gatewayRegistry({ epoint: createGateway({ kind: 'sandbox', baseUrl: gateway.url, publicKey: gateway.publicKey, privateKey: gateway.privateKey }) }),
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
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype', 'role', 'balanceMicros', 'price')), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** Plausible keys with hostile values: gets past "not an object" to the field rules. */
const FIELD_NAMES = ['serviceId', 'link', 'quantity', 'params', 'idempotencyKey', 'amountMicros', 'language', 'title', 'description', 'priority', 'message', 'name', 'email', 'phone', 'service', 'subject', 'status', 'role', 'reason', 'slug', 'apiServiceName', 'az', 'tr', 'en', 'service_fee', 'website'];
const shapedBody = fc.dictionary(fc.constantFrom(...FIELD_NAMES, '__proto__', 'constructor'), hostileValue, { maxKeys: 8 });
const anyBody = fc.oneof(shapedBody, hostileValue);

const TABLES = ['users', 'user_roles', 'orders', 'ledger_entries', 'payments', 'support_tickets', 'support_ticket_messages', 'consultations', 'contact_messages', 'services', 'service_custom_names', 'blog_posts', 'faq_items', 'admin_settings'];
/** Each table's row count and the settings, read in one query (it runs twice for every fuzzed body). */
const SNAPSHOT_SQL = `select ${TABLES.map((t) => `(select count(*)::int from ${t}) as "${t}"`).join(', ')},
  (select string_agg(setting_key || '=' || setting_value, ',' order by setting_key) from admin_settings) as "settings"`;
async function snapshot(): Promise<Record<string, number>> {
  const { settings, ...counts } = (await database.query<Record<string, number | string>>(SNAPSHOT_SQL))[0]!;
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number(counts[t]);
  out[`settings:${settings}`] = 1;
  return out;
}

/**
 * Snapshots for a run of requests: a refusal changes nothing, so the snapshot read after one is the
 * next request's "before" — one query per refused request rather than two. Any other answer (it may
 * change the data) makes the next request read its own.
 */
function snapshots() {
  let known: Record<string, number> | undefined;
  return {
    before: async () => known ?? (await snapshot()),
    /** After a refusal: the data is as it was before the request. */
    async unchangedSince(before: Record<string, number>, message: string) {
      known = undefined;
      const after = await snapshot();
      expect(after, message).toEqual(before);
      known = after;
    },
    /** After an answer that may have changed the data. */
    forget: () => void (known = undefined),
  };
}

function jsonRoutes(): { method: string; path: string; cookie?: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string; cookie?: string }[] = [];
  for (const r of app.routes) {
    const key = `${r.method} ${r.path}`;
    if (seen.has(key) || !['POST', 'PUT', 'PATCH'].includes(r.method) || !r.path.startsWith('/api/')) continue;
    seen.add(key);
    if (r.path.includes('*') || r.path.endsWith('/sign-out') || r.path.endsWith('/callback')) continue;
    const path = r.path.replace(/:(\w+)/g, (_, p) => (p === 'role' ? 'user' : p === 'kind' ? 'epoint' : '00000000-0000-4000-8000-000000000000'));
    out.push({ method: r.method, path, cookie: r.path.startsWith('/api/admin/') ? admin : customer });
  }
  return out;
}

describe(`fuzzing JSON endpoints (FUZZ_SEED=${SEED})`, () => {
  it('answers every hostile body with a documented 4xx code, no stack trace, and no change to the data', async () => {
    const routes = jsonRoutes();
    expect(routes.length).toBeGreaterThan(20);
    console.log(`fuzzing ${routes.length} endpoints × ${RUNS} bodies, FUZZ_SEED=${SEED}`);
    const data = snapshots();
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(anyBody, async (body) => {
          const before = await data.before();
          data.forget();
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
            await data.unchangedSince(before, `${route.method} ${route.path} changed data while refusing`);
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

/** A body each admin write accepts, so a fuzzed path or an extra field is what gets tested. */
const localized = { az: 'a', tr: 't', en: 'e' };
const VALID_ADMIN_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/admin/users/:id/roles': { role: 'moderator' },
  'POST /api/admin/users/:id/balance': { amountMicros: 1_000_000, reason: 'fuzzing' },
  'POST /api/admin/orders/:id/refund': { amountMicros: 10_000, reason: 'fuzzing' },
  'PUT /api/admin/settings': { site_name: 'Artım' },
  'POST /api/admin/catalog/services': { name: localized },
  'PUT /api/admin/catalog/services/:id': { name: localized },
  'POST /api/admin/catalog/service-names': { apiServiceName: 'Fuzz name', az: 'a', tr: 't' },
  'PUT /api/admin/catalog/service-names/:name': { apiServiceName: 'Fuzz name', az: 'a', tr: 't' },
  'PUT /api/admin/catalog/param-texts': { kind: 'comments', lang: 'az', label: 'Şərhlər', hint: null, placeholder: null, required: null, invalid: null },
  'POST /api/admin/content/blog': { slug: 'fuzz-post', title: localized, excerpt: localized, body: localized, publishedOn: '2026-01-01' },
  'PUT /api/admin/content/blog/:id': { slug: 'fuzz-post', title: localized, excerpt: localized, body: localized, publishedOn: '2026-01-01' },
  'POST /api/admin/content/faq': { question: localized, answer: localized },
  'PUT /api/admin/content/faq/:id': { question: localized, answer: localized },
  'POST /api/admin/support/tickets/:id/messages': { message: 'fuzzing' },
  'PATCH /api/admin/support/tickets/:id': { status: 'closed' },
  'PATCH /api/admin/consultations/:id': { status: 'handled' },
  'PUT /api/admin/users/:id/api-access': { enabled: false },
  'POST /api/admin/providers': { name: 'Fuzz panel', protocol: 'smm-v2', url: 'https://fuzz.example/api/v2', key: 'fuzz-key' },
  'PUT /api/admin/providers/:id': { name: 'Fuzz panel' },
  'POST /api/admin/catalog/changes/:id': { decision: 'dismissed' },
  'POST /api/admin/catalog/import/preview': { providerId: '00000000-0000-4000-8000-000000000000', serviceIds: ['1'], markup: { percent: '10' } },
  'POST /api/admin/catalog/import': { providerId: '00000000-0000-4000-8000-000000000000', serviceIds: ['1'], markup: { percent: '10' } },
  'PUT /api/admin/catalog/services/:id/sources': { sources: [{ providerId: '00000000-0000-4000-8000-000000000000', providerServiceId: '1' }] },
  'POST /api/admin/bonuses/rules': { name: 'Fuzz bonus', method: null, minMicros: 0, percentBp: 500, capMicros: null, startsAt: null, endsAt: null, enabled: true },
  'PUT /api/admin/bonuses/rules/:id': { name: 'Fuzz bonus', method: null, minMicros: 0, percentBp: 500, capMicros: null, startsAt: null, endsAt: null, enabled: true },
  'POST /api/admin/bonuses/coupons': { code: 'FUZZ-1', kind: 'amount', amountMicros: 1_000_000, percentBp: null, capMicros: null, minTopUpMicros: 0, perCustomer: 1, totalUses: null, expiresAt: null, enabled: true },
  'PUT /api/admin/bonuses/coupons/:id': { code: 'FUZZ-1', kind: 'amount', amountMicros: 1_000_000, percentBp: null, capMicros: null, minTopUpMicros: 0, perCustomer: 1, totalUses: null, expiresAt: null, enabled: true },
};
/** Admin writes that read no body. */
const BODILESS = new Set(['POST /api/admin/orders/:id/resync', 'POST /api/admin/orders/:id/resubmit', 'POST /api/admin/catalog/api-services/refresh', 'POST /api/admin/contact-messages/:id/replied', 'POST /api/admin/orders/:id/refill', 'POST /api/admin/orders/:id/cancel', 'POST /api/admin/providers/:id/test', 'POST /api/admin/providers/:id/catalogue']);

function adminRoutes(): { key: string; method: string; pattern: string }[] {
  const seen = new Set<string>();
  for (const r of app.routes) if (r.method !== 'ALL' && r.path.startsWith('/api/admin/')) seen.add(`${r.method} ${r.path}`);
  return [...seen].map((key) => {
    const [method, pattern] = key.split(' ') as [string, string];
    return { key, method, pattern };
  });
}
const withParams = (pattern: string, value: string) => pattern.replace(/:(\w+)/g, (_, p) => (p === 'role' ? 'user' : p === 'kind' ? 'epoint' : value));
const send = (method: string, path: string, body: string | undefined, contentType = 'application/json') =>
  app.request(path, { method, headers: { origin: TEST_ORIGIN, 'content-type': contentType, cookie: admin }, body: method === 'GET' || method === 'DELETE' ? undefined : body });

/** The answer must be a documented refusal or a success: never 5xx, never a stack trace. */
async function expectHandled(label: string, res: Response) {
  const text = await res.text();
  expect(res.status, `${label} → ${text.slice(0, 200)}`).toBeLessThan(500);
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
  if (res.status >= 400) expect(Object.keys(ERROR_CODES), `${label} → ${text.slice(0, 200)}`).toContain(JSON.parse(text).error?.code);
  return text;
}

const MALFORMED = ['{', '{"name":', '{"role":"admin",}', "{'role':'admin'}", 'nul', 'NaN', '[1,', '"unterminated', '{"a":1}{"b":2}', '\u0000', '[' .repeat(5000), `{"x":"${'a'.repeat(200_000)}"`];

describe('customer JSON endpoints', () => {
  /** A valid body for every customer write; an extra field must be refused, not ignored or stored. */
  const VALID_CUSTOMER_BODIES: [string, string, Record<string, unknown>][] = [
    ['POST', '/api/orders', { serviceId: '1', link: 'https://instagram.com/artim', quantity: 100, params: {}, idempotencyKey: 'strict-body-0001' }],
    ['POST', '/api/payments/topup', { amountMicros: 10_000_000, language: 'az' }],
    ['POST', '/api/support/tickets', { title: 'A question', description: 'Some text long enough.', priority: 'normal' }],
    ['POST', '/api/consultations', { name: 'Aysel', email: 'aysel@example.com', phone: '+994501234567', service: 'seo', message: 'We would like to talk about SEO.' }],
    ['POST', '/api/contact', { name: 'Aysel', email: 'aysel@example.com', subject: 'Hello', message: 'A message long enough to pass.' }],
    ['POST', '/api/api-keys', { name: 'My panel' }],
    ['POST', '/api/orders/mass', { batchKey: 'strict-batch-0001', text: '1|https://instagram.com/artim|100' }],
  ];

  it('refuse an unknown field next to valid ones with 422 VALIDATION_FAILED, changing nothing', async () => {
    for (const [method, path, body] of VALID_CUSTOMER_BODIES) {
      const before = await snapshot();
      const res = await app.request(path, {
        method,
        headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie: customer, 'x-forwarded-for': '203.0.113.90' },
        body: JSON.stringify({ ...body, balanceMicros: 10_000_000_000, isAdmin: true }),
      });
      const text = await expectHandled(`${method} ${path}`, res);
      expect(res.status, `${method} ${path} → ${text.slice(0, 200)}`).toBe(422);
      expect(JSON.parse(text).error.code).toBe('VALIDATION_FAILED');
      expect(await snapshot(), `${method} ${path} changed data while refusing`).toEqual(before);
    }
  });
});

describe('admin JSON endpoints', () => {
  it('answer malformed JSON and non-JSON bodies with 400 BAD_REQUEST on every write that reads a body, changing nothing', async () => {
    let cases = 0;
    const writes = adminRoutes().filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !BODILESS.has(r.key));
    expect(writes.length).toBeGreaterThanOrEqual(15);
    for (const { key, method, pattern } of writes) {
      const path = withParams(pattern, '00000000-0000-4000-8000-000000000000');
      const before = await snapshot();
      for (const body of MALFORMED) {
        const res = await send(method, path, body);
        await expectHandled(`${key} ${JSON.stringify(body.slice(0, 20))}`, res);
        expect(res.status, `${key} ${JSON.stringify(body.slice(0, 20))}`).toBe(400);
        cases += 1;
      }
      // A valid body sent as a form or as text is not JSON either.
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await send(method, path, JSON.stringify(VALID_ADMIN_BODIES[key] ?? {}), type);
        await expectHandled(`${key} as ${type}`, res);
        expect(res.status, `${key} as ${type}`).toBe(400);
        cases += 1;
      }
      expect(await snapshot(), `${key} changed data while refusing`).toEqual(before);
    }
    console.log(`malformed bodies: ${cases} cases over ${writes.length} admin writes`);
  }, 120_000);

  it('refuse an unknown field next to valid ones with 422 VALIDATION_FAILED, changing nothing', async () => {
    const writes = adminRoutes().filter((r) => VALID_ADMIN_BODIES[r.key]);
    expect(writes.length).toBe(Object.keys(VALID_ADMIN_BODIES).length);
    for (const { key, method, pattern } of writes) {
      const before = await snapshot();
      const res = await send(method, withParams(pattern, '00000000-0000-4000-8000-000000000000'), JSON.stringify({ ...VALID_ADMIN_BODIES[key], isAdmin: true }));
      const text = await expectHandled(key, res);
      expect(res.status, `${key} → ${text.slice(0, 200)}`).toBe(422);
      expect(JSON.parse(text).error.code).toBe('VALIDATION_FAILED');
      expect(await snapshot(), `${key} changed data while refusing`).toEqual(before);
    }
  });

  it('a balance adjustment for a user that does not exist answers 404 NOT_FOUND', async () => {
    const res = await send('POST', '/api/admin/users/00000000-0000-4000-8000-000000000000/balance', JSON.stringify(VALID_ADMIN_BODIES['POST /api/admin/users/:id/balance']));
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('NOT_FOUND');
  });

  it(`answer garbage path parameters and query strings with a documented 4xx (FUZZ_SEED=${SEED})`, async () => {
    const routes = adminRoutes();
    const withId = routes.filter((r) => r.pattern.includes(':'));
    const garbageParam = fc.oneof(
      fc.constantFrom('0', '-1', '1.5', '1e309', '9'.repeat(400), 'NaN', 'null', 'undefined', '%00', '%', '%zz', '%E0%A4%A', '..%2F..%2Fetc', "1'%20or%20'1'='1", '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-fffffffffffff', '%F0%9F%92%A9', '__proto__', 'x'.repeat(5000)),
      fc.string({ minLength: 1, maxLength: 60 }).map(encodeURIComponent),
      fc.integer().map(String),
    );
    let cases = 0;
    // Every route is fuzzed even when an earlier one fails; the failures are listed together.
    const failures: string[] = [];
    const check = (run: Promise<void>) =>
      run.catch((err: Error) => void failures.push(/(?:Got error|Caused by): (.+)/.exec(err.message)?.[1]?.slice(0, 300) ?? String((err.cause as Error | undefined)?.message ?? err.message).slice(0, 300)));
    const data = snapshots();
    for (const { key, method, pattern } of withId) {
      await check(fc.assert(
        fc.asyncProperty(garbageParam, async (param) => {
          const before = await data.before();
          data.forget();
          const res = await send(method, withParams(pattern, param), JSON.stringify(VALID_ADMIN_BODIES[key] ?? {}));
          const label = `${key} with ${param.slice(0, 40)}`;
          await expectHandled(label, res);
          if (res.status >= 400) await data.unchangedSince(before, `${label} changed data while refusing`);
          cases += 1;
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      ));
    }
    const queryValue = fc.oneof(hostileString.map((v) => v.slice(0, 3000)), fc.integer().map(String), fc.constantFrom('', '2026-13-45', 'true', '-1', '1e309', 'unknown'));
    const query = fc.dictionary(fc.constantFrom('q', 'page', 'status', 'priority', 'platform', 'from', 'to', 'flagged'), queryValue, { maxKeys: 5 });
    const gets = routes.filter((r) => r.method === 'GET' && !r.pattern.includes(':'));
    for (const { key, pattern } of gets) {
      await check(fc.assert(
        fc.asyncProperty(query, async (q) => {
          await expectHandled(`${key}?${new URLSearchParams(q)}`.slice(0, 200), await send('GET', `${pattern}?${new URLSearchParams(q)}`, undefined));
          cases += 1;
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      ));
    }
    console.log(`path and query fuzzing: ${cases} cases over ${withId.length} routes with parameters and ${gets.length} listings`);
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('NUL characters', () => {
  it('are refused with 400 BAD_REQUEST in any JSON string, path or query, before the database sees them', async () => {
    const withNul = Object.fromEntries(FIELD_NAMES.map((k) => [k, `a\u0000b`]));
    const before = await snapshot();
    for (const route of jsonRoutes()) {
      const res = await app.request(route.path, { method: route.method, headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie: route.cookie ?? '' }, body: JSON.stringify(withNul) });
      expect(res.status, `${route.method} ${route.path} ${await res.clone().text()}`).toBe(400);
    }
    for (const path of ['/api/admin/users?q=%00', '/api/admin/orders?platform=%00', '/api/admin/support/tickets?q=a%00', '/api/admin/catalog/service-names/%00', '/api/content/blog/%00', '/api/track/AR-%00']) {
      const res = await app.request(path, { method: path.includes('service-names') ? 'DELETE' : 'GET', headers: { origin: TEST_ORIGIN, cookie: admin } });
      expect(res.status, path).toBe(400);
      expect((await res.json()).error.code).toBe('BAD_REQUEST');
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe(`fuzzing the reseller API /api/v2 (FUZZ_SEED=${SEED})`, () => {
  const ACTIONS = ['services', 'add', 'status', 'refill', 'refill_status', 'cancel', 'balance', 'ADD', '', '__proto__'];
  const FIELDS = ['service', 'link', 'quantity', 'order', 'orders', 'refill', 'refills', 'runs', 'interval', 'comments', 'username', '__proto__', 'constructor', 'key'];
  const formValue = fc.oneof(hostileString, hostileNumber.map(String), fc.constantFrom('1', '0', '-1', '1,2,3', Array.from({ length: 150 }, (_, i) => i).join(','), '1e9', ' 100 '));

  it('answers every hostile form, JSON body and query string with HTTP 200 and the protocol’s shape, never a stack trace', async () => {
    const key = (await (await post(app, '/api/api-keys', { name: 'fuzz' }, { cookie: customer })).json()).key as string;
    const params = fc.record({
      action: fc.constantFrom(...ACTIONS),
      withKey: fc.boolean(),
      fields: fc.dictionary(fc.constantFrom(...FIELDS), formValue, { maxKeys: 6 }),
      as: fc.constantFrom('form', 'json', 'query', 'multipart'),
    });
    let cases = 0;
    const data = snapshots();
    await fc.assert(
      fc.asyncProperty(params, async ({ action, withKey, fields, as }) => {
        const all: Record<string, string> = { ...fields, action };
        if (withKey) all.key = key;
        const before = await data.before();
        data.forget();
        let res: Response;
        if (as === 'query') {
          res = await app.request(`/api/v2?${new URLSearchParams(all).toString().slice(0, 7000)}`);
        } else if (as === 'json') {
          res = await app.request('/api/v2', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(all) });
        } else if (as === 'multipart') {
          const form = new FormData();
          for (const [k, v] of Object.entries(all)) form.append(k, v);
          res = await app.request('/api/v2', { method: 'POST', body: form });
        } else {
          res = await app.request('/api/v2', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(all).toString() });
        }
        const text = await res.text();
        cases += 1;
        // Limits in front of every API route: an over-long address or body, a NUL character.
        if (res.status === 414 || res.status === 413) return;
        if (res.status === 400) {
          expect(JSON.parse(text).error.code).toBe('BAD_REQUEST');
          return;
        }
        expect(res.status, `${as} ${text.slice(0, 200)}`).toBe(200);
        expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
        const body = JSON.parse(text);
        if (!withKey) expect(body).toEqual({ error: 'Incorrect API key' });
        // The customer has no money: nothing is ever ordered, so no table changes.
        await data.unchangedSince(before, `${as} ${action} changed data`);
      }),
      { numRuns: RUNS * 6, seed: SEED, endOnFailure: true },
    );
    console.log(`/api/v2: ${cases} hostile calls`);
  }, 300_000);
});
