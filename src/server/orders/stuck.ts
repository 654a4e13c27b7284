import { and, asc, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { delayThresholdMinutes, NO_PROGRESS_STATUSES } from '../../core/orderDelay';
import { serviceFigures } from '../catalog';
import { rowsOf } from '../db/client';
import { orders } from '../db/schema';
import { sqlList } from '../db/sqlList';
import { getSettings } from '../settings';
import { cancelOrders, type CancelOutcome } from './cancels';
import type { OrdersDeps } from './service';

/**
 * Delayed orders (docs/rules.md#delayed-orders). An order the provider accepted (it has a provider
 * id) that still shows no progress — no start seen by the status sync (`started_at`, see `timesOf`
 * in ./sync.ts), a waiting status, no start count, nothing delivered — longer after it was sent
 * than its service usually takes to start (`delayThresholdMinutes` in src/core/orderDelay.ts: the
 * service's 90th percentile of start from its figures, else a default, never below a floor) is
 * flagged once: `delayed_at` and the usual start it passed, `delay_minutes`. Its status stays as
 * it is (statuses and their counters are the sync's); its pages show it delayed until it starts
 * or ends, and the team counts and lists the delayed ones.
 *
 * With `stuck_cancel_after_hours` set, a delayed order still not started that long after it was
 * sent is cancelled at the provider through the one cancel rule (`cancelOrders`, ./cancels.ts),
 * once: `delay_cancel_at` is claimed before the provider is asked, outside any transaction, and
 * the refund follows the provider's answer as for every cancel.
 */

/** How many orders one check flags, and how many it asks the provider to cancel. */
const FLAG_BATCH = 1000;
const CANCEL_BATCH = 100;

/** When the order was sent to the provider (the time it was placed, for orders from before that was kept). */
const sentAt = sql`coalesce(${orders.submittedAt}, ${orders.createdAt})`;

/** Orders flagged delayed and still neither started nor ended: what the team counts and lists. */
export const delayedNow: SQL = sql`(${orders.delayedAt} is not null and ${orders.startedAt} is null and ${orders.status} in (${sqlList(NO_PROGRESS_STATUSES)}))`;

export interface DelayCheck {
  /** The orders flagged by this check. */
  flagged: string[];
  /** The cancels this check asked for, by order id. */
  cancels: Map<string, CancelOutcome>;
}

/** Flags the orders delayed as of `now`, then cancels those past the team's limit. */
export async function checkDelayedOrders(deps: OrdersDeps, now = new Date()): Promise<DelayCheck> {
  const [settings, figures] = await Promise.all([getSettings(deps.db), serviceFigures(deps.db)]);
  const known = [...figures.startP90].map(([s, p90]) => ({ s, m: delayThresholdMinutes(p90, settings) }));
  const fallback = delayThresholdMinutes(null, settings);
  const at = now.toISOString();
  const result = await deps.db.execute(sql`
    with t as (select * from jsonb_to_recordset(${JSON.stringify(known)}::jsonb) as t(s text, m int)),
    due as (
      select o.id, coalesce(t.m, ${fallback}::int) as m
      from ${orders} o left join t on t.s = o.service_id
      where o.status in (${sqlList(NO_PROGRESS_STATUSES)}) and o.provider_order_id is not null
        and o.started_at is null and o.delayed_at is null
        and coalesce(o.start_count, 0) = 0 and (o.remains is null or o.remains >= o.quantity)
        and coalesce(o.submitted_at, o.created_at) <= ${at}::timestamptz - make_interval(mins => coalesce(t.m, ${fallback}::int))
      order by o.created_at
      limit ${sql.raw(String(FLAG_BATCH))}
    )
    update ${orders} o set delayed_at = ${at}::timestamptz, delay_minutes = due.m
    from due
    where o.id = due.id and o.delayed_at is null and o.started_at is null and o.status in (${sqlList(NO_PROGRESS_STATUSES)})
    returning o.id, o.user_id, o.number, o.status`);
  const flagged = rowsOf<{ id: string; user_id: string; number: string; status: (typeof NO_PROGRESS_STATUSES)[number] }>(result);
  if (flagged.length) deps.logger.info({ orders: flagged.length }, 'orders delayed at the provider');
  // The owner's open pages read the order again and show it delayed.
  for (const o of flagged) await deps.realtime?.publish(o.user_id, { type: 'order', orderId: o.id, number: o.number, status: o.status }).catch(() => {});

  const cancels = settings.stuck_cancel_after_hours > 0 ? await cancelDelayed(deps, new Date(now.getTime() - settings.stuck_cancel_after_hours * 3600_000), at) : new Map<string, CancelOutcome>();
  return { flagged: flagged.map((o) => o.id), cancels };
}

/** Claims the delayed orders sent before `sentBefore` that were never cancelled for it, then asks the provider to cancel them. */
async function cancelDelayed(deps: OrdersDeps, sentBefore: Date, at: string): Promise<Map<string, CancelOutcome>> {
  const due = (extra?: SQL) => and(delayedNow, isNotNull(orders.providerOrderId), isNull(orders.delayCancelAt), lte(sentAt, sentBefore), extra);
  const claimed = await deps.db
    .update(orders)
    .set({ delayCancelAt: sql`${at}::timestamptz` })
    .where(due(inArray(orders.id, deps.db.select({ id: orders.id }).from(orders).where(due()).orderBy(asc(orders.createdAt)).limit(CANCEL_BATCH))))
    .returning();
  if (!claimed.length) return new Map();
  const outcomes = await cancelOrders(deps, claimed, 'admin');
  const refused = [...outcomes].filter(([, o]) => 'refused' in o).map(([id, o]) => ({ id, reason: 'refused' in o ? o.refused.message : '' }));
  deps.logger.info({ orders: claimed.length, refused }, 'delayed orders cancelled at the provider');
  return outcomes;
}
