import { createHash, randomInt, randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { HistoryPage, HistoryQuery, OrderOverview, OrderStats, OrderView } from '../../core/contracts/orders';
import { AppError } from '../../core/errors';
import { normalizeLink } from '../../core/linkKey';
import { delayOf } from '../../core/orderDelay';
import { assertValidOrderInput, orderParams } from '../../core/orderRules';
import { type PlaceOrderInput } from '../../core/contracts/orderInput';
import type { OrderNote, OrderNoteCode } from '../../core/orderNotes';
import { statusesOfCounter, statusesOfHistoryTab, type OrderCounter, type OrderStatus } from '../../core/orderStatus';
import { platformKey } from '../../core/platforms';
import { priceOrder } from '../../core/pricing';
import { announceBalanceSoon } from '../cache';
import { findService } from '../catalog';
import { customerFees } from '../discounts';
import { type Db, preparedStatement, rowsOf } from '../db/client';
import { ledgerEntries, orders, rateLimits, users } from '../db/schema';
import { hitKeySql, rateKey, rateLimitedUntil, takeSlotsSql, type RateCounter, type RateRule } from '../http/rateLimit';
import type { Logger } from '../logger';
import type { ProviderRegistry } from '../providers';
import type { RealtimeHub } from '../realtime';
import { crashPoint } from '../faults';
import { owedRefusal } from '../wallet';
import { refundOrder, type RefundResult } from './refunds';
import { firstRoute, type RouteCandidate } from './routing';

export { partialRefundMicros } from './refunds';

export type OrderRow = typeof orders.$inferSelect;

export interface OrdersDeps {
  db: Db;
  /** Where each order's provider is found (src/server/providers/registry.ts). */
  providers: ProviderRegistry;
  logger: Logger;
  realtime?: RealtimeHub;
}

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A random order number: 10 characters of a 32-letter alphabet, about 50 bits. */
export const newOrderNumber = () => `AR-${Array.from({ length: 10 }, () => ALPHABET[randomInt(32)]).join('')}`;

export function toOrderView(o: OrderRow): OrderView {
  return {
    id: o.id,
    number: o.number,
    serviceId: o.serviceId,
    serviceName: o.serviceName,
    platform: platformKey(o.platform),
    serviceType: o.serviceType,
    link: o.link,
    quantity: o.quantity,
    chargeMicros: o.chargeMicros,
    refundedMicros: o.refundedMicros,
    status: o.status,
    startCount: o.startCount,
    currentCount: o.currentCount,
    remains: o.remains,
    note: noteOf(o),
    delay: delayOf(o),
    createdAt: o.createdAt.toISOString(),
    parentId: o.parentId,
    drip: o.runs === null ? null : { runs: o.runs, runsSent: o.runsSent, intervalMinutes: o.intervalMinutes!, quantityPerRun: o.quantity / o.runs },
  };
}

/** The order's note as pages show it: the code and the provider's message (docs/rules.md#statuses). */
export const noteOf = (o: Pick<OrderRow, 'noteCode' | 'providerMessage'>): OrderNote | null =>
  o.noteCode ? { code: o.noteCode, message: o.providerMessage } : null;

const pgCode = (err: unknown): string | undefined => {
  for (let e: any = err; e; e = e.cause) if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return undefined;
};
const constraintOf = (err: unknown): string | undefined => {
  for (let e: any = err; e; e = e.cause) if (typeof e.constraint === 'string') return e.constraint;
  const text = String((err as any)?.cause?.message ?? (err as any)?.message ?? '');
  return /orders_one_active_per_link|orders_user_idempotency_unique|orders_api_id_unique/.exec(text)?.[0];
};

/** How often an order's insert is tried while the reseller API id it drew is taken. */
export const API_ID_ATTEMPTS = 8;

/**
 * Runs an order's insert again while the reseller API id its row drew (the column's default,
 * `API_ID_DRAW`) is taken, each run drawing anew (docs/decisions/0014). With ids drawn from two
 * billion a second run is rare, a third rarer still. The insert must be one statement or a
 * savepoint, so that a failed run leaves nothing behind.
 */
export async function retryOnTakenApiId<T>(insert: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await insert();
    } catch (err) {
      if (attempt >= API_ID_ATTEMPTS || pgCode(err) !== '23505' || constraintOf(err) !== 'orders_api_id_unique') throw err;
    }
  }
}

