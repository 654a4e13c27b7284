import { randomBytes } from 'node:crypto';
import { and, desc, eq, lt } from 'drizzle-orm';
import type { PaymentView, TopUpResult } from '../../core/contracts/payments';
import { topUpInputSchema } from '../../core/contracts/payments';
import { AppError } from '../../core/errors';
import { usdCentsToAznQepik } from '../../core/money';
import type { Db } from '../db/client';
import { payments } from '../db/schema';
import type { GatewayStatus, PaymentGateway } from '../gateways';
import type { Logger } from '../logger';
import type { RealtimeHub } from '../realtime/hub';
import { getSettings } from '../settings/service';
import { credit } from '../wallet/ledger';

export type PaymentRow = typeof payments.$inferSelect;

export interface PaymentsDeps {
  db: Db;
  gateway: PaymentGateway;
  logger: Logger;
  realtime?: RealtimeHub;
  publicUrl: string;
}

export const toPaymentView = (p: PaymentRow): PaymentView => ({
  id: p.id,
  reference: p.reference,
  type: p.type,
  amountUsdCents: p.amountUsdCents,
  amountQepik: p.amountQepik,
  status: p.status,
  provider: p.provider,
  transactionId: p.transactionId,
  createdAt: p.createdAt.toISOString(),
});

const GATEWAY_LANGUAGE = { az: 'az', tr: 'en', en: 'en' } as const;

/**
 * Starts a top-up: the payment row is written first (pending, USD cents, AZN qəpik and the rate
 * used), and only then is the gateway asked for its card page.
 */
