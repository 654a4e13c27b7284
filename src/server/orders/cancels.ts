import { and, asc, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import { CANCEL_REFUSAL_TEXT, cancelNotAllowed, type CancelRefusal } from '../../core/cancel';
import { AppError } from '../../core/errors';
import { ACTIVE_STATUSES, isFinalStatus } from '../../core/orderStatus';
import type { Db, Tx } from '../db/client';
import { CANCEL_REQUESTED, CANCEL_RESULT, catalogServices, orderCancels, orders } from '../db/schema';
import { groupByProvider, type SmmProvider } from '../providers';
import { cancelDripFeed } from './dripfeed';
import { refundOrder, type RefundResult } from './refunds';
import { notifyRefund, type OrderRow, type OrdersDeps } from './service';
import { applyState } from './sync';

/**
 * Cancels of orders, asked for by the customer (on the site or through the reseller API) or by
 * the team; one rule for all of them (docs/rules.md#cancel):
 * - an order not yet sent to the provider is cancelled here and refunded in full;
 * - an order being sent right now (claimed by a submission worker, no provider id yet) has its
 *   cancel accepted and kept `waiting`: as soon as the send is answered the worker asks the
 *   provider to cancel it (`sendWaitingCancels`); a send the provider refused is refunded as
 *   every refused order is, and nothing more is asked;
 * - a sent order, when its service allows cancelling and it is still active: the provider is
 *   asked, and the refund of what was not delivered follows the provider's new state through the
 *   same refund rules as every other order (`applyState` → `refundOrder`);
 * - a drip-feed parent stops its schedule while runs are still to come (`cancelDripFeed`).
 * Orders asked for together are asked of the provider together, in its list form (SMM API v2:
 * one `cancel` and one `status` call per 100 orders). No transaction or row lock is held across a
 * provider call: the order row is locked only to decide and record, and the request row
 * (`order_cancels`) is claimed before the call, so each cancel reaches the provider once.
 */

/** How long a cancel may stay `sending` before a process is taken to have died with it. */
const SENDING_STALE_MS = 5 * 60_000;

export type CancelSource = 'site' | 'api' | 'admin';
/** What became of one order's cancel: the order as it is afterwards, or why it was refused. */
export type CancelOutcome = { order: OrderRow } | { refused: AppError };

const notAllowed = cancelNotAllowed;

const unsent = (o: OrderRow) => o.status === 'pending' && o.submittedAt === null && o.providerOrderId === null;
/** Claimed by a submission worker and not answered yet. */
const beingSent = (o: OrderRow) => o.status === 'pending' && o.submittedAt !== null && o.providerOrderId === null;
const isActive = (o: OrderRow) => (ACTIVE_STATUSES as readonly string[]).includes(o.status);

/** Why a cancel is refused now, or null when it may be asked for. `cancellable`: the service's cancel flag. */
export function cancelRefusal(o: OrderRow, cancellable: boolean | undefined, requested: boolean): CancelRefusal | null {
  // A drip-feed parent is cancelled here (its unsent runs refunded) while runs are still to come;
  // one sent whole to a provider that runs it is cancelled as any order.
  if (o.runs !== null && !o.upstreamDrip) return o.status === 'running' && o.nextRunAt !== null ? null : 'drip_sent';
  if (unsent(o)) return null;
  if (!cancellable) return 'not_offered';
  if (!isActive(o) || (!o.providerOrderId && !beingSent(o))) return 'not_active';
  if (requested) return 'requested';
  return null;
}

/** The orders among `orderIds` with a cancel asked for and not refused. */
export async function requestedCancels(db: Db, orderIds: string[]): Promise<Set<string>> {
  if (!orderIds.length) return new Set();
  const rows = await db
    .select({ id: orderCancels.orderId })
    .from(orderCancels)
    .where(and(inArray(orderCancels.orderId, orderIds), inArray(orderCancels.result, CANCEL_REQUESTED)));
  return new Set(rows.map((r) => r.id));
}

async function cancellableServices(db: Db, serviceIds: string[]): Promise<Map<string, boolean>> {
  if (!serviceIds.length) return new Map();
  const rows = await db
    .select({ id: catalogServices.id, cancel: catalogServices.cancel })
    .from(catalogServices)
    .where(inArray(catalogServices.id, [...new Set(serviceIds)]));
  return new Map(rows.map((r) => [r.id, r.cancel]));
}

/**
 * Writes a request for each order as `result`, unless one is already asked for and not refused
 * (then that order is left out). Returns the orders written.
 */
async function claimRequests(db: Db | Tx, orderIds: string[], source: CancelSource, result: string): Promise<Set<string>> {
  if (!orderIds.length) return new Set();
  const rows = await db
    .insert(orderCancels)
    .values(orderIds.map((orderId) => ({ orderId, source, result })))
    .onConflictDoUpdate({
      target: orderCancels.orderId,
      set: { source, result, attempts: sql`${orderCancels.attempts} + 1`, createdAt: sql`now()` },
      setWhere: notInArray(orderCancels.result, CANCEL_REQUESTED),
    })
    .returning({ id: orderCancels.orderId });
  return new Set(rows.map((r) => r.id));
}

/** Records how requests ended, one statement for all. */
async function recordResults(db: Db | Tx, results: { id: string; result: string; providerId?: string | null }[]): Promise<void> {
  if (!results.length) return;
  // `pid`: the provider just asked, when one was (it stays recorded when none was asked this time).
  await db.execute(sql`
    update ${orderCancels} c set result = v.result, provider_id = case when v.asked then v.pid else c.provider_id end
    from jsonb_to_recordset(${JSON.stringify(results.map((r) => ({ ...r, asked: r.providerId !== undefined, pid: r.providerId ?? null })))}::jsonb) as v(id uuid, result text, asked boolean, pid uuid)
    where c.order_id = v.id`);
}

/**
 * An order without a provider id, decided on its locked row: not sent → cancelled and refunded
 * here; being sent → its cancel waits for the send; sent meanwhile → to be asked of the provider.
 */
async function cancelBeforeSent(deps: OrdersDeps, orderId: string, source: CancelSource, cancellable: boolean | undefined): Promise<CancelOutcome | { sent: OrderRow }> {
  type Decided = { kind: 'refunded'; result: RefundResult } | { kind: 'waiting'; order: OrderRow } | { kind: 'sent'; order: OrderRow };
  const decided = await deps.db.transaction(async (tx): Promise<Decided> => {
    const [o] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!o) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
    if (unsent(o)) {
      const refunded = await refundOrder(tx, o, { reason: 'cancelled_before_sending', set: { status: 'cancelled', noteCode: 'cancelled_before_sending', providerMessage: null } });
      await tx
        .insert(orderCancels)
        .values({ orderId: o.id, source, result: CANCEL_RESULT.beforeSending })
        .onConflictDoUpdate({ target: orderCancels.orderId, set: { source, result: CANCEL_RESULT.beforeSending, attempts: sql`${orderCancels.attempts} + 1` } });
      return { kind: 'refunded', result: refunded };
    }
    if (o.providerOrderId !== null) return { kind: 'sent', order: o };
    const refusal = cancelRefusal(o, cancellable, false);
    if (refusal) throw notAllowed(refusal);
    // Written while the row is locked: a worker storing the provider id waits for this
    // transaction, and looks for a waiting cancel only after its own write.
    if (!(await claimRequests(tx, [o.id], source, CANCEL_RESULT.waiting)).size) throw notAllowed('requested');
    return { kind: 'waiting', order: o };
  });
  if (decided.kind === 'refunded') {
    await notifyRefund(deps, decided.result);
    return { order: decided.result.order };
  }
  return decided.kind === 'waiting' ? { order: decided.order } : { sent: decided.order };
}