export async function notifyOrder(deps: Pick<OrdersDeps, 'realtime'>, o: Pick<OrderRow, 'id' | 'userId' | 'number' | 'status' | 'noteCode' | 'providerMessage'>) {
  const note = o.status === 'error' ? noteOf(o) : null;
  await deps.realtime?.publish(o.userId, { type: 'order', orderId: o.id, number: o.number, status: o.status, ...(note ? { note } : {}) }).catch(() => {});
}
async function notifyBalance(deps: Pick<OrdersDeps, 'realtime'>, userId: string, balanceMicros: number, deltaMicros: number) {
  await deps.realtime?.publish(userId, { type: 'balance', balanceMicros, deltaMicros }).catch(() => {});
}

/** Channel that wakes the submission workers of every instance when orders are accepted. */
export const ORDERS_CHANNEL = 'artim_orders';

const wakers = new WeakMap<Db, () => void>();
/**
 * Accepted orders wake the submission workers: those in this process at once, those of other
 * instances by one NOTIFY per 50 ms at most (a NOTIFY per order would queue the commits of busy
 * writers behind each other). Workers also look on their own every second.
 */
export function enableSubmissionWake(database: { db: Db; notify(channel: string, payload: string): Promise<void> }, local: () => void = () => {}): void {
  let timer: NodeJS.Timeout | null = null;
  wakers.set(database.db, () => {
    local();
    timer ??= setTimeout(() => {
      timer = null;
      void database.notify(ORDERS_CHANNEL, '').catch(() => {});
    }, 50);
  });
}
export const wakeSubmission = (db: Db) => wakers.get(db)?.();

/**
 * Accepts an order: everything about price and validity is recomputed from the server's
 * catalogue and settings, then one statement debits the balance, inserts the order as `pending`
 * (not yet sent to the provider) and writes the ledger entry; then the submission workers are
 * woken and the owner's pages told. The provider is never called here: the submission worker sends it
 * (docs/decisions/0010). Rules: docs/rules.md#orders. The same idempotency key replays the first order; the same key with a
 * different body is refused. The input is the order contract's (`placeOrderInputSchema`), checked by the caller.
 *
 * `counter` is the customer's order counter (`orderCounter`, docs/rate-limits.md): one slot is
 * taken in the same statement, and without one nothing is placed (RATE_LIMITED). `null` only when
 * the caller has taken this order's slot already (a mass order takes all its lines' at once).
 */
export async function placeOrder(deps: OrdersDeps, userId: string, input: PlaceOrderInput, counter: RateCounter | null): Promise<OrderView> {
  return (await placeOrderWithApiId(deps, userId, input, counter)).view;
}

/**
 * A call of the reseller API counted in the order's own statement (its key's `api:key` hit,
 * docs/rate-limits.md): over the rule's limit the call is refused (RATE_LIMITED) and nothing
 * else is taken. `counted` tells the caller whether the statement counted it: an order refused
 * before it (or rolled back with it) counted nothing, and the caller counts the call itself.
 */
export interface CountedCall {
  rule: RateRule;
  subject: string;
  counted: boolean;
}

/** What the placing statement answers (`placingStatement`). */
type PlacedRow = {
  taken: number | string;
  window_ends: Date | string | null;
  created_at: Date | string | null;
  api_id: number | string | null;
  balance_micros: number | string | null;
  calls: number | string | null;
  calls_end: Date | string | null;
};
/** The values one order binds to the placing statement, by placeholder name. */
type PlacingValues = Record<string, unknown>;

