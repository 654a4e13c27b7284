/**
 * A completed top-up given back to the card by the team (docs/rules.md#top-up-refunds).
 *
 * The balance pays first: in one short transaction the payment is claimed (refund `pending`) and
 * its amount, with what it earned on top, is debited — refused, with nothing changed, when the
 * customer has spent it. Only then, with no transaction open, is the gateway asked to give the
 * whole charge back. Its yes completes the refund; a definite no fails it and gives the balance
 * back once (`topup_refund_failed`); no answer leaves it `pending` until a retry (the team's, or
 * the background pass) has asked the gateway whether the money went back. The gateway never
 * refunds beyond what was paid, and no credit back is written while it may have, so a refund
 * happens once either way. An order that reads partly refunded settles the refund `partial`:
 * flagged for the team, never asked about again, and the balance gets back the share of the
 * top-up the card did not (`keptOnBalanceMicros`).
 */
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { Tx } from '../db/client';
import { payments } from '../db/schema';
import type { PaymentGateway } from '../gateways';
import { credit, debit } from '../wallet';
import { creditedByTopUp } from './bonuses';
import type { PaymentRow, PaymentsDeps } from './deps';

export type RefundDeps = Pick<PaymentsDeps, 'db' | 'gateways' | 'logger' | 'realtime'>;

/** Who asks for a refund (the audit log's actor). */
export interface Refunder {
  id: string;
  email: string;
}

/** How long one attempt holds a pending refund: longer than any gateway call (15 s by default). */
export const REFUND_CLAIM_SECONDS = 60;


export interface RefundOutcome {
  payment: PaymentRow;
  /** The customer's balance after this call's moves, when it moved. */
  balanceMicros: number | null;
}

/** The gateway of a payment, when it can give money back to the card; null otherwise. */
function refunderOf(deps: Pick<RefundDeps, 'gateways'>, p: PaymentRow): (PaymentGateway & { refund: NonNullable<PaymentGateway['refund']> }) | null {
  if (p.method === 'bank' || !deps.gateways.has(p.method)) return null;
  const gateway = deps.gateways.of(p.method);
  return gateway.refund ? (gateway as PaymentGateway & { refund: NonNullable<PaymentGateway['refund']> }) : null;
}

/** Whether the team may ask for this payment's refund: a completed top-up, not reversed nor refunded, of a method whose gateway refunds. */
export const canRefund = (deps: Pick<RefundDeps, 'gateways'>, p: PaymentRow) =>
  p.status === 'completed' && p.type === 'balance_topup' && p.reversedAt === null && p.refundStatus === null && p.transactionId !== null && refunderOf(deps, p) !== null;

/**
 * Whether a gateway error is a definite refusal (the refund did not and will not happen): the
 * gateway answered with a refusal, an HTTP 4xx, or nothing was sent. Anything else (no answer,
 * timeout, 5xx, a reply that cannot be read) leaves the outcome unknown.
 */
