import { randomUUID } from 'node:crypto';
import { gatewayRegistry } from '../gateways';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { cachesOf, enableCaches } from '../cache';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { catalogServices, payments, users } from '../db/schema';
import { createGateway } from '../gateways';
import { singleProvider } from '../providers';
import { createTestApp, serveOverHttp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { eventually } from '../testing/eventually';
import { sandboxClient } from '../testing/sandbox';
import { sourceRenderer } from '../testing/web';
import { credit } from '../wallet/ledger';

/**
 * A customer's balance is cached with their discount (discounts/service.ts `balanceAndDiscount`):
 * every way it changes shows on the customer's very next page. Here the instance's caches hear no
 * notices from the database, so what a write through this instance changed is fresh only because
 * the instance forgot it itself; the notices are the other instances' way (cache.test.ts), and
 * this instance's for writes no request made (the last test, on a listening instance).
 */
let database: Database;
let sandbox: SandboxProvider;
let gw: SandboxGateway;
let app: Hono;
let server: Awaited<ReturnType<typeof serveOverHttp>>;
let stopCaches: (() => Promise<void>) | undefined;
let admin: string;
let service: typeof catalogServices.$inferSelect;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600 });
  const provider = sandboxClient(sandbox);
  await syncCatalog(database.db, provider);
  gw = await startSandboxGateway({ delayMs: 50 });
  const gateway = createGateway({ kind: 'sandbox', baseUrl: gw.url, publicKey: gw.publicKey, privateKey: gw.privateKey });
  // A built app (clientDir set) answers customers' pages from shells: only the fields are read per request.
  ({ app } = await createTestApp(database, { providers: singleProvider(provider), gateways: gatewayRegistry({ epoint: gateway }), web: sourceRenderer(), clientDir: mkdtempSync(join(tmpdir(), 'artim-client-')) }));
  server = await serveOverHttp(app);
  gw.setCallbackUrl(`${server.url}/api/payments/callback`);
  const deaf = Object.assign(Object.create(database) as Database, { listen: async () => async () => {} });
  stopCaches = await enableCaches(deaf);
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  service = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.params.length === 0)!;
});
afterAll(async () => {
  await stopCaches?.();
  await server?.close();
  await gw?.close();
  await sandbox?.close();
  await database?.close();
});

