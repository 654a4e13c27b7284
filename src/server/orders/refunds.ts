import { and, asc, eq } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import { isFinalStatus, type OrderStatus } from '../../core/orderStatus';
import type { Db, Tx } from '../db/client';
import { orders } from '../db/schema';
import { credit } from '../wallet';

type OrderRow = typeof orders.$inferSelect;

/**
 * Refunds of orders: the one place that gives an order's money back.
 *
 * Policy: an order the provider refused, cancelled, refunded,
 * stopped, or never received gets its whole charge back; a partial one gets
 * charge × remains / quantity, rounded down. Refunds are cumulative: `orders.refunded_micros` is the
 * total given back so far, a new state only ever tops it up to what that state is owed, and it
 * never exceeds the charge (also a CHECK of the table). Each step is a ledger entry
 * `order_refund` with the reference `<order id>:<total after the step>`: totals only grow, so
 * every step has its own reference, and a step repeated from the same order state is the same
 * reference and is refused by the ledger's unique `(kind, reference)`.
 *
 * A drip-feed's charge is paid on its parent and split into its runs' shares: each run written
 * carries its share (`charge_micros`) and is refunded on its own row, within that share; the
 * parent's own row gives back only the shares of runs that will never be written (once its
 * schedule has stopped). So what the parent and its runs give back together never exceeds the
 * parent's charge, whichever path refunds them (provider states, reconciliation, cancels, the
 * team). A refund of a drip-feed as a whole (`refundParts`) takes what is left on those rows.
 * A drip-feed the provider runs itself (sent whole, `upstream_drip`) is refunded as one order:
 * charge × remains / quantity of the whole, remains being what the provider did not deliver.
 */

/** Statuses in which the provider delivers nothing more and the whole charge goes back. */
export const FULL_REFUND_STATUSES: readonly OrderStatus[] = ['error', 'stopped', 'refunded', 'cancelled'];
export const isFullRefundStatus = (s: OrderStatus) => FULL_REFUND_STATUSES.includes(s);

/** Refund owed for a partial delivery: charge × remains / quantity, rounded down, remains capped at quantity. */
export function partialRefundMicros(chargeMicros: number, remains: number, quantity: number): number {
  if (quantity <= 0 || remains <= 0) return 0;
  const r = Math.min(remains, quantity);
  return Number((BigInt(chargeMicros) * BigInt(r)) / BigInt(quantity));
}

/** The total an order in `status` is owed back (0 for statuses that settle no money). */
export function refundOwedMicros(order: Pick<OrderRow, 'chargeMicros' | 'quantity'>, status: OrderStatus, remains: number | null): number {
  if (isFullRefundStatus(status)) return order.chargeMicros;
  if (status === 'partial') return partialRefundMicros(order.chargeMicros, remains ?? 0, order.quantity);
  return 0;
}

/**
 * The most `order`'s own row may give back: its charge; for a drip-feed parent, the shares of
 * the runs never written once its schedule has stopped (nothing while runs are still to come).
 * A drip-feed sent whole to a provider that runs it (`upstream_drip`) has no runs: its own row
 * carries its whole charge, and gives back what the provider did not deliver like any order.
 */
export function refundCeilingMicros(order: Pick<OrderRow, 'chargeMicros' | 'runs' | 'runsSent' | 'nextRunAt' | 'upstreamDrip'>): number {
  if (order.runs === null || order.upstreamDrip) return order.chargeMicros;
  if (order.nextRunAt !== null) return 0;
  return (order.runs - order.runsSent) * (order.chargeMicros / order.runs);
}

/** The ledger reference of the refund step that brings an order's refunded total to `totalMicros`. */
export const refundReference = (orderId: string, totalMicros: number) => `${orderId}:${totalMicros}`;
/**
 * LIKE patterns of every refund reference of an order, besides the bare order id that refunds
 * written before refunds were cumulative used (as does the order's charge): the steps above and
 * the admin refunds of that time, `admin-refund:<order id>:<refunded before>`.
 */
export const refundReferencePattern = (orderId: string) => [`${orderId}:%`, `admin-refund:${orderId}:%`];

export interface RefundStep {
  /** Refund this much more (an admin's refund); refused when more than what is left of the charge. */
  amountMicros?: number;
  /** Ledger note: why the money goes back. */
  reason: string;
  /**
   * Columns written in the same statement. When `status` is given, the order's total refund is
   * raised to what that status is owed (with `remains` from here or the order), so an order is
   * never marked refunded, cancelled or partial with money still owed.
   */
  set?: Partial<Pick<OrderRow, 'status' | 'noteCode' | 'providerMessage' | 'startCount' | 'currentCount' | 'remains' | 'providerStatus' | 'checkedAt' | 'providerChargeMicros'>>;
  /**
   * The team gives money back of its own accord (`refundByStaff`): the provider that holds the
   * order gives the shop nothing back for it, so the cost refunded is not raised (`costBackMicros`).
   */
  goodwill?: boolean;
}

