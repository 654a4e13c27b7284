/**
 * Payments against a slow or silent card gateway, over real HTTP (the sandbox gateway): the site
 * keeps answering while gateway calls hang, the gateway is asked as little as possible, and
 * money is still credited exactly once however the settles race.
 */
import { gatewayRegistry } from '../gateways';
import { eq, sql } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { AppError } from '../../core/errors';
import { signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { ledgerEntries, payments, rateLimits, users } from '../db/schema';
import { createGateway, epointEncode, epointSign, type PaymentGateway } from '../gateways';
import { createLogger } from '../logger';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import { RATE_RULES } from '../http/rateLimit';
import { checkPayment, handleCallback, reconcilePayments, settle, startTopUp, type PaymentsDeps } from './service';

/**
 * How long the adapter waits for a gateway that does not answer: longer than any test, so a
 * call hangs until the test releases it (`gw.control.reset()`).
 */
const STALL_MS = 120_000;

let database: Database;
let gw: SandboxGateway;
let app: Hono;
let deps: PaymentsDeps;
/** Status calls the adapter has started (each one a real HTTP request to the sandbox). */
let statusCalls = 0;
/** Status calls started and not answered yet. */
let hanging = 0;

beforeAll(async () => {
  // PostgreSQL runs with the production default pool (DATABASE_POOL_SIZE=10).
  database = await createTestDatabase('default', 10);
  gw = await startSandboxGateway({ delayMs: 100, retryDelaysMs: [] });
  const real = createGateway({ kind: 'sandbox', baseUrl: gw.url, publicKey: gw.publicKey, privateKey: gw.privateKey, timeoutMs: STALL_MS });
  const gateway: PaymentGateway = {
    name: real.name,
    create: (p) => real.create(p),
    status: async (id) => {
      statusCalls++;
      hanging++;
      try {
        return await real.status(id);
      } finally {
        hanging--;
      }
    },
    parseCallback: (form) => real.parseCallback(form),
  };
  ({ app } = await createTestApp(database, { gateways: gatewayRegistry({ epoint: gateway }) }));
  deps = { db: database.db, gateways: gatewayRegistry({ epoint: gateway }), logger: createLogger('silent'), publicUrl: 'http://localhost:3000' };
}, 120_000);
afterEach(async () => {
  gw.control.reset();
  await gw.control.idle();
  // Each test starts with fresh throttling windows and no open payments of earlier tests.
  await database.db.delete(rateLimits);
  await database.db.update(payments).set({ status: 'cancelled' }).where(eq(payments.status, 'pending'));
});
afterAll(async () => {
  await gw.close();
  await database.close();
});

const balanceOf = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!.balanceMicros;
const paymentOf = async (reference: string) => (await database.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(done: () => boolean, timeoutMs = 60_000) {
  for (const end = Date.now() + timeoutMs; !done(); await sleep(10)) if (Date.now() > end) throw new Error('timed out waiting');
}
/**
 * An anonymous catalogue request: its status, and how many gateway calls were still hanging when
 * it was answered (more than 0: it did not wait for any of them).
 */
async function anonymousRequest() {
  const res = await app.request('/api/catalog/platforms');
  await res.arrayBuffer();
  return { status: res.status, hangingWhenAnswered: hanging };
}
async function paidPayment(amountMicros = 10_000_000) {
  const user = await createCustomer(database.db);
  const started = await startTopUp(deps, user, { amountMicros });
  const p = await paymentOf(started.reference);
  gw.control.complete(p.transactionId!, 'success');
  return { user, started, payment: p };
}

describe('the site while gateway status calls hang', () => {
  it('12 return-page checks of 3 payments stalled on the gateway do not hold up an anonymous request', { timeout: 180_000 }, async () => {
    const customers = await Promise.all([1, 2, 3].map(() => signUpUser(app)));
    const references: { cookie: string; reference: string }[] = [];
    for (const c of customers) {
      const res = await app.request('/api/payments/topup', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie: c.cookie },
        body: JSON.stringify({ amountMicros: 10_000_000 }),
      });
      expect(res.status).toBe(201);
      references.push({ cookie: c.cookie, reference: ((await res.json()) as { reference: string }).reference });
    }
    gw.control.set({ statusMode: 'timeout' });
    const before = statusCalls;
    const checks = references.flatMap(({ cookie, reference }) =>
      Array.from({ length: 4 }, async () => {
        const res = await app.request(`/api/payments/${reference}`, { headers: { cookie } });
        return { status: res.status, body: await res.json() };
      }),
    );
    await until(() => statusCalls > before);
    await sleep(100);

    const during = await anonymousRequest();
    expect(during.status).toBe(200);
    expect(during.hangingWhenAnswered).toBeGreaterThan(0);

    gw.control.reset();
    const answers = await Promise.all(checks);
    for (const a of answers) expect(a).toMatchObject({ status: 200, body: { status: 'pending' } });
    for (const c of customers) expect(await balanceOf(c.id)).toBe(0);
  });

  it('a reconciliation run stalled on the gateway does not hold up an anonymous request', { timeout: 180_000 }, async () => {
    for (let i = 0; i < 3; i++) await startTopUp(deps, await createCustomer(database.db), { amountMicros: 5_000_000 });
    gw.control.set({ statusMode: 'timeout' });
    const before = statusCalls;
    const run = reconcilePayments(deps, new Date(Date.now() + 5 * 60_000));
    await until(() => statusCalls > before);
    await sleep(100);

    const during = await anonymousRequest();
    expect(during.status).toBe(200);
    expect(during.hangingWhenAnswered).toBeGreaterThan(0);
    gw.control.reset();
    await run;
  });
});

