import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { reportedChargeMicros } from '../../core/margin';
import { ACTIVE_STATUSES, type OrderStatus } from '../../core/orderStatus';
import { orders } from '../db/schema';
import { callsMade, groupByProvider, type ProviderOrderState, type SmmProvider } from '../providers';
import { FULL_REFUND_STATUSES, isFullRefundStatus, refundOrder, refundOwedMicros } from './refunds';
import { failAndRefund, notifyRefund, type OrderRow, type OrdersDeps } from './service';
import { submitOrder } from './submission';

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

/** The longest wait between two status checks of one order. */
const CHECK_EVERY_MAX_MS = 10 * 60_000;

/**
 * Pulls the status of active orders (and of orders that turned partial within a day) from the
 * provider and applies it. Orders are taken oldest-checked first, in pages of `page`, and asked
 * for in the provider's batches (100 ids per call for SMM API v2; the adapter runs several at
 * once). With `olderThanMs` (the recurring job), an order whose status has not moved is asked
 * less often: it waits half as long as it had been in its status at its last check, at least
 * `olderThanMs` and at most 10 minutes; without it every order is due. Final states settle the money through `refundOrder`: cancelled/refunded/error/stopped
 * refund the rest of the charge; partial refunds charge × remains / quantity. States that move no
 * money are written for a whole page in one statement.
 *
 * One call makes one pass over every order due; `limit` caps how many it takes.
 */
export async function syncOrderStatuses(
  deps: OrdersDeps,
  opts: { page?: number; limit?: number; olderThanMs?: number } = {},
): Promise<{ checked: number; changed: number; calls: number }> {
  const page = opts.page ?? 5000;
  const limit = opts.limit ?? Number.MAX_SAFE_INTEGER;
  const minInterval = opts.olderThanMs ?? 0;
  const started = new Date();
  let checked = 0;
  let changed = 0;
  const callsBefore = callsMade(deps.providers);
  const seen = new Set<string>();

  /**
   * The next page of due orders (none of `asking`, the page whose answers are still awaited),
   * with each of its providers asked at once: one slow provider delays only its own orders' answers.
   */
  const nextPage = async (asking: OrderRow[]) => {
    const want = Math.min(page, limit - checked);
    if (want <= 0) return null;
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
          // Not yet checked in this pass, and due by its own back-off.
          or(isNull(orders.checkedAt), lt(orders.checkedAt, started)),
          minInterval > 0
            ? or(
                isNull(orders.checkedAt),
                sql`${orders.checkedAt} <= ${started.toISOString()}::timestamptz - make_interval(secs => least(${CHECK_EVERY_MAX_MS / 1000}::float8, greatest(${minInterval / 1000}::float8, extract(epoch from (${orders.checkedAt} - ${orders.updatedAt})) / 2)))`,
              )
            : undefined,
          asking.length ? sql`${orders.id} <> all(${`{${asking.map((o) => o.id).join(',')}}`}::uuid[])` : undefined,
        ),
      )
      .orderBy(sql`${orders.checkedAt} asc nulls first`, asc(orders.id))
      .limit(want);
    const fresh = due.filter((o) => !seen.has(o.id));
    if (!fresh.length) return null;
    for (const o of fresh) seen.add(o.id);
    checked += fresh.length;
    // Keyed by our order id: each provider is asked for its own orders, whose ids are its own.
    const answers = (async () => {
      const states = new Map<string, ProviderOrderState | { error: string }>();
      let answered = false;
      await Promise.all(
        [...groupByProvider(deps.providers, fresh)].map(async ([provider, group]) => {
          try {
            const got = await provider.client.status(group.map((o) => o.providerOrderId!));
            answered = true;
            for (const o of group) {
              const state = got.get(o.providerOrderId!);
              if (state) states.set(o.id, state);
            }
          } catch (err) {
            deps.logger.warn({ err, provider: provider.name }, 'order status sync got no answer');
          }
        }),
      );
      return { states, answered };
    })();
    // Orders not answered this time (the provider skipped them) are not asked again in this pass:
    // a page that comes back short of them is the last.
    return { fresh, answers, last: fresh.length < want };
  };

  let current = await nextPage([]);
  while (current) {
    // The next page is read and asked for while this one's answers are awaited, so the
    // provider's pace is not left idle between pages (the tail of one page's calls, up to the
    // provider's slowest answer, overlaps the next page's).
    const following = current.last ? null : await nextPage(current.fresh);
    const { states, answered } = await current.answers;
    if (!answered) {
      await following?.answers;
      break;
    }
    const quiet: { order: OrderRow; state: ProviderOrderState | { error: string } }[] = [];
    for (const order of current.fresh) {
      const state = states.get(order.id);
      if (!state) continue;
      if ('error' in state || (state.status === order.status && !isFullRefundStatus(state.status) && state.status !== 'partial')) {
        quiet.push({ order, state });
        continue;
      }
      if (await applyState(deps, order, state)) changed++;
    }
    await writeQuietStates(deps, quiet);
    current = following;
  }
  return { checked, changed, calls: callsMade(deps.providers) - callsBefore };
}