const send = (method: string, path: string, cookie: string, body?: unknown) =>
  app.request(path, { method, headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
/** The balance the customer's dashboard shows them (its boot data), checked against the page's text. */
async function pageBalance(cookie: string, path = '/en/dashboard'): Promise<number> {
  const res = await app.request(path, { headers: { cookie } });
  expect(res.status).toBe(200);
  const html = await res.text();
  const me = (JSON.parse(/<script type="application\/json" id="artim-boot">([\s\S]*?)<\/script>/.exec(html)![1]!) as { me: { balanceMicros: number } }).me;
  return me.balanceMicros;
}
const stored = async (id: string) => (await database.db.select({ b: users.balanceMicros }).from(users).where(eq(users.id, id)))[0]!.b;

describe('a customer’s balance on their pages, cached by the instance', () => {
  it('is read once and kept while nothing changes it', async () => {
    const customer = await signUpUser(app);
    await credit(database.db, { userId: customer.id, amountMicros: 3_000_000, kind: 'topup', reference: `t-${customer.id}` });
    // Not cached yet: read fresh, then kept.
    expect(await pageBalance(customer.cookie)).toBe(3_000_000);
    expect(cachesOf(database.db)!.balances.get(customer.id)).toMatchObject({ balanceMicros: 3_000_000 });
    // A change nobody announced to this deaf instance is not seen: the page reads the cache.
    await database.db.update(users).set({ balanceMicros: 3_500_000 }).where(eq(users.id, customer.id));
    expect(await pageBalance(customer.cookie)).toBe(3_000_000);
    await database.db.update(users).set({ balanceMicros: 3_000_000 }).where(eq(users.id, customer.id));
  });

  it('shows the customer’s own order on the next page, and on /api/me', async () => {
    const customer = await signUpUser(app);
    await credit(database.db, { userId: customer.id, amountMicros: 50_000_000, kind: 'topup', reference: `t-${customer.id}` });
    expect(await pageBalance(customer.cookie)).toBe(50_000_000);
    const placed = await send('POST', '/api/orders', customer.cookie, { serviceId: service.id, link: 'https://tiktok.com/@balance', quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() });
    expect(placed.status).toBe(201);
    const charge = ((await placed.json()) as { chargeMicros: number }).chargeMicros;
    expect(charge).toBeGreaterThan(0);
    expect(await pageBalance(customer.cookie)).toBe(50_000_000 - charge);
    expect(await pageBalance(customer.cookie, '/en/order')).toBe(50_000_000 - charge);
    const me = (await (await app.request('/api/me', { headers: { cookie: customer.cookie } })).json()) as { user: { balanceMicros: number } };
    expect(me.user.balanceMicros).toBe(50_000_000 - charge);
  });

  it('shows a team member’s credit and refund on the customer’s next page', async () => {
    const customer = await signUpUser(app);
    expect(await pageBalance(customer.cookie)).toBe(0);
    expect((await send('POST', `/api/admin/users/${customer.id}/balance`, admin, { amountMicros: 20_000_000, reason: 'goodwill' })).status).toBe(200);
    expect(await pageBalance(customer.cookie)).toBe(20_000_000);

    const placed = await send('POST', '/api/orders', customer.cookie, { serviceId: service.id, link: 'https://tiktok.com/@refund', quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() });
    const order = (await placed.json()) as { id: string; chargeMicros: number };
    expect(await pageBalance(customer.cookie)).toBe(20_000_000 - order.chargeMicros);
    const refunded = await send('POST', `/api/admin/orders/${order.id}/refund`, admin, { amountMicros: 1_000, reason: 'late delivery' });
    expect(refunded.status).toBe(200);
    expect(await pageBalance(customer.cookie)).toBe(20_000_000 - order.chargeMicros + 1_000);
  });

  it('shows a card top-up credited on the gateway’s callback on the customer’s next page', async () => {
    const customer = await signUpUser(app);
    expect(await pageBalance(customer.cookie)).toBe(0);
    const started = (await (await send('POST', '/api/payments/topup', customer.cookie, { amountMicros: 10_000_000 })).json()) as { reference: string };
    const [row] = await database.db.select().from(payments).where(eq(payments.reference, started.reference));
    gw.control.complete(row!.transactionId!, 'success');
    // Credited when the callback's request committed; the page asked after that shows it.
    await eventually(async () => expect(await stored(customer.id)).toBe(10_000_000));
    await eventually(async () => expect((await database.db.select().from(payments).where(eq(payments.reference, started.reference)))[0]!.status).toBe('completed'));
    expect(await pageBalance(customer.cookie)).toBe(10_000_000);
  });
});

describe('a customer’s balance changed by no request of this instance', () => {
  it('shows on their page once the database’s notice of the commit arrives', async () => {
    const own = await createTestDatabase();
    const stop = await enableCaches(own);
    try {
      const { app: listening } = await createTestApp(own, { web: sourceRenderer(), clientDir: mkdtempSync(join(tmpdir(), 'artim-client-')) });
      const customer = await signUpUser(listening);
      const balance = async () => {
        const html = await (await listening.request('/en/dashboard', { headers: { cookie: customer.cookie } })).text();
        return (JSON.parse(/id="artim-boot">([\s\S]*?)<\/script>/.exec(html)![1]!) as { me: { balanceMicros: number } }).me.balanceMicros;
      };
      await eventually(async () => {
        expect(await balance()).toBe(0);
        expect(cachesOf(own.db)!.balances.get(customer.id)).toBeDefined();
      });
      // A background job's credit: written straight to the database, announced by its trigger.
      await credit(own.db, { userId: customer.id, amountMicros: 7_000_000, kind: 'order_refund', reference: `r-${customer.id}` });
      await eventually(async () => expect(await balance()).toBe(7_000_000));
    } finally {
      await stop();
      await own.close();
    }
  });
});