/**
 * Asks the provider to cancel orders whose requests this process claimed (`sending`), in its list
 * form, records each answer, and applies the new state of those it accepted (one status call),
 * which refunds what was not delivered. No transaction is open across the calls.
 */
async function askProvider(deps: OrdersDeps, claimed: OrderRow[]): Promise<Map<string, CancelOutcome>> {
  const out = new Map<string, CancelOutcome>();
  for (const [provider, group] of groupByProvider(deps.providers, claimed)) {
    for (const [id, outcome] of await askOneProvider(deps, provider.client, group, provider.id)) out.set(id, outcome);
  }
  return out;
}

async function askOneProvider(deps: OrdersDeps, provider: SmmProvider, claimed: OrderRow[], providerId: string | null): Promise<Map<string, CancelOutcome>> {
  const out = new Map<string, CancelOutcome>();
  if (!claimed.length) return out;
  let answers: Awaited<ReturnType<SmmProvider['cancel']>>;
  try {
    answers = await provider.cancel(claimed.map((o) => o.providerOrderId!));
  } catch (err) {
    deps.logger.warn({ err, orders: claimed.length }, 'cancel request got no answer');
    await recordResults(deps.db, claimed.map((o) => ({ id: o.id, result: 'no answer', providerId })));
    for (const o of claimed) out.set(o.id, { refused: new AppError('PROVIDER_NO_ANSWER', 'The provider did not answer.') });
    return out;
  }
  const accepted: OrderRow[] = [];
  const results: { id: string; result: string; providerId: string | null }[] = [];
  for (const o of claimed) {
    const answer = answers === 'unsupported' ? { error: 'Cancel is not available for this service' } : answers.get(o.providerOrderId!);
    if (answer && !('error' in answer)) {
      accepted.push(o);
      results.push({ id: o.id, result: CANCEL_RESULT.accepted, providerId });
      continue;
    }
    const reason = answer?.error ?? CANCEL_REFUSAL_TEXT.provider;
    results.push({ id: o.id, result: reason, providerId });
    out.set(o.id, { refused: notAllowed('provider', reason) });
  }
  await recordResults(deps.db, results);
  if (!accepted.length) return out;
  // The provider's new state settles the money now; the status sync would do it within a minute.
  try {
    const states = await provider.status(accepted.map((o) => o.providerOrderId!));
    for (const o of accepted) {
      const state = states.get(o.providerOrderId!);
      if (state && !('error' in state)) await applyState(deps, o, state);
    }
  } catch (err) {
    deps.logger.warn({ err, orders: accepted.length }, 'status after cancel got no answer; the status sync will settle it');
  }
  const after = await deps.db.select().from(orders).where(inArray(orders.id, accepted.map((o) => o.id)));
  for (const o of after) out.set(o.id, { order: o });
  return out;
}