const bound = sql.placeholder;
/**
 * The one statement that places an order, in four shapes: with the reseller API call's hit
 * (`call`) or not, with the customer's order counter (`counter`) or not. Each is written once
 * and prepared (`preparedStatement`); an order binds its values by name.
 *
 * One statement is one transaction and one round trip: the API call's hit is counted whatever
 * else happens, and over its limit nothing else is taken; a slot of the customer's order counter
 * is taken (none when none is left); the debit is conditional (no row, no order; none either
 * without the slot), and the order and its ledger entry are written only from the debited row. A
 * slot taken for an order the balance refuses stays taken. The statement runs again if the
 * reseller API id the order drew is taken. Its debit tells the database that the balance change is
 * announced after the commit (`artim.balance_told`: migration 0041, `announceBalanceSoon`), so
 * that orders do not commit one at a time behind a notice each.
 */
const placingStatements = new Map<string, ReturnType<typeof preparedStatement<PlacingValues>>>();
function placingStatement(call: boolean, counter: boolean) {
  const shape = `${call}/${counter}`;
  let statement = placingStatements.get(shape);
  if (!statement) placingStatements.set(shape, (statement = preparedStatement<PlacingValues>(() => placingSql(call, counter))));
  return statement;
}
function placingSql(call: boolean, counter: boolean): SQL {
  const none = sql`select null::int as count, null::timestamptz as reset_at where false`;
  const callAllowed = call ? sql`(select count from api_call) <= ${bound('callLimit')}::bigint` : undefined;
  const counted = { key: bound('counterKey'), windowSeconds: bound('counterWindowSeconds'), limit: bound('counterLimit') };
  return sql`
      with api_call as (
        ${call ? hitKeySql(bound('callKey'), bound('callWindowSeconds'), false) : none}
      ), hit as (
        ${counter ? takeSlotsSql(counted, 1, callAllowed) : none}
      ), debit as (
        update ${users} set balance_micros = balance_micros - ${bound('micros')}::bigint
        where id = ${bound('userId')} and balance_micros >= ${bound('micros')}::bigint
          and ${counter ? sql`exists (select 1 from hit)` : (callAllowed ?? sql`true`)}
          and set_config('artim.balance_told', 'on', true) = 'on'
        returning balance_micros
      ), placed as (
        insert into ${orders} (id, number, user_id, service_id, service_name, platform, service_type, link, link_key, quantity, params, charge_micros, idempotency_key, request_hash,
                               status, runs, interval_minutes, next_run_at, upstream_drip, provider_id, provider_service_id, cost_micros)
        select ${bound('id')}::uuid, ${bound('number')}, ${bound('userId')}, ${bound('serviceId')}, ${bound('serviceName')}, ${bound('platform')}, ${bound('serviceType')}, ${bound('link')}, ${bound('linkKey')},
               ${bound('quantity')}::int, ${bound('params')}::jsonb, ${bound('micros')}::bigint, ${bound('idempotencyKey')}, ${bound('requestHash')},
               ${bound('status')}, ${bound('runs')}::int, ${bound('interval')}::int, case when ${bound('running')}::boolean then now() end, ${bound('upstreamDrip')}::boolean, ${bound('providerId')}::uuid,
               ${bound('providerServiceId')}, ${bound('costMicros')}::bigint
        from debit
        returning created_at, api_id
      ), charged as (
        insert into ${ledgerEntries} (user_id, amount_micros, kind, reference)
        select ${bound('userId')}, -${bound('micros')}::bigint, 'order_charge', ${bound('id')} from placed
        returning id
      )
      select (select count(*) from hit) as taken,
        ${counter ? sql`(select reset_at from ${rateLimits} where key = ${bound('counterKey')})` : sql`null`} as window_ends,
        (select created_at from placed) as created_at, (select api_id from placed) as api_id, (select balance_micros from debit) as balance_micros,
        (select count(*) from charged) as charged, (select count from api_call) as calls, (select reset_at from api_call) as calls_end`;
}