/**
 * What the provider has given back of an order's cost once the customer's refunds total
 * `refundedMicros` (docs/decisions/0017): the same share of the cost as of the charge, rounded
 * down (a full refund gives the whole cost back, a partial one cost × remains / quantity), never
 * less than recorded before. A goodwill refund of an order a provider holds raises nothing (an
 * order no provider holds never cost anything, so its refunds give its cost back alike).
 */
export function costBackMicros(
  order: Pick<OrderRow, 'costMicros' | 'costRefundedMicros' | 'chargeMicros' | 'providerOrderId'>,
  refundedMicros: number,
  goodwill = false,
): number {
  if (order.costMicros === null || order.chargeMicros <= 0) return order.costRefundedMicros;
  if (goodwill && order.providerOrderId !== null) return order.costRefundedMicros;
  const share = Number((BigInt(order.costMicros) * BigInt(refundedMicros)) / BigInt(order.chargeMicros));
  return Math.max(order.costRefundedMicros, Math.min(order.costMicros, share));
}

export interface RefundResult {
  order: OrderRow;
  /** Refunded by this step (0 when nothing was owed). */
  refundedMicros: number;
  /** The owner's balance after the step, or null when nothing was refunded. */
  balanceMicros: number | null;
}

/**
 * Refunds what `order` is owed and writes `step.set`, inside the caller's transaction. `order`
 * must have been read `FOR UPDATE` in `tx`; a row changed by someone else meanwhile throws.
 */
export async function refundOrder(tx: Tx, order: OrderRow, step: RefundStep): Promise<RefundResult> {
  const before = order.refundedMicros;
  const ceiling = refundCeilingMicros(order);
  let target = before;
  if (step.amountMicros !== undefined) {
    const left = Math.max(0, ceiling - before);
    if (!Number.isSafeInteger(step.amountMicros) || step.amountMicros <= 0 || step.amountMicros > left) {
      throw new AppError('VALIDATION_FAILED', 'More than what is left of the charge.', { left });
    }
    target = before + step.amountMicros;
  }
  const status = step.set?.status ?? order.status;
  const remains = step.set?.remains !== undefined ? step.set.remains : order.remains;
  target = Math.max(before, Math.min(ceiling, Math.max(target, refundOwedMicros(order, status, remains))));

  const amount = target - before;
  let balanceMicros: number | null = null;
  if (amount > 0) {
    balanceMicros = await credit(tx, { userId: order.userId, amountMicros: amount, kind: 'order_refund', reference: refundReference(order.id, target), note: step.reason });
    // Totals only grow, so this reference cannot exist unless the order row disagrees with the ledger.
    if (balanceMicros === null) throw new Error(`refund ${refundReference(order.id, target)} is in the ledger but not on the order`);
  }
  const [updated] = await tx
    .update(orders)
    .set({ ...step.set, refundedMicros: target, costRefundedMicros: costBackMicros(order, target, step.goodwill), updatedAt: new Date() })
    .where(and(eq(orders.id, order.id), eq(orders.refundedMicros, before)))
    .returning();
  if (!updated) throw new Error(`order ${order.id} changed during its refund; lock it first`);
  return { order: updated, refundedMicros: amount, balanceMicros };
}

/** One row of a refund that may span several: the row and what it may still give back. */
export interface RefundPart {
  order: OrderRow;
  leftMicros: number;
}

/**
 * The rows a refund of `order` as a whole takes from, in the order they are taken, each with
 * what it may still give back: the order itself; for a drip-feed parent, the parent (the runs
 * never written, once the schedule stopped) and then its runs — finished ones first, so the
 * money of runs still under way is taken last — which `lock` locks `FOR UPDATE` (the parent
 * must already be locked by the caller; a run's own refunds lock only the run, so the two never
 * wait on each other in turn). Their sum is the parent's charge less everything given back on
 * the parent and its runs, and less the runs still to be written while the schedule runs.
 */
export async function refundParts(db: Db | Tx, order: OrderRow, opts: { lock: boolean }): Promise<RefundPart[]> {
  const own: RefundPart = { order, leftMicros: Math.max(0, refundCeilingMicros(order) - order.refundedMicros) };
  if (order.runs === null) return [own];
  const query = db.select().from(orders).where(eq(orders.parentId, order.id)).orderBy(asc(orders.createdAt), asc(orders.id));
  const runs = opts.lock ? await query.for('update') : await query;
  const finished = (r: OrderRow) => (isFinalStatus(r.status) ? 0 : 1);
  runs.sort((a, b) => finished(a) - finished(b));
  return [own, ...runs.map((r) => ({ order: r, leftMicros: Math.max(0, r.chargeMicros - r.refundedMicros) }))];
}
