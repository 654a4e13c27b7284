import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topUpResultSchema } from '../../core/contracts/payments';
import { AppError } from '../../core/errors';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { auditLog, ledgerEntries, paymentMethods, payments, users } from '../db/schema';
import { gatewayRegistry } from '../gateways';
import { createLogger } from '../logger';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { verifyLedger } from '../wallet/ledger';
import { RECEIPT_MAX_BYTES, receiptType, reviewBankTransfer } from './bank';
import { ensurePaymentMethods } from './methods';
import { reconcilePayments } from './service';

let database: Database;
let app: Hono;
let admin: string;
let adminId: string;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR receipt pixels')]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF');
const DETAILS = { az: 'Kapital Bank\nIBAN AZ21 NABZ 0000 0000 1370 1000 1944\nArtım MMC', tr: 'Kapital Bank\nIBAN AZ21 NABZ 0000 0000 1370 1000 1944', en: 'Kapital Bank\nIBAN AZ21 NABZ 0000 0000 1370 1000 1944' };

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await createTestApp(database, { gateways: gatewayRegistry({}) }));
  await ensurePaymentMethods(database.db, ['bank']);
  await database.db.update(paymentMethods).set({ details: DETAILS, minMicros: 10_000_000 }).where(eq(paymentMethods.kind, 'bank'));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  adminId = (await (await app.request('/api/me', { headers: { cookie: admin } })).json()).user.id;
}, 120_000);
afterAll(async () => {
  await database.close();
});

const balanceOf = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!.balanceMicros;
const paymentOf = async (reference: string) => (await database.db.select().from(payments).where(eq(payments.reference, reference)))[0]!;
const upload = (cookie: string, reference: string, bytes: Buffer, name = 'receipt.png', type = 'image/png') => {
  const form = new FormData();
  form.append('receipt', new File([new Uint8Array(bytes)], name, { type }));
  return app.request(`/api/payments/${reference}/receipt`, { method: 'POST', headers: { origin: TEST_ORIGIN, cookie }, body: form });
};
const review = (id: string, body: unknown, cookie = admin) =>
  app.request(`/api/admin/payments/${id}/review`, { method: 'POST', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });

async function transfer(amountMicros = 20_000_000) {
  const customer = await signUpUser(app);
  const res = await post(app, '/api/payments/topup', { amountMicros, method: 'bank', language: 'az' }, { cookie: customer.cookie });
  expect(res.status).toBe(201);
  const started = topUpResultSchema.parse(await res.json());
  return { customer, started, payment: await paymentOf(started.reference) };
}

