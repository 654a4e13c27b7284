import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { ACTIVE_STATUSES } from '../../core/orderStatus';
import { orders } from '../db/schema';
import type { ProviderOrderState } from '../providers';
import { FULL_REFUND_STATUSES, isFullRefundStatus, refundOrder, refundOwedCents } from './refunds';
import { failAndRefund, notifyRefund, submitOrder, type OrderRow, type OrdersDeps } from './service';

/** How long a claimed submission may stay without a provider id before it counts as unanswered. */
const STALE_SUBMISSION_MS = 2 * 60_000;
/** An order that was debited but never claimed for submission (the process died in between). */
const UNSENT_AFTER_MS = 10_000;
/** How long the provider's records get to show an unanswered order before it counts as never received. */
const RECONCILE_GRACE_MS = 10 * 60_000;
/**
 * How long a partial order is still followed: a provider may cancel or refund the rest of a
 * partial order after reporting it, and the customer is owed the difference.
 */
const PARTIAL_FOLLOW_MS = 24 * 3600_000;

/**
 * Pulls the status of active orders (and of orders that turned partial within a day) from the
 * provider in batches and applies it. Final states settle the money through `refundOrder`:
 * cancelled/refunded/error/stopped refund the rest of the charge; partial refunds
 * charge × remains / quantity.
 */
export async function syncOrderStatuses(deps: OrdersDeps, opts: { batch?: number; olderThanMs?: number } = {}): Promise<{ checked: number; changed: number }> {
  const batch = opts.batch ?? 100;
  const cutoff = new Date(Date.now() - (opts.olderThanMs ?? 0));
  const due = await deps.db
    .select()
    .from(orders)
    .where(
      and(
        or(
          inArray(orders.status, [...ACTIVE_STATUSES]),
          and(eq(orders.status, 'partial'), gt(orders.updatedAt, new Date(Date.now() - PARTIAL_FOLLOW_MS))),
        ),
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

/**
 * Applies one provider state to an order; returns whether the order changed (status or refund).
 * A state that settles money (cancelled, refunded, error, stopped, partial) is applied on the
 * locked row and refunds what it is owed beyond what was already refunded, so a duplicated or
 * stale state refunds nothing twice and a later state that owes more (partial, then refunded)
 * refunds the difference. A fully refunded order is never moved back to partial.
 */
export async function applyState(deps: OrdersDeps, order: OrderRow, state: ProviderOrderState): Promise<boolean> {
  const counts = {
    startCount: state.startCount ?? order.startCount,
    currentCount: state.currentCount ?? order.currentCount,
    remains: state.remains ?? order.remains,
    providerStatus: state.raw,
    checkedAt: new Date(),
  };
  if (isFullRefundStatus(state.status) || state.status === 'partial') {
    const result = await deps.db.transaction(async (tx) => {
      const [o] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
      if (!o) return null;
      const status = state.status === 'partial' && isFullRefundStatus(o.status) ? o.status : state.status;
      const remains = state.remains ?? o.remains;
      const owed = Math.min(o.chargeCents, refundOwedCents(o, status, remains));
      if (status === o.status && owed <= o.refundedCents) {
        await tx.update(orders).set({ ...counts, remains }).where(eq(orders.id, o.id));
        return null;
      }
      return refundOrder(tx, o, { reason: `provider: ${state.raw || state.status}`, set: { ...counts, remains, status } });
    });
    if (!result) return false;
    await notifyRefund(deps, result);
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
 *   provider never received it: refunded; the provider cannot list orders → left for an admin;
 * - failed, stopped, refunded or cancelled but still owed part of the charge (written before
 *   refunds were cumulative): the rest is refunded.
 */
export async function reconcileOrders(deps: OrdersDeps, now = new Date()): Promise<{ submitted: number; found: number; refunded: number; waiting: number }> {
  const out = { submitted: 0, found: 0, refunded: 0, waiting: 0 };
  out.refunded += await refundWhatIsOwed(deps);
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

/** Refunds the rest of the charge of final orders that still owe it; returns how many were settled. */
async function refundWhatIsOwed(deps: OrdersDeps): Promise<number> {
  const owed = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(inArray(orders.status, [...FULL_REFUND_STATUSES]), lt(orders.refundedCents, orders.chargeCents)))
    .orderBy(asc(orders.createdAt))
    .limit(100);
  let settled = 0;
  for (const { id } of owed) {
    const result = await deps.db.transaction(async (tx) => {
      const [o] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
      if (!o || !isFullRefundStatus(o.status) || o.refundedCents >= o.chargeCents) return null;
      return refundOrder(tx, o, { reason: `owed for a ${o.status} order`, set: { status: o.status } });
    });
    if (!result) continue;
    settled++;
    await notifyRefund(deps, result);
  }
  return settled;
}