/**
 * Cancels orders (each read before, by its owner's request or the team's): what each allows is
 * decided as `cancelRefusal` says, the sent ones are asked of the provider together. Returns each
 * order's outcome.
 */
export async function cancelOrders(deps: OrdersDeps, rows: OrderRow[], source: CancelSource): Promise<Map<string, CancelOutcome>> {
  const unique = [...new Map(rows.map((o) => [o.id, o])).values()];
  const out = new Map<string, CancelOutcome>();
  const [cancellable, requested] = await Promise.all([
    cancellableServices(deps.db, unique.map((o) => o.serviceId)),
    requestedCancels(deps.db, unique.map((o) => o.id)),
  ]);
  const atProvider: OrderRow[] = [];
  for (const o of unique) {
    const refusal = cancelRefusal(o, cancellable.get(o.serviceId), requested.has(o.id));
    if (refusal) {
      out.set(o.id, { refused: notAllowed(refusal) });
      continue;
    }
    try {
      if (o.runs !== null && !o.upstreamDrip) {
        const after = await cancelDripFeed(deps, o.id);
        await claimRequests(deps.db, [o.id], source, CANCEL_RESULT.dripStopped);
        out.set(o.id, { order: after });
      } else if (o.providerOrderId === null) {
        const decided = await cancelBeforeSent(deps, o.id, source, cancellable.get(o.serviceId));
        if ('sent' in decided) atProvider.push(decided.sent);
        else out.set(o.id, decided);
      } else {
        atProvider.push(o);
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      out.set(o.id, { refused: err });
    }
  }
  const claimed = await claimRequests(deps.db, atProvider.map((o) => o.id), source, CANCEL_RESULT.sending);
  for (const o of atProvider) if (!claimed.has(o.id)) out.set(o.id, { refused: notAllowed('requested') });
  for (const [id, outcome] of await askProvider(deps, atProvider.filter((o) => claimed.has(o.id)))) out.set(id, outcome);
  return out;
}

/**
 * Cancels one order and returns it as it is afterwards (still `pending` when its cancel waits for
 * its send). Throws CANCEL_NOT_ALLOWED with the reason when refused.
 */
export async function requestCancel(deps: OrdersDeps, order: OrderRow, source: CancelSource): Promise<OrderRow> {
  const outcome = (await cancelOrders(deps, [order], source)).get(order.id)!;
  if ('refused' in outcome) throw outcome.refused;
  return outcome.order;
}

/**
 * Carries out the cancels that wait for a send (of `orderIds`, or every one, with those a dead
 * process left `sending`): a sent order's cancel goes to the provider, in its list form; an order
 * whose claim was given back (it is unsent again) is cancelled here; an order that ended meanwhile
 * (its send refused and refunded) needs none. Orders still on their way, or of unknown fate, keep
 * waiting. Returns how many cancels were settled.
 */
export async function sendWaitingCancels(deps: OrdersDeps, orderIds?: string[]): Promise<number> {
  if (orderIds && !orderIds.length) return 0;
  const stale = new Date(Date.now() - SENDING_STALE_MS);
  const due = await deps.db
    .select({ order: orders, source: orderCancels.source })
    .from(orderCancels)
    .innerJoin(orders, eq(orders.id, orderCancels.orderId))
    .where(
      and(
        orderIds ? inArray(orderCancels.orderId, orderIds) : undefined,
        or(eq(orderCancels.result, CANCEL_RESULT.waiting), orderIds ? undefined : and(eq(orderCancels.result, CANCEL_RESULT.sending), lt(orderCancels.createdAt, stale))),
      ),
    )
    .orderBy(asc(orderCancels.createdAt))
    .limit(orderIds?.length ?? 500);
  let settled = 0;
  const sent: OrderRow[] = [];
  const ended: { id: string; result: string }[] = [];
  for (const { order: o, source } of due) {
    if (o.providerOrderId !== null && isActive(o)) sent.push(o);
    else if (o.providerOrderId !== null || isFinalStatus(o.status)) ended.push({ id: o.id, result: `the order ended (${o.status}) before the cancel was sent` });
    else if (unsent(o)) {
      const outcome = await cancelBeforeSent(deps, o.id, source, true).catch((err: unknown) => {
        if (err instanceof AppError) return null;
        throw err;
      });
      if (outcome && 'sent' in outcome) sent.push(outcome.sent);
      else if (outcome) settled++;
    }
  }
  await recordResults(deps.db, ended);
  settled += ended.length;
  if (!sent.length) return settled;
  // Claimed here, so that the worker and the sweep never both send one.
  const claimed = await deps.db
    .update(orderCancels)
    .set({ result: CANCEL_RESULT.sending, createdAt: new Date() })
    .where(
      and(
        inArray(orderCancels.orderId, sent.map((o) => o.id)),
        or(eq(orderCancels.result, CANCEL_RESULT.waiting), and(eq(orderCancels.result, CANCEL_RESULT.sending), lt(orderCancels.createdAt, stale))),
      ),
    )
    .returning({ id: orderCancels.orderId });
  const ids = new Set(claimed.map((r) => r.id));
  await askProvider(deps, sent.filter((o) => ids.has(o.id)));
  return settled + ids.size;
}