describe('receipt types', () => {
  it('are read from the content, never from a name or a declared type', () => {
    expect(receiptType(PNG)).toBe('image/png');
    expect(receiptType(PDF)).toBe('application/pdf');
    expect(receiptType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(receiptType(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(receiptType(Buffer.from('<svg onload="alert(1)"/>'))).toBeNull();
    expect(receiptType(Buffer.from('GIF89a'))).toBeNull();
    expect(receiptType(Buffer.alloc(0))).toBeNull();
  });
});

describe('bank transfer with proof', () => {
  it('from the account details and reference to the receipt and one approval that credits once', async () => {
    const { customer, started, payment } = await transfer(20_000_000);
    // 20 USD at 1.7: 34.00 AZN to transfer, the shop's account in the customer's language.
    expect(started).toMatchObject({ paymentUrl: null, amountMinor: 3400, currency: 'AZN', bankDetails: DETAILS.az });
    expect(payment).toMatchObject({ method: 'bank', provider: 'bank', status: 'pending', transactionId: null });

    const sent = await upload(customer.cookie, started.reference, PNG);
    expect(sent.status).toBe(201);
    expect(await sent.json()).toEqual({ contentType: 'image/png', size: PNG.length });

    const list = await (await app.request(`/api/admin/payments?q=${encodeURIComponent(customer.email)}`, { headers: { cookie: admin } })).json();
    expect(list.payments[0]).toMatchObject({ kind: 'bank', status: 'pending', receipt: { contentType: 'image/png', size: PNG.length }, review: null });

    const file = await app.request(`/api/admin/payments/${payment.id}/receipt`, { headers: { cookie: admin } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    // Served under the site's policy: no script of its own, no plugin, not framed.
    expect(file.headers.get('content-security-policy')).toMatch(/object-src 'none'.*frame-ancestors 'none'/);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
    // Only the team sees receipts, the customer included.
    expect((await app.request(`/api/admin/payments/${payment.id}/receipt`, { headers: { cookie: customer.cookie } })).status).toBe(403);
    expect((await app.request(`/api/admin/payments/${payment.id}/receipt`)).status).toBe(401);

    const approved = await review(payment.id, { approve: true });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toEqual({ paymentId: payment.id, status: 'completed', balanceMicros: 20_000_000 });
    expect(await balanceOf(customer.id)).toBe(20_000_000);
    const again = await review(payment.id, { approve: true });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('PAYMENT_ALREADY_SETTLED');
    expect(await balanceOf(customer.id)).toBe(20_000_000);
    // A receipt cannot be replaced once reviewed.
    expect((await upload(customer.cookie, started.reference, PDF, 'r.pdf', 'application/pdf')).status).toBe(409);
    expect(await paymentOf(started.reference)).toMatchObject({ status: 'completed', reviewedBy: adminId });
    const [logged] = await database.db.select().from(auditLog).where(eq(auditLog.targetId, payment.id));
    expect(logged).toMatchObject({ action: 'payment.bank_approve', details: { userId: customer.id, amountMicros: 20_000_000 } });
    const own = await (await app.request('/api/payments', { headers: { cookie: customer.cookie } })).json();
    expect(own.payments[0]).toMatchObject({ reference: started.reference, status: 'completed', method: 'bank', currency: 'AZN', amountMinor: 3400 });
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('checks the receipt by its content and size, and only on the customer’s own pending transfer', async () => {
    const { customer, started } = await transfer();
    const script = await upload(customer.cookie, started.reference, Buffer.from('<script>alert(1)</script>'), 'receipt.png', 'image/png');
    expect(script.status).toBe(422);
    expect((await script.json()).error.code).toBe('RECEIPT_INVALID');
    const big = await upload(customer.cookie, started.reference, Buffer.concat([PNG, Buffer.alloc(RECEIPT_MAX_BYTES)]));
    expect(big.status).toBe(413);
    const other = await signUpUser(app);
    expect((await upload(other.cookie, started.reference, PNG)).status).toBe(404);
    // A PDF named like an image is taken as the PDF it is.
    const pdf = await upload(customer.cookie, started.reference, PDF, 'photo.jpg', 'image/jpeg');
    expect(await pdf.json()).toEqual({ contentType: 'application/pdf', size: PDF.length });
  });

  it('a rejection tells the customer why and moves no money; a transfer without a receipt cannot be reviewed', async () => {
    const { customer, started, payment } = await transfer();
    const early = await review(payment.id, { approve: true });
    expect(early.status).toBe(409);
    expect((await early.json()).error.code).toBe('RECEIPT_MISSING');
    await upload(customer.cookie, started.reference, PNG);
    expect((await review(payment.id, { approve: false, reason: '' })).status).toBe(422);
    expect((await review(payment.id, { approve: true }, customer.cookie)).status).toBe(403);
    const rejected = await review(payment.id, { approve: false, reason: 'No transfer with this reference arrived' });
    expect(await rejected.json()).toMatchObject({ status: 'failed', balanceMicros: null });
    expect(await paymentOf(started.reference)).toMatchObject({ status: 'failed', reviewNote: 'No transfer with this reference arrived' });
    expect(await balanceOf(customer.id)).toBe(0);
    const status = await (await app.request(`/api/payments/${started.reference}/status`, { headers: { 'x-forwarded-for': '203.0.113.77' } })).json();
    expect(status).toMatchObject({ status: 'failed', gatewayMessage: 'No transfer with this reference arrived' });
  });

  it('two staff approving at the same time credit once', async () => {
    const { customer, started, payment } = await transfer(30_000_000);
    await upload(customer.cookie, started.reference, PNG);
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        reviewBankTransfer({ db: database.db }, payment.id, { id: adminId, email: `staff${i}@test.local` }, { approve: true }).then(
          () => 'credited',
          (e) => (e instanceof AppError ? e.code : String(e)),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'credited')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'credited').every((o) => o === 'PAYMENT_ALREADY_SETTLED')).toBe(true);
    expect(await balanceOf(customer.id)).toBe(30_000_000);
    expect(await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.reference, payment.id))).toHaveLength(1);
  });

  it('waits for the team, not for a gateway: reconciliation leaves a transfer alone however old', async () => {
    const { started } = await transfer();
    const later = new Date(Date.now() + 3 * 24 * 3_600_000);
    await reconcilePayments({ db: database.db, gateways: gatewayRegistry({}), logger: createLogger('silent'), publicUrl: 'http://localhost:3000' }, later);
    expect((await paymentOf(started.reference)).status).toBe('pending');
  });
});
