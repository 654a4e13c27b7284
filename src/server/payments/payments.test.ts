import { eq } from 'drizzle-orm';
import { gatewayRegistry } from '../gateways';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { startCallbackSink } from '../../../sandbox/gateway/testing';
import { AppError } from '../../core/errors';
import type { Database } from '../db/client';
import { ledgerEntries, payments, users } from '../db/schema';
import { createGateway } from '../gateways';
import { epointEncode, epointSign } from '../gateways/epoint';
import { createLogger } from '../logger';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import { checkPayment, handleCallback, listPayments, reconcilePayments, settle, startTopUp, type PaymentsDeps } from './service';

let database: Database;
let gw: SandboxGateway;
let sink: Awaited<ReturnType<typeof startCallbackSink>>;
let deps: PaymentsDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  sink = await startCallbackSink();
  gw = await startSandboxGateway({ callbackUrl: sink.url, delayMs: 300, retryDelaysMs: [] } as never);
  deps = {
    db: database.db,
    gateways: gatewayRegistry({ epoint: createGateway({ kind: 'sandbox', baseUrl: gw.url, publicKey: gw.publicKey, privateKey: gw.privateKey }) }),
    logger: createLogger('silent'),
    publicUrl: 'http://localhost:3000',
  };
});
afterEach(async () => {
  await gw.control.idle();
  gw.control.reset();
  sink.clear();
});
afterAll(async () => {
  await gw.close();
  await sink.close();
  await database.close();
});

const balanceOf = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!.balanceMicros;
const paymentOf = async (reference: string) => (await database.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;
const txOf = async (reference: string) => (await paymentOf(reference)).transactionId!;
const codeOf = async (p: Promise<unknown>) => p.then(() => 'ok', (e) => (e instanceof AppError ? e.code : String(e)));

async function paidTopUp(amountMicros = 10_000_000) {
  const user = await createCustomer(database.db);
  const started = await startTopUp(deps, user, { amountMicros });
  const tx = await txOf(started.reference);
  gw.control.complete(tx, 'success');
  const [callback] = await sink.waitFor(1);
  return { user, started, tx, callback: callback! };
}

describe('top-up creation', () => {
  it('writes the payment first, converts USD to AZN exactly, and returns the card page', async () => {
    const user = await createCustomer(database.db);
    const started = await startTopUp(deps, user, { amountMicros: 10_100_000 });
    expect(started.amountMinor).toBe(1717); // 10.10 USD × 1.7 = 17.17 AZN
    expect(started.reference).toMatch(/^balance-/);
    const row = await paymentOf(started.reference);
    expect(row).toMatchObject({ status: 'pending', amountUsdMicros: 10_100_000, amountMinor: 1717, rate: '1.7', currency: 'AZN', provider: 'sandbox' });
    const page = await fetch(started.paymentUrl!);
    expect(await page.text()).toContain('17.17');
  });

  it('describes the payment on the card page in the customer’s language', async () => {
    const user = await createCustomer(database.db);
    const cases = [
      ['az', 'Balansın artırılması: 10,10 USD'],
      ['tr', 'Bakiye yükleme: 10,10 USD'],
      ['en', 'Balance top-up: 10.10 USD'],
    ] as const;
    for (const [language, description] of cases) {
      const started = await startTopUp(deps, user, { amountMicros: 10_100_000, language });
      const html = await (await fetch(started.paymentUrl!)).text();
      expect(html, language).toContain(description);
    }
  });

  it('refuses amounts under 1 USD, and amounts that are not whole cents', async () => {
    const user = await createCustomer(database.db);
    expect(await codeOf(startTopUp(deps, user, { amountMicros: 990_000 }))).not.toBe('ok');
    expect(await codeOf(startTopUp(deps, user, { amountMicros: 25_000_001 }))).not.toBe('ok');
    expect(await codeOf(startTopUp(deps, user, { amountMicros: 25_005_000 }))).not.toBe('ok');
  });

  it('charges a top-up of $25.00 as 42.50 AZN and credits exactly 25 000 000 micro-dollars', async () => {
    const { user, callback } = await paidTopUp(25_000_000);
    await handleCallback(deps, 'epoint', callback);
    const [row] = await database.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(row).toMatchObject({ status: 'completed', amountUsdMicros: 25_000_000, amountMinor: 4250 });
    expect(await balanceOf(user.id)).toBe(25_000_000);
    const [entry] = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id));
    expect(entry).toMatchObject({ kind: 'topup', amountMicros: 25_000_000, reference: row!.id });
  });
});