export function isDefiniteRefusal(err: unknown): boolean {
  if (err instanceof RangeError) return true;
  if (!(err instanceof AppError) || err.code !== 'PAYMENT_REFUND_FAILED') return false;
  const details = (err.details ?? {}) as { reason?: unknown; httpStatus?: unknown };
  if (details.reason === 'refused' || details.reason === 'bad_id') return true;
  return details.reason === 'http' && typeof details.httpStatus === 'number' && details.httpStatus >= 400 && details.httpStatus < 500;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

const notFound = () => new AppError('PAYMENT_NOT_FOUND', 'Payment not found.');

/**
 * What the balance keeps of a top-up whose refund gave back only `refundedMinor` of its charge
 * (docs/rules.md#top-up-refunds): the share of its USD amount whose charge the card did not get
 * back, rounded down to the micro-dollar (the card's part is never paid twice). What the top-up
 * earned on top stays taken back. Unknown (null) refunded amount: nothing, until a person decides.
 * `verifyLedger` checks the `topup_refund_partial` entry by the same formula.
 */
export function keptOnBalanceMicros(p: Pick<PaymentRow, 'amountUsdMicros' | 'amountMinor'>, refundedMinor: number | null): number {
  if (refundedMinor === null) return 0;
  if (!Number.isSafeInteger(refundedMinor) || refundedMinor <= 0 || refundedMinor >= p.amountMinor) throw new RangeError('a partial refund is more than nothing and less than the charge');
  return Number((BigInt(p.amountUsdMicros) * BigInt(p.amountMinor - refundedMinor)) / BigInt(p.amountMinor));
}

/** Why this payment's refund cannot be asked for (it was re-read after a claim found nothing). */
function refusalOf(p: PaymentRow): AppError {
  if (p.refundStatus === 'completed') return new AppError('PAYMENT_ALREADY_REFUNDED', 'This top-up was already refunded.');
  if (p.refundStatus === 'partial') return new AppError('PAYMENT_NOT_REFUNDABLE', 'The gateway gave back only part of this top-up; it is flagged for the team.', { reason: 'partial_refund' });
  if (p.refundStatus === 'pending') return new AppError('PAYMENT_REFUND_IN_PROGRESS', 'A refund of this top-up is under way.');
  if (p.refundStatus === 'failed') return new AppError('PAYMENT_NOT_REFUNDABLE', 'The gateway refused this refund; the balance was given back.', { reason: 'refund_failed' });
  if (p.reversedAt) return new AppError('PAYMENT_NOT_REFUNDABLE', 'This top-up was reversed by the bank.', { reason: 'reversed' });
  return new AppError('PAYMENT_NOT_REFUNDABLE', 'Only a completed top-up can be refunded.', { reason: 'status', status: p.status });
}

async function publishBalance(deps: RefundDeps, userId: string, balanceMicros: number, deltaMicros: number, paymentId: string, refundStatus: string) {
  await deps.realtime?.publish(userId, { type: 'balance', balanceMicros, deltaMicros }).catch(() => {});
  await deps.realtime?.publish(userId, { type: 'payment', paymentId, status: `refund_${refundStatus}` }).catch(() => {});
}

/**
 * The team asks for a top-up's refund. A payment whose refund is still `pending` (its gateway did
 * not answer) is retried instead: the gateway is asked first whether the money went back.
 * `onClaimed` runs in the claiming transaction (the audit log). PAYMENT_NOT_REFUNDABLE (a method
 * that cannot refund, not a completed top-up, reversed, failed before), PAYMENT_ALREADY_REFUNDED,
 * PAYMENT_REFUND_IN_PROGRESS (another attempt is asking the gateway now),
 * PAYMENT_REFUND_BALANCE_SHORT (the customer spent it: nothing changed), PAYMENT_REFUND_FAILED
 * (the gateway refused: the balance was given back).
 */
export async function refundPayment(
  deps: RefundDeps,
  paymentId: string,
  by: Refunder,
  reason: string,
  onClaimed?: (tx: Tx, p: PaymentRow) => Promise<void>,
): Promise<RefundOutcome> {
  const [p] = await deps.db.select().from(payments).where(eq(payments.id, paymentId));
  if (!p) throw notFound();
  if (p.refundStatus === 'pending') return retryRefund(deps, p);
  if (p.status === 'completed' && p.type === 'balance_topup' && p.reversedAt === null && p.refundStatus === null && (p.transactionId === null || !refunderOf(deps, p))) {
    throw new AppError('PAYMENT_NOT_REFUNDABLE', 'This payment method cannot give money back to the card.', { reason: 'method', method: p.method });
  }
  const gateway = refunderOf(deps, p);

  const claimed = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(payments)
      .set({ refundStatus: 'pending', refundedBy: by.id, refundReason: reason, refundRequestedAt: now, refundError: null, claimedUntil: sql`now() + make_interval(secs => ${REFUND_CLAIM_SECONDS})`, updatedAt: now })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'completed'), eq(payments.type, 'balance_topup'), isNull(payments.reversedAt), isNull(payments.refundStatus)))
      .returning();
    if (!row) {
      const [current] = await tx.select().from(payments).where(eq(payments.id, paymentId));
      throw current ? refusalOf(current) : notFound();
    }
    let balanceMicros: number;
    try {
      balanceMicros = await debit(tx, { userId: row.userId, amountMicros: row.amountUsdMicros, kind: 'topup_refund', reference: row.id, note: reason });
      const extra = row.bonusMicros + row.couponMicros;
      if (extra > 0) balanceMicros = await debit(tx, { userId: row.userId, amountMicros: extra, kind: 'bonus_reversal', reference: row.id, note: reason });
    } catch (err) {
      if (err instanceof AppError && err.code === 'INSUFFICIENT_BALANCE') {
        throw new AppError('PAYMENT_REFUND_BALANCE_SHORT', 'The customer has spent part of this top-up: the balance cannot give it back.', { neededMicros: creditedByTopUp(row) });
      }
      throw err;
    }
    await onClaimed?.(tx, row);
    return { row, balanceMicros };
  });
  await publishBalance(deps, claimed.row.userId, claimed.balanceMicros, -creditedByTopUp(claimed.row), claimed.row.id, 'pending');
  return send(deps, gateway!, claimed.row, claimed.balanceMicros);
}