/**
 * Writes, in one statement, the states that change no status and move no money: the counters,
 * the provider's text, the check time and when the order started (a start count or units
 * delivered while the status stays); an unknown id's error becomes the order's note.
 */
async function writeQuietStates(deps: OrdersDeps, quiet: { order: OrderRow; state: ProviderOrderState | { error: string } }[]): Promise<void> {
  if (!quiet.length) return;
  const rows = quiet.map(({ order, state }) =>
    'error' in state
      ? { id: order.id, error: state.error, start: null, current: null, remains: null, raw: null, charge: null, moving: false }
      : { id: order.id, error: null, start: state.startCount, current: state.currentCount, remains: state.remains, raw: state.raw, charge: chargeMicrosOf(deps, order, state), moving: timesOf(order, state, new Date()).startedAt !== undefined },
  );
  const now = new Date().toISOString();
  await deps.db.execute(sql`
    update ${orders} o set
      checked_at = ${now}::timestamptz,
      started_at = case when v.moving and o.started_at is null then ${now}::timestamptz else o.started_at end,
      note_code = case when v.error is null then o.note_code else 'provider_status_error' end,
      provider_message = coalesce(v.error, o.provider_message),
      start_count = coalesce(v.start, o.start_count),
      current_count = coalesce(v.current, o.current_count),
      remains = coalesce(v.remains, o.remains),
      provider_status = coalesce(v.raw, o.provider_status),
      provider_charge_micros = coalesce(v.charge, o.provider_charge_micros)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, error text, start int, current int, remains int, raw text, charge bigint, moving boolean)
    where o.id = v.id`);
}

/** Reported charges not read, by why and currency: each kind is logged once per process. */
const unreadChargesLogged = new Set<string>();

/**
 * The provider's reported charge of an order in micro-dollars (docs/rules.md#what-an-order-cost,
 * `reportedChargeMicros`); null when it reported none or one that cannot be compared (not USD,
 * not an amount), which leaves the stored one as it was and is logged once.
 */
function chargeMicrosOf(deps: Pick<OrdersDeps, 'logger'>, order: Pick<OrderRow, 'id'>, state: ProviderOrderState): number | null {
  const read = reportedChargeMicros(state);
  if (read === null || typeof read === 'number') return read;
  // A currency is a short code: a longer text is cut, so a provider's words cannot grow the set.
  const kind = `${read.unread}:${read.unread === 'currency' ? (state.currency ?? '').toUpperCase().slice(0, 8) : ''}`;
  if (!unreadChargesLogged.has(kind)) {
    unreadChargesLogged.add(kind);
    deps.logger.warn({ order: order.id, charge: state.charge, currency: state.currency }, read.unread === 'currency' ? 'provider charge not in USD: not stored' : 'provider charge is not an amount: not stored');
  }
  return null;
}

/** Statuses that say the provider is working on the order. */
const MOVING_STATUSES: readonly OrderStatus[] = ['in_progress', 'active', 'running', 'partial', 'completed'];
/** Statuses that end the delivery: the order completed (in full, or in part). */
const DONE_STATUSES: readonly OrderStatus[] = ['partial', 'completed'];

/**
 * Whether a provider state shows the order moving: a working or finished status, a start count
 * above zero (panels show 0 while the order waits), or units delivered.
 */
export function showsProgress(order: Pick<OrderRow, 'quantity'>, state: Pick<ProviderOrderState, 'status' | 'startCount' | 'delivered' | 'remains'>): boolean {
  return (
    MOVING_STATUSES.includes(state.status) ||
    (state.startCount ?? 0) > 0 ||
    (state.delivered ?? 0) > 0 ||
    (state.remains !== null && state.remains < order.quantity)
  );
}

type Timed = Pick<OrderRow, 'quantity' | 'status' | 'startCount' | 'remains' | 'startedAt' | 'completedAt'>;

