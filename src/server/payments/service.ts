import type { z } from 'zod';
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gte, ilike, isNotNull, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AdminPaymentsQuery } from '../../core/contracts/admin';
import type { PaymentStatusView, PaymentView, TopUpResult } from '../../core/contracts/payments';
import { topUpInputSchema, TOP_UP_REFERENCE_PREFIX } from '../../core/contracts/payments';
import type { Language } from '../../core/i18n';
import { AppError } from '../../core/errors';
import { microsToDecimal, minorToDecimal } from '../../core/money';
import { paymentFailureReason } from '../../core/paymentFailure';
import { createRateLimiter, RATE_RULES } from '../http/rateLimit';
import type { Db, Tx } from '../db/client';
import { paymentReceipts, payments, users } from '../db/schema';
import type { CallbackBody, GatewayStatus } from '../gateways';
import type { GatewayRegistry } from '../gateways';
import type { PaymentMethodKind } from '../../core/paymentMethods';
import { callbackPath, quoteTopUp } from '../../core/paymentMethods';
import { bonusesForNewTopUp, creditTopUp, creditedByTopUp } from './bonuses';
import { rateOf, usableMethod } from './methods';
import { canRefund, keptOnBalanceMicros } from './refund';
import { getSettings } from '../settings';
import { chargeback } from '../wallet';

import type { PaymentRow, PaymentsDeps } from './deps';
export type { PaymentRow, PaymentsDeps } from './deps';

/** Why a payment did not go through, for the return page: a reason the browser words in each language, or the gateway's own text. */
const failureOf = (p: PaymentRow): Pick<PaymentStatusView, 'reason' | 'gatewayMessage'> =>
  p.status === 'failed' || p.status === 'cancelled'
    ? { reason: paymentFailureReason(p.gatewayCode, p.gatewayMessage), gatewayMessage: p.flagged ? null : p.gatewayMessage }
    : { reason: null, gatewayMessage: null };

export const toPaymentView = (p: PaymentRow): PaymentView => ({
  id: p.id,
  reference: p.reference,
  type: p.type,
  amountUsdMicros: p.amountUsdMicros,
  amountMinor: p.amountMinor,
  currency: p.currency,
  method: p.method,
  status: p.status,
  provider: p.provider,
  transactionId: p.transactionId,
  createdAt: p.createdAt.toISOString(),
  reversedAt: p.reversedAt?.toISOString() ?? null,
  bonusMicros: p.bonusMicros,
  couponMicros: p.couponMicros,
  refundStatus: p.refundStatus,
  refundedAt: p.refundedAt?.toISOString() ?? null,
});

/**
 * What the card page says the payment is for, in the customer's language (the gateway's own page
 * has no Turkish; the description is ours): "Balansın artırılması: 10,00 USD".
 */
export function topUpDescription(language: Language, amountMicros: number): string {
  const amount = microsToDecimal(amountMicros);
  switch (language) {
    case 'az':
      return `Balansın artırılması: ${amount.replace('.', ',')} USD`;
    case 'tr':
      return `Bakiye yükleme: ${amount.replace('.', ',')} USD`;
    case 'en':
      return `Balance top-up: ${amount} USD`;
  }
}

/**
 * Starts a top-up through an enabled method (docs/rules.md#payment-methods): the amount within
 * the method's bounds, charged in its currency at the rate in force with its fee. The payment row
 * is written first (pending, USD micro-dollars, the charge in minor units, the rate used), and
 * only then is the method's gateway asked for its payment page.
 */
