import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { cancelNotAllowed } from '../../core/cancel';
import { AppError } from '../../core/errors';
import { ACTIVE_STATUSES, type OrderStatus } from '../../core/orderStatus';
import type { Tx } from '../db/client';
import { orders } from '../db/schema';
import { refundCeilingMicros, refundOrder, type RefundResult } from './refunds';
import { newOrderNumber, notifyOrder, notifyRefund, retryOnTakenApiId, wakeSubmission, type OrderRow, type OrdersDeps } from './service';

/**
 * Drip-feed: one parent order, charged up front for all its runs, whose runs are child orders
 * written on schedule and sent through the ordinary submission pipeline.
 *
 * - The parent (`runs` set, status `running`) is never sent to the provider itself.
 * - A run is written by `startDueRuns`: the due parent is locked with `FOR UPDATE SKIP LOCKED`
 *   (other instances skip it), the child inserted as `pending` with the idempotency key
 *   `drip:<parent id>:<run>` (unique per customer, so a run can never be written twice; a
 *   customer's key never contains `:`) and the parent's `runs_sent`/`next_run_at` advanced, in
 *   one transaction without any network call. `runs_sent` only counts rows written. The
 *   submission worker then sends the child like any order.
 * - A child carries its share of the parent's charge (`charge / runs`) but no charge of its own
 *   in the ledger: the parent's charge paid for it. A child the provider refuses, or that ends
 *   partial, is refunded within its share through `refundOrder` like any order; the parent's own
 *   row only ever gives back the shares of runs never written (refunds.ts), so the parent and
 *   its runs never give back more than the parent's charge.
 * - Cancelling the parent stops the schedule and refunds the runs not yet written (their shares)
 *   through `refundOrder`; runs already written go on (each may be cancelled on its own).
 * - Once every run is written (or the schedule was cancelled) and every run is final, the parent
 *   settles: `completed` when every run completed, `partial` otherwise. The parent never takes a
 *   full-refund status with money given back through its runs, so reconciliation never refunds
 *   it twice; a parent cancelled before any run was written is `cancelled` with its whole charge
 *   back.
 */

/** How long a drip-feed "minute" is: 60 000 ms, shorter in tests (DRIP_FEED_MINUTE_MS). */
export const DEFAULT_DRIP_MINUTE_MS = 60_000;

/** The share of a parent's charge that one run carries (exact: a run costs one order of its quantity). */
export const runShareMicros = (parent: Pick<OrderRow, 'chargeMicros' | 'runs'>) => parent.chargeMicros / parent.runs!;

/**
 * The idempotency key of a parent's run: with `:`, which a customer's key never contains
 * (docs/rules.md#orders), so no order a customer places can take a run's key.
 */
export const dripRunKey = (parentId: string, run: number) => `drip:${parentId}:${run}`;

/**
 * Writes the runs that are due (at most `limit`), each exactly once across every instance.
 * Returns how many were written; the submission workers are woken when any was. A run counts as
 * sent only when its row was written: should its key be taken by an order that is not that run,
 * nothing is counted, the schedule stops there and the runs not written are refunded, so the
 * parent still settles.
 */
export async function startDueRuns(deps: Pick<OrdersDeps, 'db' | 'realtime' | 'logger'>, opts: { minuteMs?: number; limit?: number } = {}): Promise<number> {
  const minuteMs = opts.minuteMs ?? DEFAULT_DRIP_MINUTE_MS;
  const { written, stopped } = await deps.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(orders)
      .where(and(isNotNull(orders.nextRunAt), lte(orders.nextRunAt, sql`now()`), eq(orders.status, 'running')))
      .orderBy(orders.nextRunAt)
      .limit(opts.limit ?? 50)
      .for('update', { skipLocked: true });
    const out: { id: string; userId: string; number: string; parent: OrderRow }[] = [];
    const halted: RefundResult[] = [];
    for (const p of due) {
      const run = p.runsSent + 1;
      const perRun = p.quantity / p.runs!;
      // A run written already is skipped (its key is taken); a drawn API id that is taken is
      // drawn again, in a savepoint so the rest of the transaction goes on.
      const key = dripRunKey(p.id, run);
      const [child] = await retryOnTakenApiId(() =>
        tx.transaction((sp) =>
          sp
            .insert(orders)
            .values({
              number: newOrderNumber(),
              userId: p.userId,
              serviceId: p.serviceId,
              serviceName: p.serviceName,
              platform: p.platform,
              serviceType: p.serviceType,
              link: p.link,
              linkKey: p.linkKey,
              quantity: perRun,
              params: p.params,
              chargeMicros: runShareMicros(p),
              idempotencyKey: key,
              requestHash: p.requestHash,
              parentId: p.id,
              providerId: p.providerId,
              providerServiceId: p.providerServiceId,
              costMicros: p.costMicros === null ? null : p.costMicros / p.runs!,
            })
            .onConflictDoNothing({ target: [orders.userId, orders.idempotencyKey] })
            .returning({ id: orders.id, number: orders.number }),
        ),
      );
      if (!child) {
        // Nothing written. The run itself holds the key only if it was written and not counted.
        const [holder] = await tx.select({ parentId: orders.parentId }).from(orders).where(and(eq(orders.userId, p.userId), eq(orders.idempotencyKey, key)));
        if (holder?.parentId !== p.id) {
          deps.logger.error({ parent: p.id, run, key }, 'a drip-feed run could not be written: its key is taken; the schedule stops');
          halted.push(await stopSchedule(tx, p, `drip-feed stopped: run ${run} of ${p.runs} could not be written`));
          continue;
        }
      }
      const [parent] = await tx
        .update(orders)
        .set({
          runsSent: run,
          nextRunAt: run < p.runs! ? new Date(Date.now() + p.intervalMinutes! * minuteMs) : null,
          updatedAt: new Date(),
        })
        .where(eq(orders.id, p.id))
        .returning();
      if (child) out.push({ ...child, userId: p.userId, parent: parent! });
    }
    return { written: out, stopped: halted };
  });
  for (const result of stopped) await notifyRefund(deps, result);
  if (written.length) {
    wakeSubmission(deps.db);
    for (const w of written) {
      void notifyOrder(deps, { id: w.id, userId: w.userId, number: w.number, status: 'pending', noteCode: null, providerMessage: null });
      void notifyOrder(deps, w.parent);
    }
  }
  return written.length;
}

