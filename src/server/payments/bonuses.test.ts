/**
 * Deposit bonuses and coupons (docs/rules.md#bonuses): what a top-up earns is fixed when it
 * starts and credited with it, each as its own ledger entry; a chargeback takes it back with the
 * top-up; a coupon is used no more often than it allows, also when top-ups naming it race.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxPayriff } from '../../../sandbox/payriff';
import { topUpResultSchema } from '../../core/contracts/payments';
import { AppError } from '../../core/errors';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { coupons, depositBonusRules, ledgerEntries, paymentMethods, payments, users } from '../db/schema';
import { createGateway, gatewayRegistry } from '../gateways';
import { createLogger } from '../logger';
import { createTestApp, serveOverHttp } from '../testing/app';
import { createTestDatabase, postgresAvailable } from '../testing/db';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import { reviewBankTransfer } from './bank';
import { ensurePaymentMethods } from './methods';
import { reversePayment, startTopUp, type PaymentsDeps } from './service';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR receipt')]);

async function setUp(engine: 'default' | 'postgres' = 'default') {
  const database = await createTestDatabase(engine);
  const payriff = await startSandboxPayriff({ delayMs: 50, retryDelaysMs: [] });
  const gateways = gatewayRegistry({ payriff: createGateway({ kind: 'payriff', baseUrl: payriff.url, secretKey: payriff.secretKey }) });
  const { app } = await createTestApp(database, { gateways });
  await ensurePaymentMethods(database.db, ['payriff', 'bank']);
  await database.db.update(paymentMethods).set({ minMicros: 1_000_000 }).where(eq(paymentMethods.kind, 'bank'));
  const server = await serveOverHttp(app);
  payriff.setCallbackUrl(`${server.url}/api/payments/callback/payriff`);
  const deps: PaymentsDeps = { db: database.db, gateways, logger: createLogger('silent'), publicUrl: 'http://localhost:3000' };
  const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  const adminId = (await (await app.request('/api/me', { headers: { cookie: admin } })).json()).user.id as string;
  return {
    database,
    app,
    deps,
    payriff,
    admin,
    adminId,
    async close() {
      await server.close();
      await payriff.close();
      await database.close();
    },
  };
}
type World = Awaited<ReturnType<typeof setUp>>;

const balanceOf = async (w: World, id: string) => (await w.database.db.select().from(users).where(eq(users.id, id)))[0]!.balanceMicros;
const entriesOf = async (w: World, reference: string) =>
  (await w.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.reference, reference))).map((e) => ({ kind: e.kind, amountMicros: e.amountMicros })).sort((a, b) => a.kind.localeCompare(b.kind));

const rule = (w: World, values: Partial<typeof depositBonusRules.$inferInsert> = {}) =>
  w.database.db
    .insert(depositBonusRules)
    .values({ name: 'Campaign', method: null, minMicros: 0, percentBp: 1000, capMicros: null, ...values })
    .returning()
    .then((r) => r[0]!);
let codes = 0;
const coupon = (w: World, values: Partial<typeof coupons.$inferInsert> = {}) =>
  w.database.db
    .insert(coupons)
    .values({ code: `SPRING${++codes}-${Date.now().toString(36).toUpperCase()}`, kind: 'amount', amountMicros: 2_000_000, ...values })
    .returning()
    .then((r) => r[0]!);

/** Approves a bank transfer as the team does (its receipt first). */
async function approve(w: World, paymentId: string) {
  const { attachReceipt } = await import('./bank');
  const [p] = await w.database.db.select().from(payments).where(eq(payments.id, paymentId));
  await attachReceipt(w.database.db, p!.userId, p!.reference, PNG);
  return reviewBankTransfer({ db: w.database.db }, paymentId, { id: w.adminId, email: 'admin@test.local' }, { approve: true });
}

