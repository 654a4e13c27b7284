/**
 * Top-ups through Payriff: the app over real HTTP, the sandbox Payriff's page and its unsigned
 * notifications, settlement that believes only the status call.
 */
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { startSandboxPayriff, TEST_CARDS, type SandboxPayriff } from '../../../sandbox/payriff';
import { paymentStatusViewSchema, topUpResultSchema } from '../../core/contracts/payments';
import { post, signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { ledgerEntries, payments, users } from '../db/schema';
import { createGateway, gatewayRegistry } from '../gateways';
import { createLogger } from '../logger';
import { createTestApp, serveOverHttp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import { ensurePaymentMethods } from './methods';
import { checkPayment, reconcilePayments, startTopUp, type PaymentsDeps } from './service';

let database: Database;
let epoint: SandboxGateway;
let payriff: SandboxPayriff;
let app: Hono;
let server: Awaited<ReturnType<typeof serveOverHttp>>;
let deps: PaymentsDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  epoint = await startSandboxGateway({});
  payriff = await startSandboxPayriff({ delayMs: 200, retryDelaysMs: [] });
  const gateways = gatewayRegistry({
    epoint: createGateway({ kind: 'sandbox', baseUrl: epoint.url, publicKey: epoint.publicKey, privateKey: epoint.privateKey }),
    payriff: createGateway({ kind: 'payriff', baseUrl: payriff.url, secretKey: payriff.secretKey }),
  });
  ({ app } = await createTestApp(database, { gateways }));
  await ensurePaymentMethods(database.db, ['epoint', 'payriff']);
  deps = { db: database.db, gateways, logger: createLogger('silent'), publicUrl: 'http://localhost:3000' };
  // Payriff posts its notifications to this app over real HTTP (the app's public address in a test is not its port).
  server = await serveOverHttp(app);
  payriff.setCallbackUrl(`${server.url}/api/payments/callback/payriff`);
});
afterEach(async () => {
  await payriff.control.idle();
  payriff.control.reset();
});
afterAll(async () => {
  await server.close();
  await payriff.close();
  await epoint.close();
  await database.close();
});

const balanceOf = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!.balanceMicros;
const paymentOf = async (reference: string) => (await database.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;
const entriesOf = async (userId: string) => database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId));

/** A Payriff top-up started for a new customer, not paid yet. */
async function started(amountMicros = 10_000_000) {
  const user = await createCustomer(database.db);
  const topUp = await startTopUp(deps, user, { amountMicros, method: 'payriff', language: 'en' });
  const row = await paymentOf(topUp.reference);
  return { user, topUp, orderId: row.transactionId! };
}

/** Pays and waits until every notification was answered by the app (it answers once it has settled). */
async function complete(orderId: string, outcome: 'success' | 'declined' = 'success') {
  payriff.control.complete(orderId, outcome);
  await payriff.control.idle();
}