/**
 * `placeOrder`, answering the order's reseller API id (`orders.api_id`) with it, read in the same
 * statement; with `call`, the API call is counted in that statement too.
 */
export async function placeOrderWithApiId(deps: OrdersDeps, userId: string, input: PlaceOrderInput, counter: RateCounter | null, call?: CountedCall): Promise<{ view: OrderView; apiId: number }> {
  const requestHash = createHash('sha256')
    .update(JSON.stringify([input.serviceId, input.link, input.quantity, Object.entries(input.params).sort(), ...(input.runs ? [input.runs, input.interval] : [])]))
    .digest('hex');

  type Placed = { view: OrderView; apiId: number };
  const replay = async (): Promise<Placed | null> => {
    const [existing] = await deps.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, input.idempotencyKey)))
      .limit(1);
    if (!existing) return null;
    if (existing.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This request key was used for a different order.');
    return { view: toOrderView(existing), apiId: existing.apiId };
  };
  // A retried request usually finds its order by failing to insert it again (the key is unique),
  // so the first attempt costs no lookup; a refusal looks for an earlier order before it is final.
  const refuse = async (err: unknown): Promise<Placed> => {
    if (err instanceof AppError) {
      const earlier = await replay();
      if (earlier) return earlier;
    }
    throw err;
  };

  let service: Awaited<ReturnType<typeof findService>>;
  let micros: number;
  // A drip-feed is one parent order for all its runs: `quantity` is per run (checked against the
  // service's bounds), the parent holds the total, and each run costs what one order of
  // `quantity` costs, so every run's share of the charge is exact.
  const runs = input.runs ?? null;
  try {
    service = await findService(deps.db, input.serviceId);
    if (!service) throw new AppError('SERVICE_NOT_FOUND', 'Service not found.');
    assertValidOrderInput(service, input);
    if (runs !== null && !service.dripfeed) throw new AppError('DRIPFEED_NOT_AVAILABLE', 'Drip-feed is not available for this service.');
    // The customer's own price: the site's fees and their discount (docs/rules.md#discounts).
    ({ micros } = priceOrder(service.tiers, input.quantity, await customerFees(deps.db, userId)));
    if (runs !== null) micros *= runs;
    if (micros <= 0) throw new AppError('VALIDATION_FAILED', 'This service cannot be priced.', { reason: 'price' });
    if (input.expectedTotalMicros !== undefined && input.expectedTotalMicros !== micros) {
      throw new AppError('PRICE_CHANGED', 'The price has changed since it was shown.', { totalMicros: micros });
    }
  } catch (err) {
    return refuse(err);
  }
  const params = orderParams(service, input.params);
  const quantity = input.quantity * (runs ?? 1);
  let route: RouteCandidate;
  try {
    route = await firstRoute(deps, service, { quantity: input.quantity, runs, upstreamDrip: false });
  } catch (err) {
    return refuse(err);
  }
  // A drip-feed parent runs (its runs are written on schedule and sent one by one), unless the
  // provider it goes to drip-feeds the service itself: then it waits to be sent whole.
  const upstreamDrip = runs !== null && route.dripFeedWhole;
  const status: OrderStatus = runs === null || upstreamDrip ? 'pending' : 'running';

  const id = randomUUID();
  const number = newOrderNumber();
  let created: PlacedRow | undefined;
  try {
    const values: PlacingValues = {
      micros,
      userId,
      id,
      number,
      serviceId: service.id,
      serviceName: service.name,
      platform: service.platform,
      serviceType: service.type,
      link: input.link,
      linkKey: normalizeLink(input.link),
      quantity,
      params: JSON.stringify(params),
      idempotencyKey: input.idempotencyKey,
      requestHash,
      status,
      runs,
      interval: input.interval ?? null,
      running: status === 'running',
      upstreamDrip,
      providerId: route.provider.id,
      providerServiceId: route.providerServiceId,
      costMicros: route.costMicros,
      ...(call ? { callKey: rateKey(call.rule, call.subject), callWindowSeconds: call.rule.windowSeconds, callLimit: call.rule.limit } : {}),
      ...(counter ? { counterKey: counter.key, counterWindowSeconds: counter.windowSeconds, counterLimit: counter.limit } : {}),
    };
    const result = await retryOnTakenApiId(() => placingStatement(!!call, !!counter)(deps.db, values));
    created = rowsOf<PlacedRow>(result)[0];
    if (call) call.counted = true;
  } catch (err) {
    if (pgCode(err) === '23505') {
      const constraint = constraintOf(err);
      if (constraint === 'orders_user_idempotency_unique') {
        const again = await replay();
        if (again) return again;
      }
      if (constraint === 'orders_one_active_per_link' || !constraint) {
        return refuse(new AppError('ACTIVE_ORDER_EXISTS', 'Bu URL üçün aktiv sifariş mövcuddur'));
      }
    }
    throw err;
  }
  if (call && created?.calls_end && Number(created.calls) > call.rule.limit) return refuse(rateLimitedUntil(new Date(created.calls_end)));
  if (counter && created && Number(created.taken) === 0) {
    // The window as the statement began with it (the one that refused the slot); a window
    // started by a parallel order since then ends within a full window from now.
    const seen = created.window_ends ? new Date(created.window_ends) : null;
    return refuse(rateLimitedUntil(seen && seen.getTime() > Date.now() ? seen : new Date(Date.now() + counter.windowSeconds * 1000)));
  }
  // The balance refused it: an account that owes the shop (a chargeback, docs/decisions/0019) is told so.
  if (!created?.created_at) return refuse((await owedRefusal(deps.db, userId)) ?? new AppError('INSUFFICIENT_BALANCE', 'The balance is not enough.'));
  crashPoint('crash-after-debit');
  announceBalanceSoon(deps.db, userId);
  wakeSubmission(deps.db);
  // Not awaited: the hub sends the events of many orders together, a few milliseconds later.
  void notifyBalance(deps, userId, Number(created.balance_micros), -micros);
  void notifyOrder(deps, { id, userId, number, status, noteCode: null, providerMessage: null });
  const view: OrderView = {
    id,
    number,
    serviceId: service.id,
    serviceName: service.name,
    platform: platformKey(service.platform),
    serviceType: service.type,
    link: input.link,
    quantity,
    chargeMicros: micros,
    refundedMicros: 0,
    status,
    startCount: null,
    currentCount: null,
    remains: null,
    note: null,
    createdAt: new Date(created.created_at).toISOString(),
    parentId: null,
    drip: runs === null ? null : { runs, runsSent: 0, intervalMinutes: input.interval!, quantityPerRun: input.quantity },
  };
  return { view, apiId: Number(created.api_id) };
}

