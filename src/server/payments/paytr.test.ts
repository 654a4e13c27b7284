/**
 * Top-ups through PayTR end to end: the app over real HTTP, the PayTR sandbox posting its hashed
 * notifications to /api/payments/callback/paytr, settlement confirmed by the status inquiry.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { startSandboxPaytr, TEST_CARDS, type SandboxPaytr } from '../../../sandbox/paytr';
import { topUpResultSchema } from '../../core/contracts/payments';
import { post, signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { ledgerEntries, payments, users } from '../db/schema';
import { createGateway, gatewayRegistry, paytrNotificationHash } from '../gateways';
import { createLogger } from '../logger';
import { createTestApp, serveOverHttp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { verifyLedger } from '../wallet/ledger';
import { ensurePaymentMethods } from './methods';
import { reconcilePayments, type PaymentsDeps } from './service';

let database: Database;
let epointSandbox: SandboxGateway;
let paytr: SandboxPaytr;
let app: Hono;
let server: Awaited<ReturnType<typeof serveOverHttp>>;
let deps: PaymentsDeps;
let notificationUrl: string;

beforeAll(async () => {
  database = await createTestDatabase();
  epointSandbox = await startSandboxGateway({});
  // A delayed card is authorised after 3 s: long enough for a busy machine to read it still pending.
  paytr = await startSandboxPaytr({ delayMs: 3_000, retryDelaysMs: [100, 200, 400, 800, 1600] });
  const gateways = gatewayRegistry({
    epoint: createGateway({ kind: 'sandbox', baseUrl: epointSandbox.url, publicKey: epointSandbox.publicKey, privateKey: epointSandbox.privateKey }),
    paytr: createGateway({ kind: 'paytr', baseUrl: paytr.origin, merchantId: paytr.merchantId, merchantKey: paytr.merchantKey, merchantSalt: paytr.merchantSalt, testMode: true }),
  });
  ({ app } = await createTestApp(database, { gateways }));
  await ensurePaymentMethods(database.db, ['epoint', 'paytr']);
  // PayTR posts its notifications to this app over real HTTP (the URL of PayTR's merchant panel).
  server = await serveOverHttp(app);
  notificationUrl = `${server.url}/api/payments/callback/paytr`;
  paytr.setCallbackUrl(notificationUrl);
  deps = { db: database.db, gateways, logger: createLogger('silent'), publicUrl: 'http://localhost:3000' };
});
afterEach(async () => {
  await paytr.control.idle();
  paytr.control.reset();
});
afterAll(async () => {
  await server.close();
  await paytr.close();
  await epointSandbox.close();
  await database.close();
});

const balanceOf = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!.balanceMicros;
const paymentOf = async (reference: string) => (await database.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;
const topupsOf = async (userId: string) => (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId))).filter((e) => e.kind === 'topup');

/** Waits (polling) until `check` holds or 100 rounds have passed; the assertion after it says what was expected. */
async function until(check: () => Promise<boolean> | boolean) {
  for (let i = 0; i < 100 && !(await check()); i++) await sleep(50);
}

/** A customer starts a PayTR top-up through the API; the order as the sandbox holds it. */
async function startPaytrTopUp(amountMicros = 10_100_000) {
  const customer = await signUpUser(app);
  const res = await post(app, '/api/payments/topup', { amountMicros, method: 'paytr', language: 'tr' }, { cookie: customer.cookie });
  expect(res.status).toBe(201);
  const result = topUpResultSchema.parse(await res.json());
  const started = { ...result, paymentUrl: result.paymentUrl! };
  expect(started.paymentUrl).toMatch(/\/odeme\/guvenli\//);
  const row = await paymentOf(started.reference);
  return { customer, started, row, oid: row.transactionId! };
}

const payByCard = (paymentUrl: string, number: string) =>
  fetch(paymentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ cc_owner: 'Test Müşteri', cc_number: number, expiry: '12/39', cvv: '000', action: 'card' }) });

const answersOf = (oid: string) => paytr.control.order(oid)!.notifications.map((n) => [n.httpStatus, n.answer]);

