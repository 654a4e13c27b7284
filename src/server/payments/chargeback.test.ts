import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { V2_ERRORS } from '../../core/resellerApi';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { syncCatalog } from '../catalog';
import type { Database } from '../db/client';
import { auditLog, catalogServices, ledgerEntries, payments, users } from '../db/schema';
import { createLogger } from '../logger';
import { singleProvider } from '../providers';
import { createTestApp } from '../testing/app';
import { createTestDatabase, postgresAvailable } from '../testing/db';
import { sandboxClient } from '../testing/sandbox';
import { placeOrderBody } from '../testing/orders';
import { createCustomer } from '../testing/users';
import { credit, verifyLedger } from '../wallet/ledger';
import { reversePayment } from './service';

/*
 * Chargebacks (docs/decisions/0019): the team books that the bank took a completed top-up back.
 * The balance may go below zero by it and by nothing else; an account below zero orders nothing
 * (site, mass order, reseller API) until a top-up or the team brings it back to zero or above.
 */

let database: Database;
let sandbox: SandboxProvider;
let app: Hono;
let admin: string;
let adminId: string;

/** A service of the shop at 2 USD per 1000 (fees are 0 %): 1000 units cost exactly 2 000 000 micros. */
const SERVICE = '990001';

const send = (method: string, path: string, cookie?: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function v2(params: Record<string, string | number>): Promise<Record<string, unknown>> {
  const res = await app.request('/api/v2', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.77' },
    body: new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString(),
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** A completed top-up, credited as `settle()` credits one (ledger `topup`, reference = the payment's id). */
async function topUp(userId: string, amountUsdMicros: number, status: 'completed' | 'failed' = 'completed') {
  const [p] = await database.db
    .insert(payments)
    .values({ reference: `balance-${randomUUID()}`, userId, amountUsdMicros, amountMinor: Math.ceil((amountUsdMicros * 1.7) / 10_000), rate: '1.7', provider: 'sandbox', status, gatewayCode: status === 'failed' ? '51' : '000' })
    .returning();
  if (status === 'completed') await credit(database.db, { userId, amountMicros: amountUsdMicros, kind: 'topup', reference: p!.id });
  return p!;
}

const balanceOf = async (id: string) => (await database.db.select({ b: users.balanceMicros, c: users.chargebackMicros }).from(users).where(eq(users.id, id)))[0]!;
let linkNo = 0;
const link = () => `https://instagram.com/chargeback.${Date.now()}.${++linkNo}`;
const orderBody = () => ({ serviceId: SERVICE, link: link(), quantity: 1000, params: {}, idempotencyKey: randomUUID() });

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600 });
  const provider = sandboxClient(sandbox);
  await syncCatalog(database.db, provider);
  ({ app } = await createTestApp(database, { providers: singleProvider(provider) }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  adminId = (await (await app.request('/api/me', { headers: { cookie: admin } })).json()).user.id;
  const plain = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'instagram' && s.params.length === 0)!;
  await database.db.insert(catalogServices).values({ ...plain, id: SERVICE, amountMinimum: 10, amountIncrement: 1, tiers: [{ minimum: 10, maximum: 100_000, price: '2', pricingPer: 1000 }] });
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

describe('a chargeback, from booking to settled', () => {
  it('takes the top-up back below zero; the account orders nothing, on the site, in a mass order or through the API, until a top-up settles it', async () => {
    const customer = await signUpUser(app);
    const key = (await (await post(app, '/api/api-keys', { name: 'Panel' }, { cookie: customer.cookie })).json()).key as string;
    expect((await balanceOf(customer.id)).b).toBe(0);

    // Top-up of 10.00, an order of 2.00 (1000 × 2 USD / 1000): 8.00 left.
    const paid = await topUp(customer.id, 10_000_000);
    const first = await send('POST', '/api/orders', customer.cookie, orderBody());
    expect(first.status).toBe(201);
    expect((await first.json()).chargeMicros).toBe(2_000_000);
    expect(await balanceOf(customer.id)).toEqual({ b: 8_000_000, c: 0 });

    // The bank takes the 10.00 back: 8.00 − 10.00 = −2.00, owed.
    const reversed = await send('POST', `/api/admin/payments/${paid.id}/reversal`, admin, { reason: 'Chargeback 4837: fraud claim' });
    expect(reversed.status).toBe(200);
    expect(await reversed.json()).toMatchObject({ paymentId: paid.id, balanceMicros: -2_000_000 });
    expect(await balanceOf(customer.id)).toEqual({ b: -2_000_000, c: 10_000_000 });
    const entries = await database.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, customer.id), eq(ledgerEntries.kind, 'chargeback')));
    expect(entries.map((e) => [e.amountMicros, e.reference, e.note])).toEqual([[-10_000_000, paid.id, 'Chargeback 4837: fraud claim']]);

    // The payment shows its reversal: who, when, why; still completed, listed as reversed.
    const list = await (await send('GET', `/api/admin/payments?status=reversed&q=${encodeURIComponent(customer.email)}`, admin)).json();
    expect(list.payments).toEqual([expect.objectContaining({ id: paid.id, status: 'completed', reversal: { at: expect.any(String), byEmail: 'admin@test.local', reason: 'Chargeback 4837: fraud claim' } })]);
    // The customer's own list says it was taken back.
    const own = await (await send('GET', '/api/payments', customer.cookie)).json();
    expect(own.payments.find((p: { id: string }) => p.id === paid.id)).toMatchObject({ status: 'completed', reversedAt: expect.any(String) });
    const [row] = await database.db.select().from(payments).where(eq(payments.id, paid.id));
    expect(row).toMatchObject({ status: 'completed', reversedBy: adminId, reversalReason: 'Chargeback 4837: fraud claim' });
    const [logged] = await database.db.select().from(auditLog).where(and(eq(auditLog.action, 'payment.reversal'), eq(auditLog.targetId, paid.id)));
    expect(logged).toMatchObject({ actorEmail: 'admin@test.local', targetType: 'payment', details: { userId: customer.id, reference: paid.reference, amountMicros: 10_000_000, reason: 'Chargeback 4837: fraud claim' } });

    // Once only; a payment that is not a completed top-up, or none, cannot be reversed; a reason is required.
    const again = await send('POST', `/api/admin/payments/${paid.id}/reversal`, admin, { reason: 'twice' });
    expect([again.status, (await again.json()).error.code]).toEqual([409, 'PAYMENT_ALREADY_REVERSED']);
    const failed = await topUp(customer.id, 3_000_000, 'failed');
    const notDone = await send('POST', `/api/admin/payments/${failed.id}/reversal`, admin, { reason: 'not credited' });
    expect([notDone.status, (await notDone.json()).error.code]).toEqual([409, 'PAYMENT_NOT_REVERSIBLE']);
    expect((await send('POST', `/api/admin/payments/${randomUUID()}/reversal`, admin, { reason: 'none such' })).status).toBe(404);
    expect((await send('POST', '/api/admin/payments/not-an-id/reversal', admin, { reason: 'none such' })).status).toBe(404);
    expect((await send('POST', `/api/admin/payments/${paid.id}/reversal`, admin, { reason: '  ' })).status).toBe(422);
    expect((await send('POST', `/api/admin/payments/${paid.id}/reversal`, admin, {})).status).toBe(422);
    expect(await balanceOf(customer.id)).toEqual({ b: -2_000_000, c: 10_000_000 });

    // Owing: the site refuses the order with what is owed, the mass order places nothing, the API answers in its own words.
    const refused = await send('POST', '/api/orders', customer.cookie, orderBody());
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toMatchObject({ code: 'BALANCE_OWED', details: { owedMicros: 2_000_000 } });
    const mass = await send('POST', '/api/orders/mass', customer.cookie, { batchKey: `batch-${Date.now()}`, text: `${SERVICE}|${link()}|1000` });
    expect([mass.status, (await mass.json()).error.code]).toEqual([402, 'BALANCE_OWED']);
    expect(await v2({ key, action: 'add', service: SERVICE, link: link(), quantity: 1000 })).toEqual({ error: V2_ERRORS.owed });
    expect(await v2({ key, action: 'balance' })).toEqual({ error: V2_ERRORS.owed });
    // The team cannot take more either: an adjustment is a debit, which never goes below zero.
    expect((await send('POST', `/api/admin/users/${customer.id}/balance`, admin, { amountMicros: -1, reason: 'more' })).status).toBe(402);
    expect(await balanceOf(customer.id)).toEqual({ b: -2_000_000, c: 10_000_000 });

    // A top-up of 1.00 is not enough: −1.00, still owed.
    await topUp(customer.id, 1_000_000);
    expect((await send('POST', '/api/orders', customer.cookie, orderBody())).status).toBe(402);
    // A top-up of 5.00 settles it: 4.00. The site and the API take orders again: 4.00 − 2.00 − 2.00 = 0.
    await topUp(customer.id, 5_000_000);
    expect((await balanceOf(customer.id)).b).toBe(4_000_000);
    expect((await send('POST', '/api/orders', customer.cookie, orderBody())).status).toBe(201);
    expect(await v2({ key, action: 'add', service: SERVICE, link: link(), quantity: 1000 })).toEqual({ order: expect.any(Number) });
    expect(await balanceOf(customer.id)).toEqual({ b: 0, c: 10_000_000 });
    // Short now, not owing: the usual refusal.
    const short = await send('POST', '/api/orders', customer.cookie, orderBody());
    expect([short.status, (await short.json()).error.code]).toEqual([402, 'INSUFFICIENT_BALANCE']);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('a staff adjustment settles an owed balance too', async () => {
    const customer = await signUpUser(app);
    const paid = await topUp(customer.id, 3_000_000);
    expect((await send('POST', `/api/admin/payments/${paid.id}/reversal`, admin, { reason: 'Bank reversal' })).status).toBe(200);
    expect((await balanceOf(customer.id)).b).toBe(0);
    // 0 is not owed: a chargeback of an unspent top-up leaves nothing to settle.
    const short = await send('POST', '/api/orders', customer.cookie, orderBody());
    expect((await short.json()).error.code).toBe('INSUFFICIENT_BALANCE');

    const other = await signUpUser(app);
    const p2 = await topUp(other.id, 2_000_000);
    expect((await send('POST', '/api/orders', other.cookie, orderBody())).status).toBe(201);
    await send('POST', `/api/admin/payments/${p2.id}/reversal`, admin, { reason: 'Bank reversal' });
    expect((await balanceOf(other.id)).b).toBe(-2_000_000);
    const users_ = await (await send('GET', `/api/admin/users?q=${encodeURIComponent(other.email)}`, admin)).json();
    expect(users_.users[0]).toMatchObject({ balanceMicros: -2_000_000 });
    expect((await send('POST', `/api/admin/users/${other.id}/balance`, admin, { amountMicros: 2_000_000, reason: 'Paid in cash' })).status).toBe(200);
    expect((await balanceOf(other.id)).b).toBe(0);
    expect((await send('POST', `/api/admin/users/${other.id}/balance`, admin, { amountMicros: 2_000_000, reason: 'Goodwill' })).status).toBe(200);
    expect((await send('POST', '/api/orders', other.cookie, orderBody())).status).toBe(201);
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});

describe('the payments list’s query', () => {
  it('is strict: an unknown parameter, a day that is not one, a range backwards or an unknown status is 422, never a 500', async () => {
    for (const q of ['?flagged=yes', '?status=reversedd', '?from=2026-13-01', '?from=2026-03-02&to=2026-03-01', '?page=0', '?sort=amount', '?method=a%20b']) {
      const res = await send('GET', `/api/admin/payments${q}`, admin);
      expect([q, res.status]).toEqual([q, 422]);
      expect((await res.json()).error.code).toBe('VALIDATION_FAILED');
      expect((await send('GET', `/api/admin/payments/export${q}`, admin)).status).toBe(422);
    }
    const ok = await send('GET', '/api/admin/payments?status=completed&flagged=1&from=2026-01-01&to=2026-12-31&q=x&page=2', admin);
    expect(ok.status).toBe(200);
    const csv = await send('GET', '/api/admin/payments/export?flagged=true', admin);
    expect([csv.status, csv.headers.get('content-type'), csv.headers.get('content-disposition')]).toEqual([200, 'text/csv; charset=utf-8', expect.stringMatching(/^attachment; filename="payments-\d{4}-\d{2}-\d{2}\.csv"$/)]);
  });
});

describe('only a chargeback may make a balance negative', () => {
  it('the database refuses a balance below minus the chargebacks booked against it', async () => {
    /** The constraint that refused a statement (the driver's error is under drizzle's). */
    const refusal = (statement: Promise<unknown>) => statement.then(() => null, (e: { cause?: { message?: string; constraint?: string }; message: string }) => e.cause?.constraint ?? e.cause?.message ?? e.message);
    const c = await createCustomer(database.db, { balanceMicros: 1_000_000 });
    expect(await refusal(database.db.execute(sql`update users set balance_micros = -1 where id = ${c.id}`))).toMatch(/users_balance_within_chargebacks/);
    await database.db.execute(sql`update users set chargeback_micros = 5000000, balance_micros = -5000000 where id = ${c.id}`);
    expect(await refusal(database.db.execute(sql`update users set balance_micros = -5000001 where id = ${c.id}`))).toMatch(/users_balance_within_chargebacks/);
    expect(await refusal(database.db.execute(sql`update users set chargeback_micros = -1, balance_micros = 5000000 where id = ${c.id}`))).toMatch(/users_chargebacks_non_negative/);
    await database.db.execute(sql`update users set chargeback_micros = 0, balance_micros = 1000000 where id = ${c.id}`);
  });

  it('the books name each entry that is not a chargeback and left a balance below zero, a chargeback without its reversed top-up, and a wrong chargeback total', async () => {
    const c = await createCustomer(database.db);
    const p = await topUp(c.id, 4_000_000);
    await reversePayment(database.db, p.id, { id: adminId, email: 'admin@test.local' }, 'Bank reversal');
    expect((await verifyLedger(database.db)).filter((v) => v.userId === c.id)).toEqual([]);
    expect(await balanceOf(c.id)).toEqual({ b: 0, c: 4_000_000 });

    // An adjustment written past the debit's guard (−1.00 at 0): the database allows it (within the chargebacks), the books do not.
    await database.db.execute(sql`update users set balance_micros = balance_micros - 1000000 where id = ${c.id}`);
    const [bad] = await database.db.insert(ledgerEntries).values({ userId: c.id, amountMicros: -1_000_000, kind: 'admin_adjustment', reference: `bad-${c.id}` }).returning();
    // A chargeback entry that takes back no reversed top-up, with the total not following it.
    await database.db.execute(sql`update users set balance_micros = balance_micros - 500000 where id = ${c.id}`);
    await database.db.insert(ledgerEntries).values({ userId: c.id, amountMicros: -500_000, kind: 'chargeback', reference: `nothing-${c.id}` });
    // A reversed payment without its entry.
    const q = await topUp(c.id, 2_000_000);
    await database.db.update(payments).set({ reversedAt: new Date(), reversedBy: adminId, reversalReason: 'by hand' }).where(eq(payments.id, q.id));

    expect((await verifyLedger(database.db)).filter((v) => v.userId === c.id)).toEqual(
      expect.arrayContaining([
        { userId: c.id, entryId: bad!.id, kind: 'admin_adjustment', balanceAfterMicros: -1_000_000 },
        { userId: c.id, chargebackMicros: 4_000_000, ledgerChargebackMicros: 4_500_000 },
        { userId: c.id, paymentId: `nothing-${c.id}`, problem: 'no_reversed_payment' },
        { userId: c.id, paymentId: q.id, problem: 'no_entry' },
      ]),
    );
    expect((await verifyLedger(database.db)).filter((v) => v.userId === c.id)).toHaveLength(4);
    // Put right, so the other tests' books stay clean.
    await database.db.delete(ledgerEntries).where(eq(ledgerEntries.userId, c.id));
    await database.db.delete(payments).where(eq(payments.userId, c.id));
    await database.db.execute(sql`update users set balance_micros = 0, chargeback_micros = 0 where id = ${c.id}`);
    expect((await verifyLedger(database.db)).filter((v) => v.userId === c.id)).toEqual([]);
  });

  it('an amount the ledger wrote for a chargeback different from the payment is named', async () => {
    const c = await createCustomer(database.db);
    const p = await topUp(c.id, 3_000_000);
    await reversePayment(database.db, p.id, { id: adminId, email: 'admin@test.local' }, 'Bank reversal');
    await database.db.update(payments).set({ amountUsdMicros: 3_000_001 }).where(eq(payments.id, p.id));
    expect((await verifyLedger(database.db)).filter((v) => v.userId === c.id)).toEqual([{ userId: c.id, paymentId: p.id, problem: 'amount' }]);
    await database.db.update(payments).set({ amountUsdMicros: 3_000_000 }).where(eq(payments.id, p.id));
  });
});

describe.skipIf(!postgresAvailable())('two staff members at once, on PostgreSQL', () => {
  let pg: Database;
  beforeAll(async () => {
    pg = await createTestDatabase('postgres');
  });
  afterAll(() => pg?.close());

  const staff = async (n: number) => {
    const s = await createCustomer(pg.db, { email: `staff-${n}-${randomUUID().slice(0, 6)}@example.com` });
    return { id: s.id, email: s.email };
  };

  it('book one chargeback: one entry, one reversal, the other told it was already reversed', async () => {
    const [a, b] = [await staff(1), await staff(2)];
    for (let round = 0; round < 10; round++) {
      const c = await createCustomer(pg.db);
      const [p] = await pg.db
        .insert(payments)
        .values({ reference: `balance-${randomUUID()}`, userId: c.id, amountUsdMicros: 7_000_000, amountMinor: 1190, rate: '1.7', provider: 'sandbox', status: 'completed' })
        .returning();
      await credit(pg.db, { userId: c.id, amountMicros: 7_000_000, kind: 'topup', reference: p!.id });
      const outcomes = await Promise.allSettled([reversePayment(pg.db, p!.id, a, 'first'), reversePayment(pg.db, p!.id, b, 'second')]);
      const ok = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as { code?: string }).code] : []));
      expect(ok).toHaveLength(1);
      expect(refused).toEqual(['PAYMENT_ALREADY_REVERSED']);
      const entries = await pg.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.kind, 'chargeback'), eq(ledgerEntries.reference, p!.id)));
      expect(entries.map((e) => e.amountMicros)).toEqual([-7_000_000]);
      const [u] = await pg.db.select().from(users).where(eq(users.id, c.id));
      expect([u!.balanceMicros, u!.chargebackMicros]).toEqual([0, 7_000_000]);
    }
    expect(await verifyLedger(pg.db)).toEqual([]);
  });

  it('a chargeback racing an order: either order is right, and the books agree', async () => {
    const a = await staff(3);
    const sandboxPg = await startSandboxProvider({ orderSeconds: 600 });
    try {
      const provider = sandboxClient(sandboxPg);
      await syncCatalog(pg.db, provider);
      const plain = (await pg.db.select().from(catalogServices)).find((s) => s.platform === 'instagram' && s.params.length === 0)!;
      await pg.db.insert(catalogServices).values({ ...plain, id: SERVICE, amountMinimum: 10, amountIncrement: 1, tiers: [{ minimum: 10, maximum: 100_000, price: '2', pricingPer: 1000 }] });
      const od = { db: pg.db, providers: singleProvider(provider), logger: createLogger('silent') };
      const seen = new Set<string>();
      for (let round = 0; round < 10; round++) {
        const c = await createCustomer(pg.db);
        const [p] = await pg.db
          .insert(payments)
          .values({ reference: `balance-${randomUUID()}`, userId: c.id, amountUsdMicros: 10_000_000, amountMinor: 1700, rate: '1.7', provider: 'sandbox', status: 'completed' })
          .returning();
        await credit(pg.db, { userId: c.id, amountMicros: 10_000_000, kind: 'topup', reference: p!.id });
        const [order] = await Promise.allSettled([placeOrderBody(od, c.id, orderBody()), reversePayment(pg.db, p!.id, a, 'race')]);
        const [u] = await pg.db.select().from(users).where(eq(users.id, c.id));
        if (order.status === 'fulfilled') {
          // Ordered first (10 − 2), then taken back (− 10).
          expect(u!.balanceMicros).toBe(-2_000_000);
          seen.add('ordered');
        } else {
          // Taken back first: 0 is short, not owed.
          expect((order.reason as { code?: string }).code).toBe('INSUFFICIENT_BALANCE');
          expect(u!.balanceMicros).toBe(0);
          seen.add('refused');
        }
      }
      expect(seen.size).toBeGreaterThan(0);
      expect(await verifyLedger(pg.db)).toEqual([]);
    } finally {
      await sandboxPg.close();
    }
  });
});