/**
 * Stops a locked parent's schedule and refunds what the runs never written are still owed; a
 * parent with no run written is cancelled with its whole charge back.
 */
async function stopSchedule(tx: Tx, p: OrderRow, reason: string): Promise<RefundResult> {
  const [stopped] = await tx.update(orders).set({ nextRunAt: null, updatedAt: new Date() }).where(eq(orders.id, p.id)).returning();
  if (p.runsSent === 0) return refundOrder(tx, stopped!, { reason, set: { status: 'cancelled', noteCode: 'cancelled_before_runs', providerMessage: null } });
  const owed = refundCeilingMicros(stopped!) - stopped!.refundedMicros;
  return refundOrder(tx, stopped!, { amountMicros: owed > 0 ? owed : undefined, reason, set: { remains: (p.runs! - p.runsSent) * (p.quantity / p.runs!) } });
}

const ACTIVE = [...ACTIVE_STATUSES, 'unknown'] as readonly string[];

/**
 * Settles parents whose runs are all written (or whose schedule was cancelled) and final:
 * `completed` when every run completed, `partial` otherwise, with `remains` the quantity not
 * delivered. Returns how many were settled.
 */
export async function settleDripParents(deps: Pick<OrdersDeps, 'db' | 'realtime'>, limit = 100): Promise<number> {
  const parents = await deps.db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'running'), isNotNull(orders.runs), isNull(orders.nextRunAt)))
    .limit(limit);
  let settled = 0;
  for (const p of parents) {
    const runs = await deps.db.select().from(orders).where(eq(orders.parentId, p.id));
    if (runs.length < p.runsSent || runs.some((r) => ACTIVE.includes(r.status))) continue;
    const perRun = p.quantity / p.runs!;
    const notDelivered = (p.runs! - runs.length) * perRun + runs.reduce((sum, r) => sum + undelivered(r), 0);
    const status: OrderStatus = runs.length === p.runs && runs.every((r) => r.status === 'completed') ? 'completed' : 'partial';
    const [after] = await deps.db
      .update(orders)
      .set({ status, remains: notDelivered, updatedAt: new Date(), completedAt: new Date() })
      .where(and(eq(orders.id, p.id), eq(orders.status, 'running'), isNull(orders.nextRunAt)))
      .returning();
    if (after) {
      settled++;
      await notifyOrder(deps, after);
    }
  }
  return settled;
}

function undelivered(run: OrderRow): number {
  if (run.status === 'completed') return 0;
  if (run.status === 'partial') return Math.min(run.quantity, Math.max(0, run.remains ?? 0));
  return run.quantity;
}

/**
 * Cancels a drip-feed parent: no more runs are written and the runs not yet written are
 * refunded (their shares of the charge). Refused once every run was written.
 */
export async function cancelDripFeed(deps: OrdersDeps, parentId: string): Promise<OrderRow> {
  const result: RefundResult = await deps.db.transaction(async (tx) => {
    const [p] = await tx.select().from(orders).where(eq(orders.id, parentId)).for('update');
    if (!p || p.runs === null) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
    if (p.nextRunAt === null || p.status !== 'running') {
      throw cancelNotAllowed('drip_sent');
    }
    return stopSchedule(tx, p, `drip-feed cancelled: ${p.runs - p.runsSent} of ${p.runs} runs not sent`);
  });
  await notifyRefund(deps, result);
  return result.order;
}
