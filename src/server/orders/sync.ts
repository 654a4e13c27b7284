import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { ACTIVE_STATUSES } from '../../core/orderStatus';
import { orders } from '../db/schema';
import type { ProviderOrderState } from '../providers';
import { credit } from '../wallet/ledger';
import { failAndRefund, partialRefundCents, submitOrder, type OrderRow, type OrdersDeps } from './service';

/** How long a claimed submission may stay without a provider id before it counts as unanswered. */
const STALE_SUBMISSION_MS = 2 * 60_000;
/** An order that was debited but never claimed for submission (the process died in between). */
const UNSENT_AFTER_MS = 10_000;
/** How long the provider's records get to show an unanswered order before it counts as never received. */
const RECONCILE_GRACE_MS = 10 * 60_000;

const FULL_REFUND = new Set(['cancelled', 'refunded', 'error', 'stopped']);

/**
 * Pulls the status of active orders from the provider in batches and applies it. Final states
 * settle the money: cancelled/refunded/error/stopped refund the rest of the charge; partial
 * refunds charge × remains / quantity. Every refund is a ledger entry unique per order.
 */
export async function syncOrderStatuses(deps: OrdersDeps, opts: { batch?: number; olderThanMs?: number } = {}): Promise<{ checked: number; changed: number }> {
  const batch = opts.batch ?? 100;
  const cutoff = new Date(Date.now() - (opts.olderThanMs ?? 0));
  const due = await deps.db
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.status, [...ACTIVE_STATUSES]),
        isNotNull(orders.providerOrderId),
        or(isNull(orders.checkedAt), lt(orders.checkedAt, cutoff)),
      ),
    )
    .orderBy(sql`${orders.checkedAt} asc nulls first`)
    .limit(batch * 5);

  let changed = 0;
  for (let i = 0; i < due.length; i += batch) {
    const chunk = due.slice(i, i + batch);
    let states: Map<string, ProviderOrderState | { error: string }>;
    try {
      states = await deps.provider.status(chunk.map((o) => o.providerOrderId!));
    } catch (err) {
      deps.logger.warn({ err }, 'order status sync got no answer');
      break;
    }
    for (const order of chunk) {
      const state = states.get(order.providerOrderId!);
      if (!state) continue;
      if ('error' in state) {
        await deps.db.update(orders).set({ checkedAt: new Date(), comment: state.error }).where(eq(orders.id, order.id));
        continue;
      }
      if (await applyState(deps, order, state)) changed++;
    }
  }
  return { checked: due.length, changed };
}

/** Applies one provider state to an order; returns whether the status changed. */
export async function applyState(deps: OrdersDeps, order: OrderRow, state: ProviderOrderState): Promise<boolean> {
  const counts = {
    startCount: state.startCount ?? order.startCount,
    currentCount: state.currentCount ?? order.currentCount,
    remains: state.remains ?? order.remains,
    providerStatus: state.raw,
    checkedAt: new Date(),
  };
  if (FULL_REFUND.has(state.status)) {
    await deps.db.update(orders).set(counts).where(eq(orders.id, order.id));
    if (order.status === state.status) return false;
    await failAndRefund(deps, order.id, state.status, order.comment ?? '');
    return true;
  }
  if (state.status === 'partial') {
    const result = await deps.db.transaction(async (tx) => {
      const [o] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
      if (!o || o.status === 'partial') return null;
      const refund = Math.min(partialRefundCents(o.chargeCents, counts.remains ?? 0, o.quantity), o.chargeCents - o.refundedCents);
      let balance: number | null = null;
      if (refund > 0) balance = await credit(tx, { userId: o.userId, amountCents: refund, kind: 'order_refund', reference: o.id, note: 'partial' });
      const [updated] = await tx
        .update(orders)
        .set({ ...counts, status: 'partial', refundedCents: o.refundedCents + (balance === null ? 0 : refund), updatedAt: new Date() })
        .where(eq(orders.id, o.id))
        .returning();
      return { order: updated!, balance, refund };
    });
    if (!result) return false;
    if (result.balance !== null) await deps.realtime?.publish(result.order.userId, { type: 'balance', balanceCents: result.balance, deltaCents: result.refund }).catch(() => {});
    await deps.realtime?.publish(result.order.userId, { type: 'order', orderId: result.order.id, number: result.order.number, status: 'partial' }).catch(() => {});
    return true;
  }
  const [updated] = await deps.db
    .update(orders)
    .set({ ...counts, status: state.status, updatedAt: state.status === order.status ? order.updatedAt : new Date() })
    .where(and(eq(orders.id, order.id), inArray(orders.status, [...ACTIVE_STATUSES])))
    .returning();
  if (updated && updated.status !== order.status) {
    await deps.realtime?.publish(updated.userId, { type: 'order', orderId: updated.id, number: updated.number, status: updated.status }).catch(() => {});
    return true;
  }
  return false;
}