describe('deposit bonuses and coupons', () => {
  let w: World;
  beforeAll(async () => {
    w = await setUp();
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('fixes what a top-up earns when it starts, and credits the bonus and the coupon with it, each once', async () => {
    // 10 % from 20 USD, at most 3 USD; a better rule for Payriff only; one that has not started yet.
    const any = await rule(w, { percentBp: 1000, minMicros: 20_000_000, capMicros: 3_000_000 });
    await rule(w, { method: 'payriff', percentBp: 1500, minMicros: 20_000_000 });
    await rule(w, { percentBp: 5000, startsAt: new Date(Date.now() + 3_600_000) });
    const spring = await coupon(w, { kind: 'percent', amountMicros: null, percentBp: 500, capMicros: 1_000_000 });
    const customer = await signUpUser(w.app);

    // A bank transfer of 25 USD: the rule for every method gives 2.50; the coupon 5 % = 1.25, capped at 1.
    const res = await post(w.app, '/api/payments/topup', { amountMicros: 25_000_000, method: 'bank', coupon: spring.code.toLowerCase() }, { cookie: customer.cookie });
    expect(res.status).toBe(201);
    const started = topUpResultSchema.parse(await res.json());
    expect(started).toMatchObject({ bonusMicros: 2_500_000, couponMicros: 1_000_000 });
    const [p] = await w.database.db.select().from(payments).where(eq(payments.reference, started.reference));
    expect(p).toMatchObject({ bonusRuleId: any.id, bonusMicros: 2_500_000, couponId: spring.id, couponMicros: 1_000_000 });

    // A rule changed before the payment arrives changes nothing for it.
    await w.database.db.update(depositBonusRules).set({ percentBp: 1 }).where(eq(depositBonusRules.id, any.id));
    const reviewed = await approve(w, p!.id);
    expect(reviewed.balanceMicros).toBe(28_500_000);
    expect(await entriesOf(w, p!.id)).toEqual([
      { kind: 'coupon_bonus', amountMicros: 1_000_000 },
      { kind: 'deposit_bonus', amountMicros: 2_500_000 },
      { kind: 'topup', amountMicros: 25_000_000 },
    ]);
    // The customer's list shows what it earned.
    const list = await (await w.app.request('/api/payments', { headers: { cookie: customer.cookie } })).json();
    expect(list.payments[0]).toMatchObject({ reference: started.reference, bonusMicros: 2_500_000, couponMicros: 1_000_000 });
    expect(await verifyLedger(w.database.db)).toEqual([]);
  });

  it('through a card gateway: the best rule for the method, credited when the gateway confirms, however often it notifies', async () => {
    await w.database.db.update(depositBonusRules).set({ enabled: false });
    await rule(w, { percentBp: 1000, minMicros: 5_000_000 });
    const payriffOnly = await rule(w, { method: 'payriff', percentBp: 2000, minMicros: 5_000_000, capMicros: 1_500_000 });
    const user = await createCustomer(w.database.db);
    const topUp = await startTopUp(w.deps, user, { amountMicros: 10_000_000, method: 'payriff', language: 'en' });
    // 20 % of 10 = 2, capped at 1.50 — still better than 10 % (1.00).
    expect(topUp).toMatchObject({ bonusMicros: 1_500_000, couponMicros: 0 });
    const [p] = await w.database.db.select().from(payments).where(eq(payments.reference, topUp.reference));
    expect(p!.bonusRuleId).toBe(payriffOnly.id);
    w.payriff.control.set({ callback: 'duplicate', duplicates: 4 });
    w.payriff.control.complete(p!.transactionId!, 'success');
    await w.payriff.control.idle();
    w.payriff.control.reset();
    expect(await balanceOf(w, user.id)).toBe(11_500_000);
    expect(await entriesOf(w, p!.id)).toEqual([
      { kind: 'deposit_bonus', amountMicros: 1_500_000 },
      { kind: 'topup', amountMicros: 10_000_000 },
    ]);
    expect(await verifyLedger(w.database.db)).toEqual([]);
  });

  it('a declined or abandoned top-up earns nothing and gives its coupon use back', async () => {
    await w.database.db.update(depositBonusRules).set({ enabled: false });
    await rule(w, { percentBp: 1000 });
    const once = await coupon(w, { perCustomer: 1, totalUses: 5 });
    const user = await createCustomer(w.database.db);
    const first = await startTopUp(w.deps, user, { amountMicros: 10_000_000, method: 'payriff', language: 'en', coupon: once.code });
    expect(first).toMatchObject({ bonusMicros: 1_000_000, couponMicros: 2_000_000 });
    // While the first is pending, the coupon is in use.
    await expect(startTopUp(w.deps, user, { amountMicros: 10_000_000, method: 'payriff', language: 'en', coupon: once.code })).rejects.toMatchObject({ code: 'COUPON_ALREADY_USED' });
    const [p] = await w.database.db.select().from(payments).where(eq(payments.reference, first.reference));
    w.payriff.control.complete(p!.transactionId!, 'declined');
    await w.payriff.control.idle();
    expect((await w.database.db.select().from(payments).where(eq(payments.id, p!.id)))[0]!.status).toBe('failed');
    expect(await entriesOf(w, p!.id)).toEqual([]);
    expect(await balanceOf(w, user.id)).toBe(0);
    // Declined: the use is given back, and the coupon works again.
    const second = await startTopUp(w.deps, user, { amountMicros: 10_000_000, method: 'payriff', language: 'en', coupon: once.code });
    expect(second.couponMicros).toBe(2_000_000);
  });

  it('refuses a coupon that is unknown, off, expired, below its smallest top-up or used up, before anything is written', async () => {
    const customer = await signUpUser(w.app);
    const off = await coupon(w, { enabled: false });
    const expired = await coupon(w, { expiresAt: new Date(Date.now() - 1000) });
    const big = await coupon(w, { minTopUpMicros: 50_000_000 });
    const once = await coupon(w, { totalUses: 1 });
    const other = await createCustomer(w.database.db);
    await startTopUp(w.deps, other, { amountMicros: 5_000_000, method: 'bank', language: 'en', coupon: once.code });
    const cases: [string, number, string][] = [
      ['NOSUCHCODE', 422, 'COUPON_NOT_FOUND'],
      [off.code, 422, 'COUPON_NOT_FOUND'],
      [expired.code, 422, 'COUPON_EXPIRED'],
      [big.code, 422, 'COUPON_BELOW_MINIMUM'],
      [once.code, 409, 'COUPON_USED_UP'],
    ];
    for (const [code, status, error] of cases) {
      const check = await post(w.app, '/api/payments/coupon', { code, amountMicros: 10_000_000 }, { cookie: customer.cookie });
      expect([code, check.status]).toEqual([code, status]);
      expect((await check.json()).error.code).toBe(error);
      const res = await post(w.app, '/api/payments/topup', { amountMicros: 10_000_000, method: 'bank', coupon: code }, { cookie: customer.cookie });
      expect([code, res.status]).toEqual([code, status]);
    }
    expect(await w.database.db.select().from(payments).where(eq(payments.userId, customer.id))).toEqual([]);
    // A malformed code is refused by the schema.
    expect((await post(w.app, '/api/payments/coupon', { code: "x' or 1=1", amountMicros: 10_000_000 }, { cookie: customer.cookie })).status).toBe(422);
    // The check tells what it gives, in any letter case.
    const good = await coupon(w, { kind: 'percent', amountMicros: null, percentBp: 250 });
    const check = await post(w.app, '/api/payments/coupon', { code: good.code.toLowerCase(), amountMicros: 40_000_000 }, { cookie: customer.cookie });
    expect(await check.json()).toEqual({ code: good.code, bonusMicros: 1_000_000 });
    // Signed out, nothing.
    expect((await w.app.request('/api/payments/coupon', { method: 'POST', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' }, body: JSON.stringify({ code: good.code, amountMicros: 10_000_000 }) })).status).toBe(401);
  });

  it('counts a coupon\'s uses per customer by mailbox: a second account of the same mailbox shares the count', async () => {
    const once = await coupon(w, { perCustomer: 1 });
    const twice = await coupon(w, { perCustomer: 2 });
    const local = `farm${Date.now().toString(36)}`;
    const first = await createCustomer(w.database.db, { email: `${local}@gmail.com` });
    const second = await createCustomer(w.database.db, { email: `${local.slice(0, 2)}.${local.slice(2)}+promo@GoogleMail.com` });
    const stranger = await createCustomer(w.database.db, { email: `${local}@example.com` });
    await startTopUp(w.deps, first, { amountMicros: 5_000_000, method: 'bank', language: 'en', coupon: once.code });
    await expect(startTopUp(w.deps, second, { amountMicros: 5_000_000, method: 'bank', language: 'en', coupon: once.code })).rejects.toMatchObject({ code: 'COUPON_ALREADY_USED' });
    const check = await (await import('./bonuses')).checkCoupon(w.database.db, second.id, { code: once.code, amountMicros: 5_000_000 }).catch((e: AppError) => e.code);
    expect(check).toBe('COUPON_ALREADY_USED');
    // Another mailbox with the same local part at another domain is another customer.
    await expect(startTopUp(w.deps, stranger, { amountMicros: 5_000_000, method: 'bank', language: 'en', coupon: once.code })).resolves.toMatchObject({ couponMicros: 2_000_000 });
    // Twice per customer: one use by each account of the mailbox, then no more.
    await startTopUp(w.deps, first, { amountMicros: 5_000_000, method: 'bank', language: 'en', coupon: twice.code });
    await startTopUp(w.deps, second, { amountMicros: 5_000_000, method: 'bank', language: 'en', coupon: twice.code });
    await expect(startTopUp(w.deps, first, { amountMicros: 5_000_000, method: 'bank', language: 'en', coupon: twice.code })).rejects.toMatchObject({ code: 'COUPON_ALREADY_USED' });
  });

  it('the top-up dialog reads the rules in force with the methods', async () => {
    await w.database.db.update(depositBonusRules).set({ enabled: false });
    const live = await rule(w, { method: 'bank', percentBp: 700, minMicros: 50_000_000, capMicros: 10_000_000, endsAt: new Date(Date.now() + 86_400_000) });
    await rule(w, { percentBp: 900, endsAt: new Date(Date.now() - 1000), startsAt: new Date(Date.now() - 86_400_000) });
    const customer = await signUpUser(w.app);
    const body = await (await w.app.request('/api/payments/methods', { headers: { cookie: customer.cookie } })).json();
    expect(body.bonusRules).toEqual([{ id: live.id, method: 'bank', minMicros: 50_000_000, percentBp: 700, capMicros: 10_000_000, startsAt: null, endsAt: live.endsAt!.toISOString() }]);
  });

  it('a chargeback takes back the top-up and what it earned, even when spent', async () => {
    await w.database.db.update(depositBonusRules).set({ enabled: false });
    await rule(w, { percentBp: 2000 });
    const gift = await coupon(w, { amountMicros: 3_000_000 });
    const user = await createCustomer(w.database.db);
    const topUp = await startTopUp(w.deps, user, { amountMicros: 10_000_000, method: 'bank', language: 'en', coupon: gift.code });
    const [p] = await w.database.db.select().from(payments).where(eq(payments.reference, topUp.reference));
    await approve(w, p!.id);
    expect(await balanceOf(w, user.id)).toBe(15_000_000);
    const { balanceMicros } = await reversePayment(w.database.db, p!.id, { id: w.adminId, email: 'admin@test.local' }, 'Bank took it back');
    expect(balanceMicros).toBe(0);
    expect((await entriesOf(w, p!.id)).find((e) => e.kind === 'chargeback')).toEqual({ kind: 'chargeback', amountMicros: -15_000_000 });
    expect(await verifyLedger(w.database.db)).toEqual([]);
  });

  it('the books notice a bonus entry that no completed top-up earned', async () => {
    const user = await createCustomer(w.database.db);
    const topUp = await startTopUp(w.deps, user, { amountMicros: 10_000_000, method: 'bank', language: 'en' });
    const [p] = await w.database.db.select().from(payments).where(eq(payments.reference, topUp.reference));
    // Credited without the payment being completed (what must never happen): found.
    const { credit } = await import('../wallet/ledger');
    await credit(w.database.db, { userId: user.id, amountMicros: 1_000_000, kind: 'deposit_bonus', reference: p!.id });
    const problems = await verifyLedger(w.database.db);
    expect(problems).toContainEqual({ userId: user.id, paymentId: p!.id, kind: 'deposit_bonus', problem: 'no_completed_payment' });
    await w.database.db.delete(ledgerEntries).where(and(eq(ledgerEntries.reference, p!.id), inArray(ledgerEntries.kind, ['deposit_bonus'])));
    await w.database.db.update(users).set({ balanceMicros: 0 }).where(eq(users.id, user.id));
    expect(await verifyLedger(w.database.db)).toEqual([]);
  });
});

/** Starts `n` top-ups naming one coupon at once; returns how many went through and the codes of the others. */
async function race(w: World, users: { id: string; email: string }[], code: string) {
  const outcomes = await Promise.all(
    users.map((u) =>
      startTopUp(w.deps, u, { amountMicros: 5_000_000, method: 'bank', language: 'en', coupon: code }).then(
        () => 'used',
        (e) => (e instanceof AppError ? e.code : String(e)),
      ),
    ),
  );
  return { used: outcomes.filter((o) => o === 'used').length, others: [...new Set(outcomes.filter((o) => o !== 'used'))] };
}

describe.skipIf(!postgresAvailable())('coupons under parallel top-ups, on PostgreSQL', () => {
  let w: World;
  beforeAll(async () => {
    w = await setUp('postgres');
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('one customer racing eight top-ups with a once-per-customer coupon uses it once', async () => {
    const once = await coupon(w, { perCustomer: 1 });
    const user = await createCustomer(w.database.db);
    const { used, others } = await race(w, Array.from({ length: 8 }, () => user), once.code);
    expect({ used, others }).toEqual({ used: 1, others: ['COUPON_ALREADY_USED'] });
    expect(await w.database.db.select().from(payments).where(eq(payments.couponId, once.id))).toHaveLength(1);
  });

  it('two accounts of one mailbox racing top-ups with a once-per-customer coupon use it once', async () => {
    const once = await coupon(w, { perCustomer: 1 });
    const local = `race${Date.now().toString(36)}`;
    const first = await createCustomer(w.database.db, { email: `${local}@gmail.com` });
    const second = await createCustomer(w.database.db, { email: `${local.toUpperCase()}+2@gmail.com` });
    const { used, others } = await race(w, [first, second, first, second, first, second], once.code);
    expect({ used, others }).toEqual({ used: 1, others: ['COUPON_ALREADY_USED'] });
    expect(await w.database.db.select().from(payments).where(eq(payments.couponId, once.id))).toHaveLength(1);
  });

  it('ten customers racing for a coupon of three uses in all: three get it', async () => {
    const three = await coupon(w, { perCustomer: 1, totalUses: 3 });
    const customers = await Promise.all(Array.from({ length: 10 }, () => createCustomer(w.database.db)));
    const { used, others } = await race(w, customers, three.code);
    expect({ used, others }).toEqual({ used: 3, others: ['COUPON_USED_UP'] });
    expect(await w.database.db.select().from(payments).where(eq(payments.couponId, three.id))).toHaveLength(3);
  });
});