export async function startTopUp(deps: PaymentsDeps, user: { id: string; email: string }, body: unknown): Promise<TopUpResult> {
  const input = topUpInputSchema.parse(body);
  const settings = await getSettings(deps.db);
  const rate = String(settings.usd_azn_rate);
  const amountQepik = usdCentsToAznQepik(input.amountCents, rate);
  const reference = `balance-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
  const [payment] = await deps.db
    .insert(payments)
    .values({ reference, userId: user.id, amountUsdCents: input.amountCents, amountQepik, rate, provider: deps.gateway.name })
    .returning();

  const base = deps.publicUrl.replace(/\/$/, '');
  try {
    const created = await deps.gateway.create({
      reference,
      amountQepik,
      currency: 'AZN',
      description: `Balance top-up ${(input.amountCents / 100).toFixed(2)} USD`,
      language: GATEWAY_LANGUAGE[input.language],
      successUrl: `${base}/payment-success?order=${encodeURIComponent(reference)}`,
      errorUrl: `${base}/payment-error?order=${encodeURIComponent(reference)}`,
    });
    await deps.db.update(payments).set({ transactionId: created.transactionId, updatedAt: new Date() }).where(eq(payments.id, payment!.id));
    return { reference, paymentUrl: created.paymentUrl, amountQepik };
  } catch (err) {
    await deps.db
      .update(payments)
      .set({ status: 'failed', gatewayMessage: err instanceof Error ? err.message.slice(0, 500) : 'error', updatedAt: new Date() })
      .where(eq(payments.id, payment!.id));
    if (err instanceof AppError) throw err;
    throw new AppError('PAYMENT_NOT_CREATED', 'Ödəniş yaradılmadı');
  }
}

/** Why a gateway state may not be credited against this payment, or null when it matches. */
function mismatch(p: PaymentRow, s: GatewayStatus): string | null {
  if (s.transactionId && p.transactionId && s.transactionId !== p.transactionId) return `transaction ${s.transactionId} ≠ ${p.transactionId}`;
  if (s.reference !== null && s.reference !== p.reference) return `reference ${s.reference} ≠ ${p.reference}`;
  if (s.amountQepik === null) return 'amount missing';
  if (s.amountQepik !== p.amountQepik) return `amount ${s.amountQepik} ≠ ${p.amountQepik} qəpik`;
  if (s.currency !== null && s.currency.toUpperCase() !== p.currency) return `currency ${s.currency} ≠ ${p.currency}`;
  return null;
}

export interface SettleOptions {
  /** The decoded callback that triggered this, when any: it must agree with the payment too. */
  callback?: GatewayStatus;
}

/**
 * The only place money enters a balance from a card (reference/payments.md, settlement rule).
 * In one transaction with the payment row locked: already settled → nothing; otherwise the
 * status is re-confirmed with the gateway, and only a success with the same amount, currency,
 * reference and transaction credits — once, through a ledger entry unique per payment.
 * A mismatch is never credited; the payment is flagged for an admin.
 */
export async function settle(deps: PaymentsDeps, paymentId: string, opts: SettleOptions = {}): Promise<PaymentRow> {
  const outcome = await deps.db.transaction(async (tx) => {
    const [p] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (!p) throw new AppError('PAYMENT_NOT_FOUND', 'Ödəniş məlumatları tapılmadı');
    if (p.status !== 'pending' || p.flagged || !p.transactionId) return { payment: p, balance: null };

    const flag = async (reason: string) => {
      deps.logger.warn({ payment: p.id, reason }, 'payment flagged');
      const [row] = await tx
        .update(payments)
        .set({ status: 'failed', flagged: true, flagReason: reason, updatedAt: new Date() })
        .where(eq(payments.id, p.id))
        .returning();
      return { payment: row!, balance: null };
    };

    if (opts.callback && opts.callback.state === 'success') {
      const bad = mismatch(p, opts.callback);
      if (bad) return flag(`callback: ${bad}`);
    }
    const status = await deps.gateway.status(p.transactionId);
    if (status.state === 'pending') return { payment: p, balance: null };
    if (status.state === 'failed' || status.state === 'returned') {
      const [row] = await tx
        .update(payments)
        .set({ status: status.state === 'failed' ? 'failed' : 'cancelled', gatewayMessage: status.message, updatedAt: new Date(), settledAt: new Date() })
        .where(eq(payments.id, p.id))
        .returning();
      return { payment: row!, balance: null };
    }
    const bad = mismatch(p, status);
    if (bad) return flag(`status: ${bad}`);
    const balance = await credit(tx, { userId: p.userId, amountCents: p.amountUsdCents, kind: 'topup', reference: p.id });
    const [row] = await tx
      .update(payments)
      .set({ status: 'completed', gatewayMessage: status.message, updatedAt: new Date(), settledAt: new Date() })
      .where(eq(payments.id, p.id))
      .returning();
    return { payment: row!, balance };
  });
  if (outcome.payment.status !== 'pending') {
    await deps.realtime?.publish(outcome.payment.userId, { type: 'payment', paymentId: outcome.payment.id, status: outcome.payment.status }).catch(() => {});
  }
  if (outcome.balance !== null) {
    await deps.realtime
      ?.publish(outcome.payment.userId, { type: 'balance', balanceCents: outcome.balance, deltaCents: outcome.payment.amountUsdCents })
      .catch(() => {});
  }
  return outcome.payment;
}

/** Handles a gateway callback: signature checked in constant time over the raw data, then settle(). */
export async function handleCallback(deps: PaymentsDeps, form: { data?: string; signature?: string }): Promise<PaymentRow | null> {
  const status = deps.gateway.parseCallback(form);
  const where = status.transactionId
    ? eq(payments.transactionId, status.transactionId)
    : status.reference
      ? eq(payments.reference, status.reference)
      : null;
  if (!where) return null;
  const [p] = await deps.db.select().from(payments).where(where).limit(1);
  if (!p) return null;
  return settle(deps, p.id, { callback: status });
}

/** The owner's view of one payment, after asking the gateway once (return pages). */
export async function checkPayment(deps: PaymentsDeps, userId: string, reference: string): Promise<PaymentView> {
  const [p] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.userId, userId)))
    .limit(1);
  if (!p) throw new AppError('PAYMENT_NOT_FOUND', 'Ödəniş məlumatları tapılmadı');
  if (p.status !== 'pending') return toPaymentView(p);
  try {
    return toPaymentView(await settle(deps, p.id));
  } catch (err) {
    if (err instanceof AppError && err.code === 'PAYMENT_STATUS_UNKNOWN') return toPaymentView(p);
    throw err;
  }
}

export async function listPayments(db: Db, userId: string): Promise<PaymentView[]> {
  const rows = await db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt)).limit(50);
  return rows.map(toPaymentView);
}

const ABANDONED_AFTER_MS = 24 * 3_600_000;

/**
 * Settles payments that waited too long for a callback; abandoned ones (still unpaid at the
 * gateway after a day, or never registered with it) are cancelled.
 */
export async function reconcilePayments(deps: PaymentsDeps, now = new Date(), olderThanMs = 2 * 60_000): Promise<{ settled: number; expired: number }> {
  const due = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), eq(payments.flagged, false), lt(payments.createdAt, new Date(now.getTime() - olderThanMs))))
    .limit(200);
  let settled = 0;
  let expired = 0;
  for (const p of due) {
    try {
      const after = await settle(deps, p.id);
      if (after.status !== 'pending') settled++;
      else if (now.getTime() - p.createdAt.getTime() > ABANDONED_AFTER_MS) {
        const n = await deps.db
          .update(payments)
          .set({ status: 'cancelled', gatewayMessage: 'expired', updatedAt: new Date() })
          .where(and(eq(payments.id, p.id), eq(payments.status, 'pending')))
          .returning({ id: payments.id });
        expired += n.length;
      }
    } catch (err) {
      deps.logger.warn({ err, payment: p.id }, 'payment reconciliation failed');
      // A gateway that cannot tell us about a payment for a day: an admin must look at it.
      if (err instanceof AppError && err.code === 'PAYMENT_STATUS_UNKNOWN' && now.getTime() - p.createdAt.getTime() > ABANDONED_AFTER_MS) {
        await deps.db
          .update(payments)
          .set({ flagged: true, flagReason: 'The gateway gave no usable status for 24 hours.', updatedAt: new Date() })
          .where(and(eq(payments.id, p.id), eq(payments.status, 'pending')));
      }
    }
  }
  return { settled, expired };
}