/**
 * Settles orders whose fate is not known:
 * - debited but never sent (the process died before submitting): sent now, once;
 * - sent without an answer (`unknown`, or claimed long ago without a provider id): looked up in
 *   the provider's records; found → attached and followed; absent after a grace period → the
 *   provider never received it: refunded; the provider cannot list orders → left for an admin.
 */
export async function reconcileOrders(deps: OrdersDeps, now = new Date()): Promise<{ submitted: number; found: number; refunded: number; waiting: number }> {
  const out = { submitted: 0, found: 0, refunded: 0, waiting: 0 };
  const unsent = await deps.db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'pending'), isNull(orders.submittedAt), lt(orders.createdAt, new Date(now.getTime() - UNSENT_AFTER_MS))))
    .orderBy(asc(orders.createdAt))
    .limit(100);
  for (const o of unsent) {
    await submitOrder(deps, o);
    out.submitted++;
  }

  const staleClaim = new Date(now.getTime() - STALE_SUBMISSION_MS);
  const unanswered = await deps.db
    .select()
    .from(orders)
    .where(
      or(
        eq(orders.status, 'unknown'),
        and(eq(orders.status, 'pending'), isNull(orders.providerOrderId), lt(orders.submittedAt, staleClaim)),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(100);
  if (!unanswered.length) return out;

  const known = await deps.db
    .select({ id: orders.providerOrderId })
    .from(orders)
    .where(and(isNotNull(orders.providerOrderId), sql`${orders.createdAt} > now() - interval '7 days'`));
  const excludeIds = known.map((k) => k.id!);

  for (const o of unanswered) {
    const since = o.submittedAt ?? o.createdAt;
    let found: Awaited<ReturnType<typeof deps.provider.findOrder>>;
    try {
      found = await deps.provider.findOrder({ serviceId: o.serviceId, link: o.link, quantity: o.quantity, since, excludeIds });
    } catch (err) {
      deps.logger.warn({ err, order: o.id }, 'reconciliation lookup failed');
      out.waiting++;
      continue;
    }
    if (found === 'unsupported') {
      await deps.db
        .update(orders)
        .set({ status: 'unknown', comment: 'Provider cannot confirm this order; an admin will check it.' })
        .where(eq(orders.id, o.id));
      out.waiting++;
    } else if (found) {
      excludeIds.push(found.providerOrderId);
      await deps.db
        .update(orders)
        .set({ providerOrderId: found.providerOrderId, status: 'pending', comment: null, updatedAt: new Date() })
        .where(and(eq(orders.id, o.id), isNull(orders.providerOrderId)));
      out.found++;
    } else if (now.getTime() - since.getTime() > RECONCILE_GRACE_MS) {
      // Refunded only if the order is still unanswered once locked: an admin resync or another
      // process may have matched it to a provider order since it was read.
      const after = await failAndRefund(deps, o.id, 'error', 'Sifariş ID alınmadı. Yenidən cəhd edin.', (row) => row.providerOrderId === null && (row.status === 'unknown' || row.status === 'pending'));
      if (after.status === 'error') out.refunded++;
      else out.waiting++;
    } else {
      out.waiting++;
    }
  }
  return out;
}
