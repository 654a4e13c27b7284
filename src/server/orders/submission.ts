import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { orders } from '../db/schema';
import { isProviderError, isRefusal, type ProviderErrorKind, type ProviderOrderRequest, type RegisteredProvider } from '../providers';
import { markShortOfFunds, waitForFunds } from './funds';
import { moveOnAfter, routeOf, type RouteCandidate } from './routing';
import { failAndRefund, notifyOrder, type OrderRow, type OrdersDeps } from './service';

/**
 * Submission (docs/rules.md#orders): sending accepted orders to their provider, once each, and
 * moving an order to the next provider of its service when one turns it away (routing.ts decides
 * which and when). Placement (service.ts) only writes the order; this file calls providers.
 */

/** What is sent to the provider for an order: a drip-feed sent whole carries its runs and interval, and the quantity of one run. */
export function providerRequestOf(o: Pick<OrderRow, 'serviceId' | 'providerServiceId' | 'link' | 'quantity' | 'params' | 'runs' | 'intervalMinutes' | 'upstreamDrip'>): ProviderOrderRequest {
  const request = { serviceId: o.providerServiceId ?? o.serviceId, link: o.link, quantity: o.quantity, params: o.params };
  if (!o.upstreamDrip || o.runs === null) return request;
  return { ...request, quantity: o.quantity / o.runs, dripFeed: { runs: o.runs, interval: o.intervalMinutes! } };
}

/**
 * Sends a pending order to the provider exactly once: the order is claimed by setting
 * `submitted_at`, so the submission workers of every instance, reconciliation and an admin's
 * resubmission never both send it. See submitClaimed for what the answer does.
 */