export async function startTopUp(
  deps: PaymentsDeps,
  user: { id: string; email: string; name?: string },
  body: z.input<typeof topUpInputSchema>,
  ip = '127.0.0.1',
): Promise<TopUpResult> {
  const input = topUpInputSchema.parse(body);
  const method = await usableMethod(deps.db, deps.gateways, input.method);
  if (input.amountMicros < method.minMicros || input.amountMicros > method.maxMicros) {
    throw new AppError('TOPUP_OUT_OF_RANGE', 'Məbləğ bu ödəniş üsulunun hədlərindən kənardadır', { minMicros: method.minMicros, maxMicros: method.maxMicros });
  }
  const settings = await getSettings(deps.db);
  const rate = rateOf(settings, method.currency);
  const { amountMinor } = quoteTopUp(input.amountMicros, rate, method.feeBp);
  const reference = `${TOP_UP_REFERENCE_PREFIX}${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
  const values = { reference, userId: user.id, amountUsdMicros: input.amountMicros, amountMinor, currency: method.currency, rate, method: method.kind };
  const provider = method.kind === 'bank' ? 'bank' : deps.gateways.of(method.kind).name;
  // What the top-up earns (docs/rules.md#bonuses) is fixed with its row, in one short transaction
  // that holds a named coupon's row until the payment naming it is written.
  const payment = await deps.db.transaction(async (tx) => {
    const earned = await bonusesForNewTopUp(tx, { userId: user.id, method: method.kind, amountMicros: input.amountMicros, coupon: input.coupon });
    const [row] = await tx
      .insert(payments)
      .values({ ...values, ...earned, provider })
      .returning();
    return row!;
  });
  const earned = { bonusMicros: payment.bonusMicros, couponMicros: payment.couponMicros };
  if (method.kind === 'bank') {
    // A bank transfer waits for the customer's receipt and the team's review (bank.ts); the
    // reference is what the customer writes on the transfer.
    return { reference, paymentUrl: null, amountMinor, currency: method.currency, bankDetails: method.details[input.language] || method.details.en, ...earned };
  }
  const gateway = deps.gateways.of(method.kind);

  const base = deps.publicUrl.replace(/\/$/, '');
  try {
    const created = await gateway.create({
      reference,
      amountMinor,
      currency: method.currency,
      description: topUpDescription(input.language, input.amountMicros),
      language: input.language,
      customer: { email: user.email, ip, ...(user.name ? { name: user.name } : {}) },
      callbackUrl: `${base}${callbackPath(method.kind)}`,
      successUrl: `${base}/payment-success?order=${encodeURIComponent(reference)}`,
      errorUrl: `${base}/payment-error?order=${encodeURIComponent(reference)}`,
    });
    await deps.db.update(payments).set({ transactionId: created.transactionId, updatedAt: new Date() }).where(eq(payments.id, payment.id));
    return { reference, paymentUrl: created.paymentUrl, amountMinor, currency: method.currency, bankDetails: null, ...earned };
  } catch (err) {
    await deps.db
      .update(payments)
      .set({ status: 'failed', gatewayMessage: err instanceof Error ? err.message.slice(0, 500) : 'error', updatedAt: new Date() })
      .where(eq(payments.id, payment.id));
    if (err instanceof AppError) throw err;
    throw new AppError('PAYMENT_NOT_CREATED', 'Ödəniş yaradılmadı');
  }
}

/** Why a gateway state may not be credited against this payment, or null when it matches. */
function mismatch(p: PaymentRow, s: GatewayStatus): string | null {
  if (s.transactionId && p.transactionId && s.transactionId !== p.transactionId) return `transaction ${s.transactionId} ≠ ${p.transactionId}`;
  if (s.reference !== null && s.reference !== p.reference) return `reference ${s.reference} ≠ ${p.reference}`;
  if (s.amountMinor === null) return 'amount missing';
  if (s.amountMinor !== p.amountMinor) return `amount ${s.amountMinor} ≠ ${p.amountMinor} (minor units of ${p.currency})`;
  if (s.currency !== null && s.currency.toUpperCase() !== p.currency) return `currency ${s.currency} ≠ ${p.currency}`;
  return null;
}

export interface SettleOptions {
  /** The decoded callback that triggered this, when any: it must agree with the payment too. */
  callback?: GatewayStatus;
}

/** Still waiting for money: pending, not flagged, registered with the gateway. */
const isOpen = (p: PaymentRow) => p.status === 'pending' && !p.flagged && p.transactionId !== null;

/** What a gateway answer does to an open payment. */
type Decision =
  | { kind: 'wait' }
  | { kind: 'flag'; reason: string }
  | { kind: 'close'; status: 'failed' | 'cancelled'; message: string | null; code: string | null }
  | { kind: 'credit'; message: string | null; code: string | null };

function decide(p: PaymentRow, status: GatewayStatus): Decision {
  if (status.state === 'pending') return { kind: 'wait' };
  // Paid and part of it given back before this shop settled it: neither credit nor close, a person decides.
  if (status.state === 'partly_returned') return { kind: 'flag', reason: 'status: paid, then partly refunded at the gateway' };
  if (status.state === 'failed' || status.state === 'returned') {
    return { kind: 'close', status: status.state === 'failed' ? 'failed' : 'cancelled', message: status.message, code: status.code };
  }
  const bad = mismatch(p, status);
  return bad ? { kind: 'flag', reason: `status: ${bad}` } : { kind: 'credit', message: status.message, code: status.code };
}

/**
 * What the gateway's status says of an open payment. A verified notification of a failed
 * payment closes it when the status cannot say more: PayTR's status inquiry only knows paid
 * orders, so a declined one reads as unpaid there. Closing moves no money; only a status of
 * success credits.
 */
async function confirm(deps: PaymentsDeps, p: PaymentRow, callback: GatewayStatus | undefined): Promise<Decision> {
  const failed = callback?.state === 'failed';
  let status: GatewayStatus | null;
  try {
    status = await deps.gateways.of(p.method).status(p.transactionId!);
  } catch (err) {
    if (!(failed && err instanceof AppError && err.code === 'PAYMENT_STATUS_UNKNOWN')) throw err;
    status = null;
  }
  const decision: Decision = status ? decide(p, status) : { kind: 'wait' };
  if (decision.kind === 'wait' && failed) return { kind: 'close', status: 'failed', message: callback.message, code: callback.code };
  return decision;
}

/**
 * Writes a decision in one short transaction, only while the payment is still open: of several
 * settles racing on one payment, exactly one changes it (and credits); the others find it
 * settled and change nothing. The ledger's unique (kind, reference) backs this up.
 */
async function apply(deps: PaymentsDeps, p: PaymentRow, d: Exclude<Decision, { kind: 'wait' }>) {
  const now = new Date();
  const set =
    d.kind === 'flag'
      ? { status: 'failed' as const, flagged: true, flagReason: d.reason, updatedAt: now }
      : d.kind === 'close'
        ? { status: d.status, gatewayMessage: d.message, gatewayCode: d.code, updatedAt: now, settledAt: now }
        : { status: 'completed' as const, gatewayMessage: d.message, gatewayCode: d.code, updatedAt: now, settledAt: now };
  const changed = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(payments)
      .set(set)
      .where(and(eq(payments.id, p.id), eq(payments.status, 'pending'), eq(payments.flagged, false)))
      .returning();
    if (!row) return null;
    const balance = d.kind === 'credit' ? (await creditTopUp(tx, row)).balanceMicros : null;
    return { payment: row, balance };
  });
  if (!changed) {
    const [current] = await deps.db.select().from(payments).where(eq(payments.id, p.id));
    return { payment: current ?? p, balance: null, changed: false };
  }
  if (d.kind === 'flag') deps.logger.warn({ payment: p.id, reason: d.reason }, 'payment flagged');
  return { ...changed, changed: true };
}

/**
 * The only place money enters a balance from a card: an open payment's status is re-confirmed
 * with the gateway, and only a success with the same amount, currency, reference and transaction
 * credits — once, through a ledger entry unique per payment. A mismatch is never credited; the
 * payment is flagged for an admin.
 *
 * No transaction or row lock is held across a network call: the gateway is asked first, with
 * none open — a slow gateway must not hold a database connection, and on the embedded database
 * (one connection) an open transaction stops every other request. Its answer is then written by
 * `apply()`, only if the payment is still open by then.
 */
export async function settle(deps: PaymentsDeps, paymentId: string, opts: SettleOptions = {}): Promise<PaymentRow> {
  const [p] = await deps.db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
  if (!p) throw new AppError('PAYMENT_NOT_FOUND', 'Ödəniş məlumatları tapılmadı');
  if (!isOpen(p)) return p;

  const callbackMismatch = opts.callback?.state === 'success' ? mismatch(p, opts.callback) : null;
  const decision: Decision = callbackMismatch ? { kind: 'flag', reason: `callback: ${callbackMismatch}` } : await confirm(deps, p, opts.callback);
  if (decision.kind === 'wait') return p;

  const outcome = await apply(deps, p, decision);
  if (outcome.changed) {
    await deps.realtime?.publish(outcome.payment.userId, { type: 'payment', paymentId: outcome.payment.id, status: outcome.payment.status }).catch(() => {});
  }
  if (outcome.balance !== null) {
    await deps.realtime
      ?.publish(outcome.payment.userId, { type: 'balance', balanceMicros: outcome.balance, deltaMicros: creditedByTopUp(outcome.payment) })
      .catch(() => {});
  }
  return outcome.payment;
}

/**
 * Handles a notification from the gateway of `kind`: read and checked by its adapter (a signature
 * in constant time where the protocol signs), matched to a payment of that method, then settle()
 * re-confirms it with the gateway before any money moves.
 */
export async function handleCallback(deps: PaymentsDeps, kind: PaymentMethodKind, body: CallbackBody): Promise<PaymentRow | null> {
  const status = deps.gateways.of(kind).parseCallback(body);
  const where = status.transactionId
    ? eq(payments.transactionId, status.transactionId)
    : status.reference
      ? eq(payments.reference, status.reference)
      : null;
  if (!where) return null;
  const [p] = await deps.db.select().from(payments).where(and(where, eq(payments.method, kind))).limit(1);
  if (!p) return null;
  return settle(deps, p.id, { callback: status });
}

/** Checks under way in this process, by payment: concurrent checks of one payment share one. */
const checksInFlight = new Map<string, Promise<PaymentRow>>();

async function askGateway(deps: PaymentsDeps, p: PaymentRow): Promise<PaymentRow> {
  const limiter = createRateLimiter(deps.db);
  // How often the return pages may have the gateway asked (RATE_RULES, docs/rate-limits.md).
  const { paymentCheckPerPayment: perPayment, paymentCheckPerCustomer: perCustomer } = RATE_RULES;
  // Asked moments ago: answer with what the server knows.
  if ((await limiter.hit(perPayment, p.id)).count > perPayment.limit) return p;
  await limiter.consume(perCustomer, p.userId);
  try {
    return await settle(deps, p.id);
  } catch (err) {
    if (err instanceof AppError && err.code === 'PAYMENT_STATUS_UNKNOWN') return p;
    throw err;
  }
}

/**
 * One payment, after asking the gateway when it is still open (return pages): the owner's, or,
 * with `owner: null`, whoever holds its reference (unguessable) — that caller sees only its state.
 */
async function checkPaymentRow(deps: PaymentsDeps, reference: string, owner: string | null): Promise<PaymentRow> {
  const [p] = await deps.db
    .select()
    .from(payments)
    .where(owner === null ? eq(payments.reference, reference) : and(eq(payments.reference, reference), eq(payments.userId, owner)))
    .limit(1);
  if (!p) throw new AppError('PAYMENT_NOT_FOUND', 'Ödəniş məlumatları tapılmadı');
  if (!isOpen(p)) return p;
  let check = checksInFlight.get(p.id);
  if (!check) {
    check = askGateway(deps, p).finally(() => checksInFlight.delete(p.id));
    checksInFlight.set(p.id, check);
  }
  return check;
}

/** The owner's view of one payment, after asking the gateway when it is still open. */
export async function checkPayment(deps: PaymentsDeps, userId: string, reference: string): Promise<PaymentView> {
  return toPaymentView(await checkPaymentRow(deps, reference, userId));
}

/** The state of a payment for a return page opened without a session (paid on another device, session ended). */
export async function checkPaymentStatus(deps: PaymentsDeps, reference: string): Promise<PaymentStatusView> {
  const p = await checkPaymentRow(deps, reference, null);
  return { reference: p.reference, status: p.status, transactionId: p.transactionId, ...failureOf(p) };
}

export async function listPayments(db: Db, userId: string): Promise<PaymentView[]> {
  const rows = await db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt)).limit(50);
  return rows.map(toPaymentView);
}

const STAFF_PAGE = 50;
/** Most rows one CSV export holds (newest first). */
export const PAYMENTS_CSV_MAX = 100_000;

function staffConditions(q: AdminPaymentsQuery): SQL | undefined {
  const conditions: SQL[] = [];
  if (q.status === 'reversed') conditions.push(isNotNull(payments.reversedAt));
  else if (q.status) conditions.push(eq(payments.status, q.status));
  if (q.method) conditions.push(eq(payments.provider, q.method));
  if (q.userId) conditions.push(eq(payments.userId, q.userId));
  if (q.q) conditions.push(ilike(users.email, `%${q.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`));
  if (q.from) conditions.push(gte(payments.createdAt, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) conditions.push(lt(payments.createdAt, new Date(new Date(`${q.to}T00:00:00Z`).getTime() + 86_400_000)));
  if (q.flagged) conditions.push(eq(payments.flagged, true));
  return conditions.length ? and(...conditions) : undefined;
}

const reverser = alias(users, 'reverser');
const reviewer = alias(users, 'reviewer');
const refunder = alias(users, 'refunder');

/** One payment as the team sees it: the payer, the gateway's code and words (with the reason they mean), the flag and the reversal. */
function toStaffPayment(
  r: {
  payment: PaymentRow;
  email: string;
  reversedByEmail: string | null;
  reviewedByEmail: string | null;
  refundedByEmail: string | null;
  receipt: { contentType: string; size: number; uploadedAt: Date } | null;
  },
  gateways?: GatewayRegistry,
) {
  const p = r.payment;
  return {
    id: p.id,
    reference: p.reference,
    userId: p.userId,
    email: r.email,
    type: p.type,
    amountUsdMicros: p.amountUsdMicros,
    amountMinor: p.amountMinor,
    currency: p.currency,
    rate: p.rate,
    method: p.provider,
    status: p.status,
    transactionId: p.transactionId,
    gatewayCode: p.gatewayCode,
    gatewayMessage: p.gatewayMessage,
    /** Why a failed or cancelled payment did not go through, worded by the browser (docs/rules.md#payments). */
    failureReason: p.status === 'failed' || p.status === 'cancelled' ? paymentFailureReason(p.gatewayCode, p.gatewayMessage) : null,
    flagged: p.flagged,
    flagReason: p.flagReason,
    reversal: p.reversedAt ? { at: p.reversedAt.toISOString(), byEmail: r.reversedByEmail, reason: p.reversalReason ?? '' } : null,
    /** A refund to the card asked by the team (docs/rules.md#top-up-refunds): its state, who, when, why, and the gateway's last error. */
    refund: p.refundStatus
      ? {
          status: p.refundStatus,
          requestedAt: p.refundRequestedAt!.toISOString(),
          at: p.refundedAt?.toISOString() ?? null,
          byEmail: r.refundedByEmail,
          reason: p.refundReason ?? '',
          error: p.refundError,
          /** A `partial` refund: what went back to the card (minor units; null: the gateway did not say) and what the balance kept. */
          refundedMinor: p.refundedMinor,
          keptMicros: p.refundStatus === 'partial' ? keptOnBalanceMicros(p, p.refundedMinor) : null,
        }
      : null,
    /** Whether the team may ask for its refund to the card now (its method's gateway refunds; src/server/payments/refund.ts). */
    refundable: gateways ? canRefund({ gateways }, p) : false,
    /** The method paid through (`method` above names the gateway that answered). */
    kind: p.method,
    /** A bank transfer's receipt, when uploaded (its bytes through the receipt route only). */
    receipt: r.receipt ? { contentType: r.receipt.contentType, size: r.receipt.size, uploadedAt: r.receipt.uploadedAt.toISOString() } : null,
    /** A bank transfer's review: who, when, and the reason of a rejection. */
    review: p.reviewedAt ? { at: p.reviewedAt.toISOString(), byEmail: r.reviewedByEmail, note: p.reviewNote } : null,
    createdAt: p.createdAt.toISOString(),
    settledAt: p.settledAt?.toISOString() ?? null,
  };
}
export type StaffPayment = ReturnType<typeof toStaffPayment>;

function staffSelect(db: Db, q: AdminPaymentsQuery) {
  return db
    .select({
      payment: payments,
      email: users.email,
      reversedByEmail: reverser.email,
      reviewedByEmail: reviewer.email,
      refundedByEmail: refunder.email,
      receipt: { contentType: paymentReceipts.contentType, size: paymentReceipts.size, uploadedAt: paymentReceipts.uploadedAt },
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .leftJoin(reverser, eq(reverser.id, payments.reversedBy))
    .leftJoin(reviewer, eq(reviewer.id, payments.reviewedBy))
    .leftJoin(refunder, eq(refunder.id, payments.refundedBy))
    .leftJoin(paymentReceipts, eq(paymentReceipts.paymentId, payments.id))
    .where(staffConditions(q))
    .orderBy(desc(payments.createdAt), desc(payments.id));
}

/**
 * Every customer's payments with the payer's e-mail, newest first, 50 a page, filtered by status
 * (or reversed), method, the payer's e-mail, a customer, days (UTC) and the flag; with how many
 * match and the methods there are (the filter's choices).
 */
export async function listPaymentsForStaff(db: Db, q: AdminPaymentsQuery, gateways?: GatewayRegistry) {
  const [rows, [count], methods] = await Promise.all([
    staffSelect(db, q)
      .limit(STAFF_PAGE)
      .offset((q.page - 1) * STAFF_PAGE),
    db.select({ n: sql<number>`count(*)::int` }).from(payments).innerJoin(users, eq(users.id, payments.userId)).where(staffConditions(q)),
    db.selectDistinct({ method: payments.provider }).from(payments).orderBy(payments.provider),
  ]);
  return { total: count?.n ?? 0, page: q.page, pageSize: STAFF_PAGE, methods: methods.map((m) => m.method), payments: rows.map((r) => toStaffPayment(r, gateways)) };
}

const CSV_COLUMNS = [
  'created_at', 'reference', 'customer', 'amount_usd', 'amount_azn', 'method', 'status', 'gateway_code', 'gateway_message', 'failure_reason',
  'flagged', 'flag_reason', 'reversed_at', 'reversed_by', 'reversal_reason', 'transaction_id', 'refund_status', 'refunded_at', 'refunded_by',
  'refund_reason',
] as const;

/** A CSV field: quoted when it holds a comma, quote or line break, and never read as a formula by a spreadsheet. */
function csvField(value: string | null): string {
  let v = value ?? '';
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** The filtered list as CSV (every page, newest first, at most PAYMENTS_CSV_MAX rows): amounts exact, USD in dollars and AZN in manat. */
export async function paymentsCsv(db: Db, q: AdminPaymentsQuery): Promise<string> {
  const rows = (await staffSelect(db, q).limit(PAYMENTS_CSV_MAX)).map((r) => toStaffPayment(r));
  const lines = rows.map((p) =>
    [
      p.createdAt, p.reference, p.email, microsToDecimal(p.amountUsdMicros), minorToDecimal(p.amountMinor), p.method, p.reversal ? 'reversed' : p.status,
      p.gatewayCode, p.gatewayMessage, p.failureReason, p.flagged ? 'yes' : 'no', p.flagReason, p.reversal?.at ?? null, p.reversal?.byEmail ?? null,
      p.reversal?.reason ?? null, p.transactionId, p.refund?.status ?? null, p.refund?.at ?? null, p.refund?.byEmail ?? null, p.refund?.reason ?? null,
    ]
      .map(csvField)
      .join(','),
  );
  return [CSV_COLUMNS.join(','), ...lines].join('\r\n') + '\r\n';
}

/** A staff member who books a chargeback. */
export interface Reverser {
  id: string;
  email: string;
}

/**
 * Books a chargeback (docs/decisions/0019): the bank took a completed top-up back, so the payment
 * is marked reversed (who, when, why) and one `chargeback` ledger entry takes its amount from the
 * balance, even below zero — in one transaction that starts by claiming the payment: of two staff
 * members at once, one reverses it and the other is answered PAYMENT_ALREADY_REVERSED (the
 * ledger's unique `(chargeback, payment id)` backs this up). `onBooked` runs in the same
 * transaction (the audit log). Returns the payment and the new balance.
 */
export async function reversePayment(db: Db, paymentId: string, by: Reverser, reason: string, onBooked?: (tx: Tx, p: PaymentRow) => Promise<void>) {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(payments)
      .set({ reversedAt: now, reversedBy: by.id, reversalReason: reason, updatedAt: now })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'completed'), eq(payments.type, 'balance_topup'), isNull(payments.reversedAt), isNull(payments.refundStatus)))
      .returning();
    if (!row) {
      const [p] = await tx.select().from(payments).where(eq(payments.id, paymentId));
      if (!p) throw new AppError('PAYMENT_NOT_FOUND', 'Payment not found.');
      if (p.reversedAt) throw new AppError('PAYMENT_ALREADY_REVERSED', 'This payment was already reversed.');
      throw new AppError('PAYMENT_NOT_REVERSIBLE', 'Only a completed top-up can be reversed.', { status: p.status });
    }
    // What the top-up earned goes back with it (docs/rules.md#bonuses).
    const balanceMicros = await chargeback(tx, { userId: row.userId, amountMicros: creditedByTopUp(row), reference: row.id, note: reason });
    await onBooked?.(tx, row);
    return { payment: row, balanceMicros };
  });
}

/** How many payments are flagged (their gateway data did not match): never credited, for the team to look at. */
export async function countFlaggedPayments(db: Db): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(payments).where(eq(payments.flagged, true));
  return r?.n ?? 0;
}

const ABANDONED_AFTER_MS = 24 * 3_600_000;
/** How long a reconciliation run's claim on one payment lasts: longer than any gateway call. */
const CLAIM_SECONDS = 60;

/**
 * Settles payments that waited too long for a callback; abandoned ones (still unpaid at the
 * gateway after a day, or never registered with it) are cancelled. Each payment is claimed
 * before the gateway is asked (`claimed_until`, set atomically), so concurrent runs skip it
 * instead of asking twice; the claim is dropped when done, or runs out if the process dies.
 */
export async function reconcilePayments(
  deps: PaymentsDeps,
  now = new Date(),
  olderThanMs = 2 * 60_000,
): Promise<{ settled: number; expired: number; skipped: number }> {
  const unclaimed = or(isNull(payments.claimedUntil), lte(payments.claimedUntil, sql`now()`));
  const due = await deps.db
    .select()
    .from(payments)
    // A bank transfer waits for the team, not for a gateway.
    .where(and(eq(payments.status, 'pending'), eq(payments.flagged, false), ne(payments.method, 'bank'), lt(payments.createdAt, new Date(now.getTime() - olderThanMs)), unclaimed))
    .orderBy(asc(payments.createdAt))
    .limit(200);
  let settled = 0;
  let expired = 0;
  let skipped = 0;
  for (const p of due) {
    // Claimed only if nobody claimed it since this run read it: a claim another run has already
    // finished leaves its time behind, so the payment is not asked about twice in one round.
    const [claimed] = await deps.db
      .update(payments)
      .set({ claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})` })
      .where(
        and(
          eq(payments.id, p.id),
          eq(payments.status, 'pending'),
          eq(payments.flagged, false),
          unclaimed,
          p.claimedUntil ? eq(payments.claimedUntil, p.claimedUntil) : isNull(payments.claimedUntil),
        ),
      )
      .returning({ id: payments.id });
    if (!claimed) {
      skipped++;
      continue;
    }
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
    } finally {
      // Released, not cleared: the past time (to the millisecond, as it is read back) tells a run
      // that read the row before this claim that it was checked meanwhile.
      await deps.db.update(payments).set({ claimedUntil: sql`date_trunc('milliseconds', now())` }).where(eq(payments.id, p.id));
    }
  }
  return { settled, expired, skipped };
}