/** Asks the gateway to give the whole charge back, and writes what its answer means. */
async function send(deps: RefundDeps, gateway: NonNullable<ReturnType<typeof refunderOf>>, p: PaymentRow, balanceMicros: number | null): Promise<RefundOutcome> {
  try {
    await gateway.refund(p.transactionId!, p.amountMinor);
  } catch (err) {
    if (!isDefiniteRefusal(err)) return stayPending(deps, p, err, balanceMicros);
    // Refused: an earlier attempt (unanswered) may have given the money back, or part of it may
    // have gone back another way (the gateway's dashboard): the order says which. Only an order
    // that says nothing went back fails the refund; one that cannot be read leaves it pending, for
    // the balance must not get back what the card may already have.
    const back = await wentBack(gateway, p).catch(() => null);
    if (back === null) return stayPending(deps, p, err, balanceMicros);
    if (back.kind === 'all') return complete(deps, p, balanceMicros);
    if (back.kind === 'part') return settlePartial(deps, p, back.refundedMinor, balanceMicros);
    return fail(deps, p, err);
  }
  return complete(deps, p, balanceMicros);
}

/** What the gateway's order says went back to the card. */
type WentBack = { kind: 'all' } | { kind: 'none' } | { kind: 'part'; refundedMinor: number | null };

/** Whether the gateway's order says the money went back (all), was not given back (none), or only part of it; throws when it cannot tell. */
async function wentBack(gateway: PaymentGateway, p: PaymentRow): Promise<WentBack> {
  const status = await gateway.status(p.transactionId!);
  const refunded = status.refundedMinor ?? null;
  // An amount that cannot be a part of this charge is no amount at all.
  const part = refunded !== null && refunded > 0 && refunded < p.amountMinor ? refunded : null;
  if (status.state === 'partly_returned') return { kind: 'part', refundedMinor: part };
  if (status.state === 'returned') return part === null ? { kind: 'all' } : { kind: 'part', refundedMinor: part };
  if (status.state === 'success') return { kind: 'none' };
  throw new AppError('PAYMENT_STATUS_UNKNOWN', `order is ${status.code ?? status.state}`);
}

/**
 * The card got only part of the charge back: in one transaction the refund settles `partial`
 * (flagged for the team, with what went back) and, when the gateway said how much, one
 * `topup_refund_partial` entry gives the balance the share of the top-up the card did not get.
 * Not asked about again.
 */
async function settlePartial(deps: RefundDeps, p: PaymentRow, refundedMinor: number | null, balanceBefore: number | null): Promise<RefundOutcome> {
  const keptMicros = keptOnBalanceMicros(p, refundedMinor);
  const settled = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const flagReason =
      refundedMinor === null
        ? `Refund to the card: the gateway gave back only part of the charge and did not say how much; the balance kept nothing of it.`
        : `Refund to the card: the gateway gave back ${refundedMinor} of ${p.amountMinor} (minor units of ${p.currency}); the balance kept ${keptMicros} micro-USD.`;
    const [row] = await tx
      .update(payments)
      .set({ refundStatus: 'partial', refundedMinor, refundedAt: now, refundError: null, flagged: true, flagReason, claimedUntil: sql`now()`, updatedAt: now })
      .where(and(eq(payments.id, p.id), eq(payments.refundStatus, 'pending')))
      .returning();
    if (!row) return null;
    const balanceMicros = keptMicros > 0 ? await credit(tx, { userId: row.userId, amountMicros: keptMicros, kind: 'topup_refund_partial', reference: row.id, note: flagReason }) : null;
    return { row, balanceMicros };
  });
  if (!settled) return { payment: await reread(deps, p.id), balanceMicros: balanceBefore };
  deps.logger.warn({ payment: p.id, refundedMinor, keptMicros }, 'top-up refund: the gateway gave back only part of the charge; flagged');
  if (settled.balanceMicros !== null) await publishBalance(deps, settled.row.userId, settled.balanceMicros, keptMicros, settled.row.id, 'partial');
  else await deps.realtime?.publish(settled.row.userId, { type: 'payment', paymentId: settled.row.id, status: 'refund_partial' }).catch(() => {});
  return { payment: settled.row, balanceMicros: settled.balanceMicros ?? balanceBefore };
}

async function complete(deps: RefundDeps, p: PaymentRow, balanceMicros: number | null): Promise<RefundOutcome> {
  const now = new Date();
  const [row] = await deps.db
    .update(payments)
    .set({ refundStatus: 'completed', refundedAt: now, refundError: null, claimedUntil: sql`now()`, updatedAt: now })
    .where(and(eq(payments.id, p.id), eq(payments.refundStatus, 'pending')))
    .returning();
  if (row) {
    deps.logger.info({ payment: p.id }, 'top-up refunded to the card');
    await deps.realtime?.publish(row.userId, { type: 'payment', paymentId: row.id, status: 'refund_completed' }).catch(() => {});
  }
  return { payment: row ?? (await reread(deps, p.id)), balanceMicros };
}