/** Whether the order as last stored already showed progress. */
const storedProgress = (o: Timed) => showsProgress(o, { status: o.status, startCount: o.startCount, delivered: null, remains: o.remains });

/**
 * When the order started and completed (docs/rules.md#service-figures): `started_at` when a state
 * first shows progress that the stored order did not, `completed_at` when a state first makes it
 * completed or partial (an order completed at once starts then too). Each is written once. An
 * order already moving (or finished) when the times began to be recorded keeps null: its start
 * was not seen.
 */
export function timesOf(order: Timed, state: Pick<ProviderOrderState, 'status' | 'startCount' | 'delivered' | 'remains'>, now: Date): { startedAt?: Date; completedAt?: Date } {
  const out: { startedAt?: Date; completedAt?: Date } = {};
  if (!order.startedAt && !storedProgress(order) && showsProgress(order, state)) out.startedAt = now;
  if (!order.completedAt && !DONE_STATUSES.includes(order.status) && DONE_STATUSES.includes(state.status)) out.completedAt = now;
  return out;
}

/**
 * Applies one provider state to an order; returns whether the order changed (status or refund).
 * A state that settles money (cancelled, refunded, error, stopped, partial) is applied on the
 * locked row and refunds what it is owed beyond what was already refunded, so a duplicated or
 * stale state refunds nothing twice and a later state that owes more (partial, then refunded)
 * refunds the difference. A fully refunded order is never moved back to partial.
 */
export async function applyState(deps: OrdersDeps, order: OrderRow, state: ProviderOrderState, now = new Date()): Promise<boolean> {
  const charge = chargeMicrosOf(deps, order, state);
  const counts = {
    ...(charge === null ? {} : { providerChargeMicros: charge }),
    startCount: state.startCount ?? order.startCount,
    currentCount: state.currentCount ?? order.currentCount,
    remains: state.remains ?? order.remains,
    providerStatus: state.raw,
    checkedAt: now,
    ...timesOf(order, state, now),
  };
  if (isFullRefundStatus(state.status) || state.status === 'partial') {
    const result = await deps.db.transaction(async (tx) => {
      const [o] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
      if (!o) return null;
      const status = state.status === 'partial' && isFullRefundStatus(o.status) ? o.status : state.status;
      const remains = state.remains ?? o.remains;
      const owed = Math.min(o.chargeMicros, refundOwedMicros(o, status, remains));
      if (status === o.status && owed <= o.refundedMicros) {
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
    let found: Awaited<ReturnType<SmmProvider['findOrder']>>;
    try {
      found = await deps.providers.forOrder(o).client.findOrder({ serviceId: o.serviceId, link: o.link, quantity: o.quantity, since, excludeIds });
    } catch (err) {
      deps.logger.warn({ err, order: o.id }, 'reconciliation lookup failed');
      out.waiting++;
      continue;
    }
    if (found === 'unsupported') {
      await deps.db
        .update(orders)
        .set({ status: 'unknown', noteCode: 'provider_cannot_confirm', providerMessage: null })
        .where(eq(orders.id, o.id));
      out.waiting++;
    } else if (found) {
      excludeIds.push(found.providerOrderId);
      await deps.db
        .update(orders)
        .set({ providerOrderId: found.providerOrderId, status: 'pending', noteCode: null, providerMessage: null, updatedAt: new Date() })
        .where(and(eq(orders.id, o.id), isNull(orders.providerOrderId)));
      out.found++;
    } else if (now.getTime() - since.getTime() > RECONCILE_GRACE_MS) {
      // Refunded only if the order is still unanswered once locked: an admin resync or another
      // process may have matched it to a provider order since it was read.
      const after = await failAndRefund(deps, o.id, 'error', 'provider_never_received', null, (row) => row.providerOrderId === null && (row.status === 'unknown' || row.status === 'pending'));
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
    .where(and(inArray(orders.status, [...FULL_REFUND_STATUSES]), lt(orders.refundedMicros, orders.chargeMicros)))
    .orderBy(asc(orders.createdAt))
    .limit(100);
  let settled = 0;
  for (const { id } of owed) {
    const result = await deps.db.transaction(async (tx) => {
      const [o] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
      if (!o || !isFullRefundStatus(o.status) || o.refundedMicros >= o.chargeMicros) return null;
      return refundOrder(tx, o, { reason: `owed for a ${o.status} order`, set: { status: o.status } });
    });
    if (!result) continue;
    settled++;
    await notifyRefund(deps, result);
  }
  return settled;
}