describe('settlement', () => {
  it('a signed callback credits once; replayed 50 times, also concurrently, it still credits once', async () => {
    const { user, callback } = await paidTopUp(10_000_000);
    await handleCallback(deps, 'epoint', callback);
    expect(await balanceOf(user.id)).toBe(10_000_000);
    for (let i = 0; i < 25; i++) await handleCallback(deps, 'epoint', callback);
    await Promise.all(Array.from({ length: 25 }, () => handleCallback(deps, 'epoint', callback)));
    expect(await balanceOf(user.id)).toBe(10_000_000);
    const entries = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id));
    expect(entries).toHaveLength(1);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('a forged signature is refused and credits nothing', async () => {
    const { user, callback } = await paidTopUp(5_000_000);
    const forged = { data: callback.data, signature: epointSign('not-the-key', callback.data!) };
    expect(await codeOf(handleCallback(deps, 'epoint', forged))).toBe('SIGNATURE_INVALID');
    expect(await codeOf(handleCallback(deps, 'epoint', { data: callback.data }))).toBe('SIGNATURE_INVALID');
    expect(await balanceOf(user.id)).toBe(0);
  });

  for (const mode of ['tamper-amount', 'tamper-currency'] as const) {
    it(`a correctly signed callback with a ${mode.replace('tamper-', 'changed ')} is not credited and is flagged`, async () => {
      const user = await createCustomer(database.db);
      const started = await startTopUp(deps, user, { amountMicros: 7_000_000 });
      const tx = await txOf(started.reference);
      gw.control.set({ callback: mode });
      gw.control.complete(tx, 'success');
      const [callback] = await sink.waitFor(1);
      await handleCallback(deps, 'epoint', callback!);
      const row = await paymentOf(started.reference);
      expect(row.flagged).toBe(true);
      expect(row.status).not.toBe('completed');
      expect(await balanceOf(user.id)).toBe(0);
      // Later checks never credit a flagged payment.
      await reconcilePayments(deps, new Date(Date.now() + 3_600_000));
      expect(await balanceOf(user.id)).toBe(0);
    });
  }

  it('a callback signed for a made-up amount of our own payment is caught by the amount check', async () => {
    const user = await createCustomer(database.db);
    const started = await startTopUp(deps, user, { amountMicros: 3_000_000 });
    const tx = await txOf(started.reference);
    gw.control.complete(tx, 'success');
    await sink.waitFor(1);
    const data = epointEncode({ status: 'success', transaction: tx, order_id: started.reference, amount: '999.00', code: '000' });
    await handleCallback(deps, 'epoint', { data, signature: epointSign(gw.privateKey, data) });
    expect((await paymentOf(started.reference)).flagged).toBe(true);
    expect(await balanceOf(user.id)).toBe(0);
  });

  it('the return page with a made-up reference finds nothing and credits nothing', async () => {
    const user = await createCustomer(database.db);
    expect(await codeOf(checkPayment(deps, user.id, 'balance-made-up'))).toBe('PAYMENT_NOT_FOUND');
    expect(await balanceOf(user.id)).toBe(0);
  });

  it('the return page before payment credits nothing; callback and return page racing credit once', async () => {
    const user = await createCustomer(database.db);
    const started = await startTopUp(deps, user, { amountMicros: 25_000_000 });
    expect((await checkPayment(deps, user.id, started.reference)).status).toBe('pending');
    expect(await balanceOf(user.id)).toBe(0);
    const tx = await txOf(started.reference);
    gw.control.complete(tx, 'success');
    const [callback] = await sink.waitFor(1);
    await Promise.all([
      handleCallback(deps, 'epoint', callback!),
      checkPayment(deps, user.id, started.reference),
      handleCallback(deps, 'epoint', callback!),
      checkPayment(deps, user.id, started.reference),
    ]);
    expect(await balanceOf(user.id)).toBe(25_000_000);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('a declined card fails the payment and credits nothing', async () => {
    const user = await createCustomer(database.db);
    const started = await startTopUp(deps, user, { amountMicros: 10_000_000 });
    gw.control.complete(await txOf(started.reference), 'declined');
    const [callback] = await sink.waitFor(1);
    await handleCallback(deps, 'epoint', callback!);
    expect((await paymentOf(started.reference)).status).toBe('failed');
    expect(await balanceOf(user.id)).toBe(0);
  });

  it('a payment that never gets a callback is settled by reconciliation; abandoned ones expire', async () => {
    gw.control.set({ callback: 'none' });
    const user = await createCustomer(database.db);
    const paid = await startTopUp(deps, user, { amountMicros: 12_000_000 });
    const abandoned = await startTopUp(deps, user, { amountMicros: 8_000_000 });
    gw.control.complete(await txOf(paid.reference), 'success');
    await reconcilePayments(deps, new Date(Date.now() + 5 * 60_000));
    expect((await paymentOf(paid.reference)).status).toBe('completed');
    expect((await paymentOf(abandoned.reference)).status).toBe('pending');
    expect(await balanceOf(user.id)).toBe(12_000_000);
    await reconcilePayments(deps, new Date(Date.now() + 25 * 3_600_000));
    expect((await paymentOf(abandoned.reference)).status).toBe('cancelled');
    expect(await balanceOf(user.id)).toBe(12_000_000);
  });

  it('a gateway without a usable status answer leaves the payment pending', async () => {
    const user = await createCustomer(database.db);
    const started = await startTopUp(deps, user, { amountMicros: 4_000_000 });
    gw.control.complete(await txOf(started.reference), 'success');
    gw.control.set({ statusMode: '5xx' });
    expect((await checkPayment(deps, user.id, started.reference)).status).toBe('pending');
    expect(await balanceOf(user.id)).toBe(0);
    gw.control.set({ statusMode: 'normal' });
    await settle(deps, (await paymentOf(started.reference)).id);
    expect(await balanceOf(user.id)).toBe(4_000_000);
  });
});

describe('ownership', () => {
  it('customer A cannot see or settle B’s payments', async () => {
    const a = await createCustomer(database.db);
    const b = await createCustomer(database.db);
    const started = await startTopUp(deps, b, { amountMicros: 6_000_000 });
    expect(await codeOf(checkPayment(deps, a.id, started.reference))).toBe('PAYMENT_NOT_FOUND');
    expect((await listPayments(database.db, a.id)).some((p) => p.reference === started.reference)).toBe(false);
    expect((await listPayments(database.db, b.id)).map((p) => p.reference)).toContain(started.reference);
  });
});