const notify = (body: unknown) =>
  fetch(`${server.url}/api/payments/callback/payriff`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a top-up through Payriff', () => {
  it('is paid on Payriff’s page, notified over HTTP and credited exactly once', async () => {
    const customer = await signUpUser(app);
    const res = await post(app, '/api/payments/topup', { amountMicros: 10_000_000, language: 'az', method: 'payriff' }, { cookie: customer.cookie });
    expect(res.status).toBe(201);
    const topUp = topUpResultSchema.parse(await res.json());
    expect(topUp).toMatchObject({ amountMinor: 1700, currency: 'AZN' });
    const row = await paymentOf(topUp.reference);
    expect(row).toMatchObject({ method: 'payriff', provider: 'payriff', status: 'pending', amountMinor: 1700 });
    expect(topUp.paymentUrl).toBe(`${payriff.origin}/pay/${row.transactionId}`);
    expect(payriff.control.order(row.transactionId!)).toMatchObject({ requestRrn: topUp.reference, amountQepik: 1700, language: 'AZ' });

    const paid = await fetch(topUp.paymentUrl!, {
      method: 'POST', redirect: 'manual',
      body: new URLSearchParams({ number: TEST_CARDS.success, expiry: '12/39', cvc: '123', name: 'Test Customer', action: 'pay' }),
    });
    expect(paid.headers.get('location')).toBe(`http://localhost:3000/payment-success?order=${topUp.reference}`);
    await payriff.control.idle();
    expect(payriff.control.order(row.transactionId!)?.callbacks.map((c) => c.httpStatus)).toEqual([200]);

    expect(await paymentOf(topUp.reference)).toMatchObject({ status: 'completed', gatewayCode: 'APPROVED' });
    expect(await balanceOf(customer.id)).toBe(10_000_000);
    expect(await entriesOf(customer.id)).toMatchObject([{ kind: 'topup', amountMicros: 10_000_000, reference: row.id }]);
    const check = await app.request(`/api/payments/${topUp.reference}`, { headers: { cookie: customer.cookie } });
    expect(await check.json()).toMatchObject({ status: 'completed', method: 'payriff' });
  });

  it('Apple Pay on Payriff’s page credits like a card', async () => {
    const { user, topUp } = await started(5_000_000);
    expect((await fetch(topUp.paymentUrl!, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ action: 'apple-pay' }) })).status).toBe(303);
    await payriff.control.idle();
    expect(await balanceOf(user.id)).toBe(5_000_000);
  });

  it('repeated notifications, all at once and replayed, with the return page racing them, credit once', async () => {
    payriff.control.set({ callback: 'duplicate', duplicates: 8 });
    const { user, topUp, orderId } = await started(25_000_000);
    payriff.control.complete(orderId, 'success');
    await Promise.all([checkPayment(deps, user.id, topUp.reference), checkPayment(deps, user.id, topUp.reference), payriff.control.idle()]);
    expect(payriff.control.order(orderId)?.callbacks.map((c) => c.httpStatus)).toEqual(Array(8).fill(200));
    const replays = await Promise.all(Array.from({ length: 5 }, () => payriff.control.sendCallback(orderId, { mode: 'normal' })));
    expect(replays.flat().map((a) => a.httpStatus)).toEqual(Array(5).fill(200));
    expect(await balanceOf(user.id)).toBe(25_000_000);
    expect(await entriesOf(user.id)).toHaveLength(1);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  for (const mode of ['tamper-amount', 'tamper-currency'] as const) {
    it(`a status reply with ${mode.replace('tamper-', 'another ')} is flagged and never credited`, async () => {
      payriff.control.set({ statusMode: mode });
      const { user, topUp, orderId } = await started(7_000_000);
      await complete(orderId);
      const row = await paymentOf(topUp.reference);
      expect(row).toMatchObject({ flagged: true, status: 'failed' });
      expect(row.flagReason).toMatch(mode === 'tamper-amount' ? /amount 1191 ≠ 1190/ : /currency USD ≠ AZN/);
      expect(await balanceOf(user.id)).toBe(0);
      payriff.control.set({ statusMode: 'normal' });
      await reconcilePayments(deps, new Date(Date.now() + 3_600_000));
      await payriff.control.sendCallback(orderId);
      expect(await balanceOf(user.id)).toBe(0);
    });

    it(`a notification with ${mode.replace('tamper-', 'another ')} moves nothing by itself: the status call's figures are credited`, async () => {
      payriff.control.set({ callback: mode });
      const { user, topUp, orderId } = await started(7_000_000);
      await complete(orderId);
      expect(await paymentOf(topUp.reference)).toMatchObject({ status: 'completed', flagged: false, amountMinor: 1190 });
      expect(await balanceOf(user.id)).toBe(7_000_000);
    });
  }

  it('a forged notification for an unpaid order credits nothing; one without an order id is refused', async () => {
    const { user, topUp, orderId } = await started(9_000_000);
    const forged = await notify({ code: '00000', message: 'Approved', payload: { orderId, paymentStatus: 'APPROVED', amount: 15.3, currencyType: 'AZN' } });
    expect(forged.status).toBe(200);
    expect(await forged.text()).toBe('OK');
    expect(await paymentOf(topUp.reference)).toMatchObject({ status: 'pending', flagged: false });
    expect(await balanceOf(user.id)).toBe(0);

    const unknown = await notify({ payload: { orderId: 'ORD-MADE-UP', paymentStatus: 'APPROVED' } });
    expect(unknown.status).toBe(200);
    for (const body of [{ orderId }, { payload: { orderId: 42 } }, { payload: { orderId: `${orderId}/../x` } }]) {
      const res = await notify(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('SIGNATURE_INVALID');
    }
    const form = await fetch(`${server.url}/api/payments/callback/payriff`, { method: 'POST', body: new URLSearchParams({ orderId }) });
    expect(form.status).toBe(400);
    expect(await balanceOf(user.id)).toBe(0);
  });

  it('an order paid and partly refunded before the shop settled it is flagged, neither credited nor closed', async () => {
    payriff.control.set({ callback: 'none' });
    const { user, topUp, orderId } = await started(10_000_000);
    await complete(orderId);
    payriff.control.refund(orderId, 100);
    await reconcilePayments(deps, new Date(Date.now() + 5 * 60_000));
    expect(await paymentOf(topUp.reference)).toMatchObject({ status: 'failed', flagged: true, flagReason: expect.stringMatching(/partly refunded/) });
    expect(await balanceOf(user.id)).toBe(0);
    expect(await entriesOf(user.id)).toEqual([]);
  });

  it('a missed notification is settled by reconciliation', async () => {
    payriff.control.set({ callback: 'none' });
    const { user, topUp, orderId } = await started(12_000_000);
    await complete(orderId);
    expect(payriff.control.order(orderId)?.callbacks).toEqual([]);
    expect((await paymentOf(topUp.reference)).status).toBe('pending');
    await reconcilePayments(deps, new Date(Date.now() + 5 * 60_000));
    expect((await paymentOf(topUp.reference)).status).toBe('completed');
    expect(await balanceOf(user.id)).toBe(12_000_000);
  });

  it('a declined card closes the payment failed, with a reason the return page words', async () => {
    const { user, topUp, orderId } = await started(4_000_000);
    await complete(orderId, 'declined');
    expect(await paymentOf(topUp.reference)).toMatchObject({ status: 'failed', flagged: false, gatewayCode: 'DECLINED', gatewayMessage: 'Declined by the issuer' });
    const view = paymentStatusViewSchema.parse(await (await app.request(`/api/payments/${topUp.reference}/status`, { headers: { 'x-forwarded-for': '203.0.113.60' } })).json());
    expect(view).toMatchObject({ status: 'failed', reason: 'declined' });
    expect(await balanceOf(user.id)).toBe(0);
  });

  it('the status call not answering leaves the payment pending, and the notification is answered with an error to be sent again', async () => {
    payriff.control.set({ statusMode: '5xx' });
    const { user, topUp, orderId } = await started(3_000_000);
    await complete(orderId);
    expect(payriff.control.order(orderId)?.callbacks.map((c) => c.httpStatus)).toEqual([502]);
    expect((await paymentOf(topUp.reference)).status).toBe('pending');
    payriff.control.set({ statusMode: 'normal' });
    await payriff.control.sendCallback(orderId);
    expect(await balanceOf(user.id)).toBe(3_000_000);
  });
});