describe('a top-up through PayTR', () => {
  it('charges lira at the rate in force, is paid on the PayTR page and credited once from the notification, which is answered OK', async () => {
    const { customer, started, row, oid } = await startPaytrTopUp(10_100_000);
    // 10.10 USD × 42 TRY = 424.20 TL, sent as 42420 kuruş under our reference without hyphens.
    expect(started).toMatchObject({ amountMinor: 42_420, currency: 'TRY' });
    expect(row).toMatchObject({ method: 'paytr', provider: 'paytr', currency: 'TRY', amountMinor: 42_420, status: 'pending' });
    expect(oid).toBe(started.reference.replaceAll('-', ''));
    expect(paytr.control.order(oid)).toMatchObject({ amountKurus: 42_420, currency: 'TL', lang: 'tr' });
    // Who pays: the profile's name and e-mail; no address or phone is kept, so PayTR gets the placeholder.
    expect(paytr.control.order(oid)).toMatchObject({ userName: customer.name, email: customer.email, userAddress: '-', userPhone: '-' });
    expect(await (await fetch(started.paymentUrl)).text()).toContain('424,20 TL');

    const res = await payByCard(started.paymentUrl, TEST_CARDS.success);
    expect(res.headers.get('location')).toBe(`http://localhost:3000/payment-success?order=${encodeURIComponent(started.reference)}`);
    await paytr.control.idle();
    expect(answersOf(oid)).toEqual([[200, 'OK']]);
    expect(await paymentOf(started.reference)).toMatchObject({ status: 'completed', flagged: false });
    expect(await balanceOf(customer.id)).toBe(10_100_000);
    expect(await topupsOf(customer.id)).toHaveLength(1);
    const check = await app.request(`/api/payments/${started.reference}`, { headers: { cookie: customer.cookie } });
    expect(await check.json()).toMatchObject({ status: 'completed', currency: 'TRY', amountMinor: 42_420, method: 'paytr' });
  });

  it('EFT / Havale credits the same way', async () => {
    const { customer, started } = await startPaytrTopUp(5_000_000);
    await fetch(started.paymentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ action: 'eft' }) });
    await paytr.control.idle();
    expect(await balanceOf(customer.id)).toBe(5_000_000);
  });

  it('a repeated notification, also many copies at once and sent again later, credits once', async () => {
    paytr.control.set({ notify: 'duplicate', duplicates: 6 });
    const { customer, oid } = await startPaytrTopUp(7_000_000);
    paytr.control.complete(oid, 'success');
    await paytr.control.idle();
    expect(answersOf(oid)).toEqual(Array.from({ length: 6 }, () => [200, 'OK']));
    await paytr.control.notify(oid, { mode: 'normal' });
    expect(await balanceOf(customer.id)).toBe(7_000_000);
    expect(await topupsOf(customer.id)).toHaveLength(1);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  for (const mode of ['tamper-amount', 'tamper-currency'] as const) {
    it(`a correctly hashed notification with a ${mode.replace('tamper-', 'changed ')} is flagged and never credited`, async () => {
      paytr.control.set({ notify: mode });
      const { customer, started, oid } = await startPaytrTopUp(6_000_000);
      paytr.control.complete(oid, 'success');
      await paytr.control.idle();
      const row = await paymentOf(started.reference);
      expect(row.flagged).toBe(true);
      expect(row.flagReason).toMatch(mode === 'tamper-amount' ? /amount/ : /currency/);
      expect(row.status).not.toBe('completed');
      expect(await balanceOf(customer.id)).toBe(0);
      // Later checks never credit a flagged payment.
      await reconcilePayments(deps, new Date(Date.now() + 3_600_000));
      expect(await balanceOf(customer.id)).toBe(0);
    });
  }

  it('a notification with a wrong hash is refused (no OK, so PayTR keeps trying) and credits nothing', async () => {
    paytr.control.set({ notify: 'bad-hash' });
    const { customer, started, oid } = await startPaytrTopUp(4_000_000);
    paytr.control.complete(oid, 'success');
    await paytr.control.idle();
    const answers = answersOf(oid);
    expect(answers).toHaveLength(6);
    expect(answers.every(([status, answer]) => status === 400 && answer !== 'OK')).toBe(true);
    expect((await paymentOf(started.reference)).status).toBe('pending');
    expect(await balanceOf(customer.id)).toBe(0);
  });

  it('a forged notification for a payment PayTR says is unpaid credits nothing, hashed or not', async () => {
    const { customer, started, oid } = await startPaytrTopUp(3_000_000);
    const fields = { merchant_oid: oid, status: 'success', total_amount: '12600', payment_amount: '12600', currency: 'TL', payment_type: 'card', test_mode: '1' };
    const send = (body: Record<string, string>) => fetch(notificationUrl, { method: 'POST', body: new URLSearchParams(body) });
    const unsigned = await send(fields);
    expect(unsigned.status).toBe(400);
    expect((await unsigned.json()).error.code).toBe('SIGNATURE_INVALID');
    const wrongKey = await send({ ...fields, hash: paytrNotificationHash(fields, 'guessed-key', paytr.merchantSalt) });
    expect(wrongKey.status).toBe(400);
    // Even hashed with the right keys, a notification is only a hint: the status inquiry says unpaid.
    const hashed = await send({ ...fields, hash: paytrNotificationHash(fields, paytr.merchantKey, paytr.merchantSalt) });
    expect(hashed.status).toBe(200);
    expect(await paymentOf(started.reference)).toMatchObject({ status: 'pending', flagged: false });
    expect(await balanceOf(customer.id)).toBe(0);
  });

  it('a declined card closes the payment failed, with PayTR’s reason, and credits nothing', async () => {
    const { customer, started } = await startPaytrTopUp(9_000_000);
    const res = await payByCard(started.paymentUrl, TEST_CARDS.declined);
    expect(res.headers.get('location')).toBe(`http://localhost:3000/payment-error?order=${encodeURIComponent(started.reference)}`);
    await paytr.control.idle();
    expect(await paymentOf(started.reference)).toMatchObject({ status: 'failed', flagged: false, gatewayCode: '0', gatewayMessage: 'Kart limiti / bakiyesi yetersiz' });
    expect(await balanceOf(customer.id)).toBe(0);
  });

  it('a missed notification is settled by reconciliation', async () => {
    paytr.control.set({ notify: 'none' });
    const { customer, started, oid } = await startPaytrTopUp(12_000_000);
    paytr.control.complete(oid, 'success');
    await paytr.control.idle();
    expect((await paymentOf(started.reference)).status).toBe('pending');
    await reconcilePayments(deps, new Date(Date.now() + 5 * 60_000));
    expect((await paymentOf(started.reference)).status).toBe('completed');
    expect(await balanceOf(customer.id)).toBe(12_000_000);
  });

  it('a notification that cannot be applied yet (the status inquiry fails) is not answered OK; PayTR’s retry is applied once', async () => {
    paytr.control.set({ statusMode: '5xx' });
    const { customer, started, oid } = await startPaytrTopUp(8_000_000);
    paytr.control.complete(oid, 'success');
    await until(() => (paytr.control.order(oid)?.notifications.length ?? 0) >= 1);
    expect(answersOf(oid)[0]![0]).toBe(502);
    expect(await balanceOf(customer.id)).toBe(0);
    paytr.control.set({ statusMode: 'normal' });
    await paytr.control.idle();
    const answers = answersOf(oid);
    expect(answers.at(-1)).toEqual([200, 'OK']);
    expect(answers.slice(0, -1).every(([status]) => status === 502)).toBe(true);
    expect((await paymentOf(started.reference)).status).toBe('completed');
    expect(await balanceOf(customer.id)).toBe(8_000_000);
    expect(await topupsOf(customer.id)).toHaveLength(1);
  });

  it('a card that takes a while: the return page sees it pending, then completed once the notification comes', async () => {
    const { customer, started } = await startPaytrTopUp(2_000_000);
    await payByCard(started.paymentUrl, TEST_CARDS.delayed);
    const early = await app.request(`/api/payments/${started.reference}`, { headers: { cookie: customer.cookie } });
    expect((await early.json()).status).toBe('pending');
    await paytr.control.idle();
    expect((await paymentOf(started.reference)).status).toBe('completed');
    expect(await balanceOf(customer.id)).toBe(2_000_000);
  });
});