/** A definite refusal: the refund fails and the balance gets back what it gave, once, in one transaction. */
async function fail(deps: RefundDeps, p: PaymentRow, err: unknown): Promise<never> {
  const message = errorText(err);
  const failed = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(payments)
      .set({ refundStatus: 'failed', refundError: message, claimedUntil: sql`now()`, updatedAt: now })
      .where(and(eq(payments.id, p.id), eq(payments.refundStatus, 'pending')))
      .returning();
    if (!row) return null;
    const balanceMicros = await credit(tx, { userId: row.userId, amountMicros: creditedByTopUp(row), kind: 'topup_refund_failed', reference: row.id, note: message });
    return { row, balanceMicros };
  });
  if (failed?.balanceMicros != null) {
    deps.logger.warn({ payment: p.id, err: message }, 'top-up refund refused by the gateway; balance given back');
    await publishBalance(deps, failed.row.userId, failed.balanceMicros, creditedByTopUp(failed.row), failed.row.id, 'failed');
  }
  throw new AppError('PAYMENT_REFUND_FAILED', 'The gateway refused the refund; the balance was given back.', { refundStatus: 'failed', gatewayMessage: message });
}

/** No answer: the refund stays pending with what went wrong, and the claim is let go for a retry. */
async function stayPending(deps: RefundDeps, p: PaymentRow, err: unknown, balanceMicros: number | null): Promise<RefundOutcome> {
  const message = errorText(err);
  deps.logger.warn({ payment: p.id, err: message }, 'top-up refund: no answer from the gateway; it stays pending');
  const [row] = await deps.db
    .update(payments)
    .set({ refundError: message, claimedUntil: sql`now()`, updatedAt: new Date() })
    .where(and(eq(payments.id, p.id), eq(payments.refundStatus, 'pending')))
    .returning();
  return { payment: row ?? (await reread(deps, p.id)), balanceMicros };
}

async function reread(deps: RefundDeps, id: string): Promise<PaymentRow> {
  const [row] = await deps.db.select().from(payments).where(eq(payments.id, id));
  if (!row) throw notFound();
  return row;
}

const claimFree = () => or(isNull(payments.claimedUntil), lte(payments.claimedUntil, sql`now()`));

/**
 * A pending refund tried again: claimed (one attempt at a time), then the gateway is asked
 * whether the money went back. Went back: completed. Still paid: the refund is sent again (the
 * gateway never refunds beyond what was paid). No usable answer: it stays pending.
 */
async function retryRefund(deps: RefundDeps, p: PaymentRow): Promise<RefundOutcome> {
  const gateway = refunderOf(deps, p);
  if (!gateway) throw new AppError('PAYMENT_NOT_REFUNDABLE', 'This payment method cannot give money back to the card.', { reason: 'method', method: p.method });
  const [claimed] = await deps.db
    .update(payments)
    .set({ claimedUntil: sql`now() + make_interval(secs => ${REFUND_CLAIM_SECONDS})` })
    .where(and(eq(payments.id, p.id), eq(payments.refundStatus, 'pending'), claimFree()))
    .returning();
  if (!claimed) throw refusalOf(await reread(deps, p.id));
  let back: WentBack;
  try {
    back = await wentBack(gateway, claimed);
  } catch (err) {
    return stayPending(deps, claimed, err, null);
  }
  if (back.kind === 'all') return complete(deps, claimed, null);
  if (back.kind === 'part') return settlePartial(deps, claimed, back.refundedMinor, null);
  return send(deps, gateway, claimed, null);
}

/**
 * The background pass: every refund left pending for `olderThanMs` (its gateway did not answer)
 * and not being tried now is tried again, as the team's retry does. Returns how many ended
 * completed, failed, partial (flagged, not asked again) and are still pending.
 */
export async function resolvePendingRefunds(deps: RefundDeps, olderThanMs = 5 * 60_000): Promise<{ completed: number; failed: number; partial: number; pending: number }> {
  const due = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.refundStatus, 'pending'), lt(payments.refundRequestedAt, new Date(Date.now() - olderThanMs)), claimFree()))
    .limit(100);
  const counts = { completed: 0, failed: 0, partial: 0, pending: 0 };
  for (const p of due) {
    try {
      const { payment } = await retryRefund(deps, p);
      if (payment.refundStatus === 'completed') counts.completed++;
      else if (payment.refundStatus === 'partial') counts.partial++;
      else counts.pending++;
    } catch (err) {
      if (err instanceof AppError && err.code === 'PAYMENT_REFUND_FAILED') counts.failed++;
      else if (!(err instanceof AppError && err.code === 'PAYMENT_REFUND_IN_PROGRESS')) deps.logger.warn({ err, payment: p.id }, 'pending refund not resolved');
    }
  }
  return counts;
}