/** Marks an order failed (`error`, `cancelled` …) and refunds what is left of its charge, once. */
export async function failAndRefund(
  deps: OrdersDeps,
  orderId: string,
  status: OrderStatus,
  /** Why, as a note code (docs/rules.md#statuses), and the provider's message behind it, if any. */
  noteCode: OrderNoteCode,
  providerMessage: string | null,
  /** Checked on the locked row: when it no longer holds (another process changed the order since it was read), nothing happens. */
  onlyIf?: (o: OrderRow) => boolean,
): Promise<OrderRow> {
  const result = await deps.db.transaction(async (tx) => {
    const [o] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!o) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
    if (onlyIf && !onlyIf(o)) return null;
    return refundOrder(tx, o, { reason: providerMessage ? `${noteCode}: ${providerMessage}` : noteCode, set: { status, noteCode, providerMessage } });
  });
  if (!result) return (await deps.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
  await notifyRefund(deps, result);
  return result.order;
}

/** Tells the owner's open pages about a refund step and the order's new state. */
export async function notifyRefund(deps: Pick<OrdersDeps, 'realtime'>, result: RefundResult): Promise<void> {
  if (result.balanceMicros !== null) await notifyBalance(deps, result.order.userId, result.balanceMicros, result.refundedMicros);
  await notifyOrder(deps, result.order);
}