describe('asking the gateway as little as possible', () => {
  it('concurrent checks of one payment share one gateway call; a re-check moments later is answered from the database', async () => {
    const { user, started } = await paidPayment(9_000_000);
    gw.control.set({ statusDelayMs: 200 });
    const before = statusCalls;
    const views = await Promise.all(Array.from({ length: 6 }, () => checkPayment(deps, user.id, started.reference)));
    expect(views.map((v) => v.status)).toEqual(Array(6).fill('completed'));
    expect(statusCalls - before).toBe(1);
    expect(await balanceOf(user.id)).toBe(9_000_000);

    // A payment still open is asked about at most once per window.
    const open = await startTopUp(deps, user, { amountMicros: 3_000_000 });
    const first = statusCalls;
    expect((await checkPayment(deps, user.id, open.reference)).status).toBe('pending');
    expect((await checkPayment(deps, user.id, open.reference)).status).toBe('pending');
    expect(statusCalls - first).toBe(1);
    // Once the window has passed, the gateway is asked again.
    await database.db.execute(sql`update ${rateLimits} set reset_at = now() where key like ${`${RATE_RULES.paymentCheckPerPayment.name}:%`}`);
    gw.control.complete((await paymentOf(open.reference)).transactionId!, 'success');
    expect((await checkPayment(deps, user.id, open.reference)).status).toBe('completed');
    expect(statusCalls - first).toBe(2);
  });

  it('a customer’s checks that reach the gateway are capped', async () => {
    const user = await createCustomer(database.db);
    const { limit } = RATE_RULES.paymentCheckPerCustomer;
    const references: string[] = [];
    for (let i = 0; i <= limit; i++) references.push((await startTopUp(deps, user, { amountMicros: (100 + i) * 10_000 })).reference);
    const before = statusCalls;
    for (const reference of references.slice(0, limit)) expect((await checkPayment(deps, user.id, reference)).status).toBe('pending');
    const refused = await checkPayment(deps, user.id, references[limit]!).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED' });
    expect(statusCalls - before).toBe(limit);
  });

  it('two reconciliation runs at once ask the gateway once per payment', async () => {
    const user = await createCustomer(database.db);
    for (let i = 0; i < 3; i++) await startTopUp(deps, user, { amountMicros: (200 + i) * 10_000 });
    gw.control.set({ statusDelayMs: 300 });
    const before = statusCalls;
    const later = new Date(Date.now() + 5 * 60_000);
    const [a, b] = await Promise.all([reconcilePayments(deps, later), reconcilePayments(deps, later)]);
    expect(statusCalls - before).toBe(3);
    // Each payment was asked about by one run; the other either skipped it or, reading after the
    // claim, never listed it: how many it skipped depends on when its query ran.
    expect(a.settled + b.settled + a.expired + b.expired).toBe(0);
    expect(a.skipped + b.skipped).toBeLessThanOrEqual(3);
    // Claims are released when a run is done (their time left in the past): the next run asks again.
    const open = await database.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(open.map((p) => p.status)).toEqual(Array(3).fill('pending'));
    for (const p of open) expect(p.claimedUntil!.getTime()).toBeLessThanOrEqual(Date.now());
    await reconcilePayments(deps, later);
    expect(statusCalls - before).toBe(6);
  });
});

describe('exactly once on a slow gateway', () => {
  it('12 settles of a paid payment racing each other credit it once', async () => {
    const { user, payment } = await paidPayment(15_000_000);
    gw.control.set({ statusDelayMs: 200 });
    const rows = await Promise.all(Array.from({ length: 12 }, () => settle(deps, payment.id)));
    expect(rows.every((r) => r.status === 'completed')).toBe(true);
    expect(await balanceOf(user.id)).toBe(15_000_000);
    expect(await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id))).toHaveLength(1);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('callbacks racing return-page checks and reconciliation credit once', async () => {
    const { user, started, payment } = await paidPayment(22_000_000);
    gw.control.set({ statusDelayMs: 200 });
    const data = epointEncode({ status: 'success', transaction: payment.transactionId, order_id: started.reference, amount: '37.40', currency: 'AZN', code: '000' });
    const callback = { data, signature: epointSign(gw.privateKey, data) };
    await Promise.all([
      handleCallback(deps, 'epoint', callback),
      checkPayment(deps, user.id, started.reference),
      handleCallback(deps, 'epoint', callback),
      checkPayment(deps, user.id, started.reference),
      reconcilePayments(deps, new Date(Date.now() + 5 * 60_000)),
      handleCallback(deps, 'epoint', callback),
    ]);
    expect((await paymentOf(started.reference)).status).toBe('completed');
    expect(await balanceOf(user.id)).toBe(22_000_000);
    expect(await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id))).toHaveLength(1);
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});
