import { and, eq, exists, sql } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import { RECEIPT_MAX_BYTES } from '../../core/paymentMethods';
import type { Db, Tx } from '../db/client';
import { paymentReceipts, payments } from '../db/schema';
import type { RealtimeHub } from '../realtime';
import { creditedByTopUp, creditTopUp } from './bonuses';

export { RECEIPT_MAX_BYTES };
/** The path a receipt is uploaded to (its body limit is the receipt's, not the API's). */
export const RECEIPT_PATH = /^\/api\/payments\/[^/]+\/receipt$/;

/** What a receipt may be, told by its first bytes (never by its name or the browser's word). */
const SIGNATURES: { type: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'application/pdf', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
];

/** The type of a receipt read from its content, or null when it is none of PNG, JPEG, WebP and PDF. */
export function receiptType(bytes: Buffer): string | null {
  return SIGNATURES.find((s) => s.test(bytes))?.type ?? null;
}

type PaymentRow = typeof payments.$inferSelect;

/**
 * A customer's receipt for their own bank transfer still waiting for the team: its type read from
 * its content, its size checked; a receipt sent again before the review replaces the first.
 */
export async function attachReceipt(db: Db, userId: string, reference: string, bytes: Buffer): Promise<{ contentType: string; size: number }> {
  if (bytes.length === 0) throw new AppError('RECEIPT_INVALID', 'Qəbz faylı boşdur');
  if (bytes.length > RECEIPT_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'Qəbz faylı çox böyükdür', { maxBytes: RECEIPT_MAX_BYTES });
  const contentType = receiptType(bytes);
  if (!contentType) throw new AppError('RECEIPT_INVALID', 'Qəbz şəkil (PNG, JPEG, WebP) və ya PDF olmalıdır');
  return db.transaction(async (tx) => {
    const [p] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.reference, reference), eq(payments.userId, userId), eq(payments.method, 'bank')))
      .for('update');
    if (!p) throw new AppError('PAYMENT_NOT_FOUND', 'Ödəniş məlumatları tapılmadı');
    if (p.status !== 'pending') throw new AppError('PAYMENT_ALREADY_SETTLED', 'Bu ödəniş artıq baxılıb');
    await tx
      .insert(paymentReceipts)
      .values({ paymentId: p.id, contentType, size: bytes.length, data: bytes })
      .onConflictDoUpdate({ target: paymentReceipts.paymentId, set: { contentType, size: bytes.length, data: bytes, uploadedAt: sql`now()` } });
    await tx.update(payments).set({ updatedAt: new Date() }).where(eq(payments.id, p.id));
    return { contentType, size: bytes.length };
  });
}

/** A receipt for the team: its bytes and type; PAYMENT_NOT_FOUND when the payment has none. */
export async function receiptOf(db: Db, paymentId: string) {
  const [r] = await db.select().from(paymentReceipts).where(eq(paymentReceipts.paymentId, paymentId));
  if (!r) throw new AppError('PAYMENT_NOT_FOUND', 'This payment has no receipt.');
  return r;
}

export type BankReview = { approve: true } | { approve: false; reason: string };

/** Who of the team reviews a transfer. */
export interface Reviewer {
  id: string;
  email: string;
}

/**
 * The team approves or rejects a bank transfer with its receipt (docs/rules.md#bank-transfers),
 * in one transaction that starts by claiming the payment with a conditional UPDATE (still pending,
 * a bank transfer, a receipt uploaded): of two staff members at once, one reviews it and the
 * other is answered PAYMENT_ALREADY_SETTLED. An approval credits the amount once (the ledger's
 * unique `(topup, payment id)` backs this up); `onReviewed` runs in the same transaction (the
 * audit log). The customer's open pages are told after the commit.
 */
export async function reviewBankTransfer(
  deps: { db: Db; realtime?: RealtimeHub },
  paymentId: string,
  by: Reviewer,
  review: BankReview,
  onReviewed?: (tx: Tx, p: PaymentRow) => Promise<void>,
): Promise<{ payment: PaymentRow; balanceMicros: number | null }> {
  const result = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(payments)
      .set({
        status: review.approve ? 'completed' : 'failed',
        reviewedBy: by.id,
        reviewedAt: now,
        reviewNote: review.approve ? null : review.reason,
        gatewayMessage: review.approve ? null : review.reason,
        settledAt: now,
        updatedAt: now,
      })
      .where(
        and(
          eq(payments.id, paymentId),
          eq(payments.method, 'bank'),
          eq(payments.status, 'pending'),
          eq(payments.flagged, false),
          exists(tx.select({ one: sql`1` }).from(paymentReceipts).where(eq(paymentReceipts.paymentId, payments.id))),
        ),
      )
      .returning();
    if (!row) {
      const [p] = await tx.select().from(payments).where(eq(payments.id, paymentId));
      if (!p || p.method !== 'bank') throw new AppError('PAYMENT_NOT_FOUND', 'No such bank transfer.');
      if (p.status !== 'pending') throw new AppError('PAYMENT_ALREADY_SETTLED', 'This transfer was already reviewed.', { status: p.status });
      throw new AppError('RECEIPT_MISSING', 'The customer has not uploaded a receipt yet.');
    }
    const balanceMicros = review.approve ? (await creditTopUp(tx, row)).balanceMicros : null;
    await onReviewed?.(tx, row);
    return { payment: row, balanceMicros };
  });
  const { payment, balanceMicros } = result;
  await deps.realtime?.publish(payment.userId, { type: 'payment', paymentId: payment.id, status: payment.status }).catch(() => {});
  if (balanceMicros !== null) {
    await deps.realtime?.publish(payment.userId, { type: 'balance', balanceMicros, deltaMicros: creditedByTopUp(payment) }).catch(() => {});
  }
  return result;
}