export async function listOrders(db: Db, userId: string, limit = 200): Promise<OrderView[]> {
  const rows = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt)).limit(limit);
  return rows.map(toOrderView);
}

/** Orders of the history a page holds. */
export const HISTORY_PAGE_SIZE = 20;

/**
 * One page of the customer's order history (docs/rules.md#screens), newest first: the orders they
 * placed (a drip-feed once, its runs under it), of one tab's statuses, matching the search in the
 * order number, the link or the service's name or id (a run's number finds its drip-feed).
 */
export async function orderHistory(db: Db, userId: string, q: HistoryQuery): Promise<HistoryPage> {
  const conditions: (SQL | undefined)[] = [eq(orders.userId, userId), isNull(orders.parentId)];
  const statuses = statusesOfHistoryTab(q.status);
  if (statuses) conditions.push(inArray(orders.status, statuses));
  if (q.q) {
    const pattern = `%${q.q.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
    conditions.push(
      or(
        ilike(orders.number, pattern),
        ilike(orders.link, pattern),
        ilike(orders.serviceName, pattern),
        eq(orders.serviceId, q.q),
        sql`exists (select 1 from ${orders} as run where run.parent_id = ${orders.id} and run.number ilike ${pattern})`,
      ),
    );
  }
  const where = and(...conditions);
  const [rows, [count]] = await Promise.all([
    db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(HISTORY_PAGE_SIZE).offset((q.page - 1) * HISTORY_PAGE_SIZE),
    db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where),
  ]);
  const drips = rows.filter((o) => o.runs !== null).map((o) => o.id);
  const runs = drips.length ? await db.select().from(orders).where(and(eq(orders.userId, userId), inArray(orders.parentId, drips))).orderBy(orders.createdAt) : [];
  return { orders: rows.map(toOrderView), runs: runs.map(toOrderView), total: count?.n ?? 0, page: q.page, pageSize: HISTORY_PAGE_SIZE };
}

/** The customer's counters: the orders they placed, a drip-feed once (its runs are not orders of their own). */
export async function orderStats(db: Db, userId: string): Promise<OrderStats> {
  const count = (counter: OrderCounter) =>
    sql<number>`count(*) filter (where ${inArray(orders.status, statusesOfCounter(counter))})::int`;
  const [row] = await db
    .select({ total: sql<number>`count(*)::int`, active: count('active'), completed: count('completed'), partial: count('partial'), error: count('error') })
    .from(orders)
    .where(and(eq(orders.userId, userId), isNull(orders.parentId)));
  return row ?? { total: 0, active: 0, completed: 0, partial: 0, error: 0 };
}

/** Orders of the overview, at most: a customer's active orders rarely come near it. */
export const OVERVIEW_ACTIVE_LIMIT = 200;

/**
 * What the dashboard shows first (docs/rules.md#screens), in one answer: the counters, and the
 * orders still active (newest first), against which the order form warns of a link already being
 * served. Both reads run together.
 */
export async function orderOverview(db: Db, userId: string): Promise<OrderOverview> {
  const [stats, active] = await Promise.all([
    orderStats(db, userId),
    db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), inArray(orders.status, statusesOfCounter('active'))))
      .orderBy(desc(orders.createdAt))
      .limit(OVERVIEW_ACTIVE_LIMIT),
  ]);
  return { stats, active: active.map(toOrderView) };
}