export async function submitOrder(deps: OrdersDeps, order: OrderRow): Promise<OrderRow> {
  const [claimed] = await deps.db
    .update(orders)
    .set({ submittedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending'), sql`${orders.submittedAt} is null`))
    .returning();
  if (!claimed) return (await deps.db.select().from(orders).where(eq(orders.id, order.id)))[0] ?? order;
  return submitClaimed(deps, claimed);
}

/**
 * Sends an order this process has claimed to its provider, and on to the next provider of its
 * service while one turns it away (routing.ts). Accepted → the provider's id is stored, with the
 * provider that holds it. Turned away by every provider: refused → `error`, the last provider's
 * message and a full refund; one of them only rate-limited → the claim is given back (nobody took
 * the order) and it waits for its turn again. No answer, or one that cannot be read → `unknown` at
 * the provider that was asked: never re-sent, never moved, never refunded here; reconciliation
 * settles it there.
 */
export async function submitClaimed(
  deps: OrdersDeps,
  claimed: OrderRow,
  /** Stores the provider's id (the worker writes many in one statement); returns the stored row. */
  store?: (orderId: string, providerOrderId: string) => Promise<OrderRow | undefined>,
): Promise<OrderRow> {
  let provider: RegisteredProvider;
  try {
    provider = deps.providers.forOrder(claimed);
  } catch (err) {
    // Its provider cannot be called (its key cannot be opened): nothing was sent. The claim stays,
    // so the worker does not take it again at once; reconciliation settles it as any stale claim.
    deps.logger.error({ err, order: claimed.id, provider: claimed.providerId }, 'the order’s provider cannot be called; nothing was sent');
    return claimed;
  }
  let order = claimed;
  let others: RouteCandidate[] | null = null;
  const turnedAway: ProviderErrorKind[] = [];
  const shortOfFunds: string[] = [];
  for (;;) {
    let providerOrderId: string;
    try {
      ({ providerOrderId } = await provider.client.add(providerRequestOf(order)));
    } catch (err) {
      if (isProviderError(err) && moveOnAfter(err.kind)) {
        turnedAway.push(err.kind);
        if (err.kind === 'no_funds' && provider.id) {
          shortOfFunds.push(provider.id);
          await markShortOfFunds(deps, provider.id);
        }
        others ??= await nextCandidates(deps, order, provider);
        const next = others.shift();
        if (next) {
          const moved = await moveTo(deps, order, next);
          if (!moved) return order;
          deps.logger.info({ order: order.id, from: provider.name, to: next.provider.name, kind: err.kind }, 'order moved to the next provider');
          order = moved;
          provider = next.provider;
          continue;
        }
      }
      return afterFailedSubmission(deps, order, err, turnedAway, shortOfFunds);
    }
    if (store) {
      const stored = await store(order.id, providerOrderId);
      if (stored) await notifyOrder(deps, stored);
      return stored ?? order;
    }
    const [updated] = await deps.db
      .update(orders)
      .set({ providerOrderId, runsSent: sql`case when ${orders.upstreamDrip} then ${orders.runs} else ${orders.runsSent} end`, ...FUNDS_WAIT_OVER, updatedAt: new Date() })
      .where(eq(orders.id, order.id))
      .returning();
    await notifyOrder(deps, updated!);
    return updated!;
  }
}

/** An order sent after waiting for a provider with money waits no more. */
const FUNDS_WAIT_OVER = {
  fundsWaitSince: null,
  fundsRetryAt: null,
  noteCode: sql`case when ${orders.noteCode} = 'awaiting_provider_funds' then null else ${orders.noteCode} end`,
  providerMessage: sql`case when ${orders.noteCode} = 'awaiting_provider_funds' then null else ${orders.providerMessage} end`,
} as const;

/** The providers an order may still move to, in order: its service's route without the one that turned it away. */
async function nextCandidates(deps: OrdersDeps, order: OrderRow, tried: RegisteredProvider): Promise<RouteCandidate[]> {
  const runs = order.upstreamDrip ? order.runs : null;
  const route = await routeOf(deps, { id: order.serviceId, tiers: [], dripfeed: order.upstreamDrip }, { quantity: runs ? order.quantity / runs : order.quantity, runs, upstreamDrip: order.upstreamDrip }, { sourcesOnly: true });
  return route.filter((c) => c.provider !== tried && c.provider.id !== order.providerId);
}

/**
 * Records that the order is now being sent to `next` (its provider, provider service and cost
 * there), before the call, so an unanswered call is settled at the right provider. Only while
 * the order is still this process's claim and no provider holds it; null otherwise (a cancel or
 * the team changed it meanwhile), and nothing is sent.
 */
async function moveTo(deps: OrdersDeps, order: OrderRow, next: RouteCandidate): Promise<OrderRow | null> {
  const [moved] = await deps.db
    .update(orders)
    .set({ providerId: next.provider.id, providerServiceId: next.providerServiceId, costMicros: next.costMicros, updatedAt: new Date() })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending'), isNull(orders.providerOrderId), sql`${orders.submittedAt} is not null`))
    .returning();
  return moved ?? null;
}

async function afterFailedSubmission(
  deps: OrdersDeps,
  claimed: OrderRow,
  err: unknown,
  turnedAway: readonly ProviderErrorKind[],
  /** The providers that said they had no money for it. */
  turnedAwayFor: readonly string[],
): Promise<OrderRow> {
  const kind = isProviderError(err) ? err.kind : null;
  // A provider that only rate-limited it may take it later: nobody holds the order, so it waits.
  if (kind === 'rate_limited' || ((kind === 'refused' || kind === 'no_funds') && turnedAway.includes('rate_limited'))) {
    const [released] = await deps.db
      .update(orders)
      .set({ submittedAt: null })
      .where(and(eq(orders.id, claimed.id), eq(orders.status, 'pending'), isNull(orders.providerOrderId)))
      .returning();
    return released ?? claimed;
  }
  // A provider out of money may take it once topped up: the order waits, charged (funds.ts).
  if (isRefusal(err) && (err.kind === 'no_funds' || turnedAway.includes('no_funds'))) {
    return waitForFunds(deps, claimed, turnedAwayFor);
  }
  if (isRefusal(err)) {
    // The adapter's own words (when the provider gave none) are not the provider's message.
    const message = err.note ? null : err.messages.filter(Boolean).join(', ') || null;
    return failAndRefund(deps, claimed.id, 'error', err.note ?? 'provider_refused', message);
  }
  // No answer or an unreadable one: the provider may have the order. Never re-send, never
  // refund here; reconciliation settles it from the provider's records.
  deps.logger.warn({ err, order: claimed.id }, 'order submission got no answer');
  const [updated] = await deps.db
    .update(orders)
    .set({ status: 'unknown', noteCode: 'provider_no_answer', providerMessage: null, updatedAt: new Date() })
    .where(and(eq(orders.id, claimed.id), eq(orders.status, 'pending')))
    .returning();
  if (updated) await notifyOrder(deps, updated);
  return updated ?? claimed;
}

/**
 * Claims up to `limit` orders waiting to be sent, oldest first, for this process: rows another
 * instance is claiming at the same moment are skipped, not waited for, and a claimed order is
 * never claimed again (its `submitted_at` is set in the same statement).
 */
export async function claimPending(db: Db, limit: number): Promise<OrderRow[]> {
  if (limit <= 0) return [];
  // The waiting rows are picked once, in a materialized step: a subquery under `in (…)` may be
  // run again by the planner and claim more than `limit`.
  const claimed = await db.execute(sql`
    with waiting as materialized (
      select id from ${orders}
      where status = 'pending' and submitted_at is null and provider_order_id is null and (runs is null or upstream_drip)
        and (funds_retry_at is null or funds_retry_at <= now())
      order by created_at
      limit ${limit}
      for update skip locked
    )
    update ${orders} o set submitted_at = now(), updated_at = now()
    from waiting where o.id = waiting.id and o.submitted_at is null
    returning o.*`);
  return rowsOf<Record<string, unknown>>(claimed)
    .map(orderFromRow)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

const ORDER_COLUMNS = Object.entries(getTableColumns(orders));
/** An `orders` row as the driver returns it (column names) → the typed row Drizzle would give. */
function orderFromRow(raw: Record<string, unknown>): OrderRow {
  const out: Record<string, unknown> = {};
  for (const [key, column] of ORDER_COLUMNS) {
    const value = raw[column.name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as OrderRow;
}

/**
 * Stores providers' ids for many orders in one statement: ids handed in within `delayMs` of each
 * other are written together, then `afterWrite` is given the rows written (once the write is
 * committed) before their callers are answered. A process that dies before the write leaves
 * those orders claimed without an id, which reconciliation settles from the provider's records.
 */
export function createProviderIdWriter(db: Db, delayMs = 10, afterWrite?: (rows: OrderRow[]) => Promise<void>) {
  let pending: { id: string; providerOrderId: string; done: (row: OrderRow | undefined) => void; fail: (err: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = async () => {
    timer = null;
    const batch = pending;
    pending = [];
    try {
      const result = await db.execute(sql`
        update ${orders} o set provider_order_id = v.pid, updated_at = now(),
          runs_sent = case when o.upstream_drip then o.runs else o.runs_sent end,
          funds_wait_since = null, funds_retry_at = null,
          note_code = case when o.note_code = 'awaiting_provider_funds' then null else o.note_code end,
          provider_message = case when o.note_code = 'awaiting_provider_funds' then null else o.provider_message end
        from jsonb_to_recordset(${JSON.stringify(batch.map((b) => ({ id: b.id, pid: b.providerOrderId })))}::jsonb) as v(id uuid, pid text)
        where o.id = v.id
        returning o.*`);
      const rows = new Map(rowsOf<Record<string, unknown>>(result).map((r) => [String(r.id), orderFromRow(r)]));
      if (afterWrite) await afterWrite([...rows.values()]);
      for (const b of batch) b.done(rows.get(b.id));
    } catch (err) {
      for (const b of batch) b.fail(err);
    }
  };
  return (id: string, providerOrderId: string) =>
    new Promise<OrderRow | undefined>((done, fail) => {
      pending.push({ id, providerOrderId, done, fail });
      timer ??= setTimeout(() => void flush(), delayMs);
    });
}

