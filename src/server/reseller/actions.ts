import { and, desc, eq, getTableColumns, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { CatalogService } from '../../core/catalog';
import type { OrderActions } from '../../core/contracts/reseller';
import { AppError } from '../../core/errors';
import { isOpenRefill, OPEN_REFILL_STATUSES, refillUntil, type RefillStatus } from '../../core/refill';
import { catalogServices, orderRefills, orders } from '../db/schema';
import type { Db } from '../db/client';
import { groupByProvider, type SmmProvider } from '../providers';
import { cancelRefusal, requestCancel, requestedCancels, toOrderView, type OrderRow, type OrdersDeps } from '../orders';

/**
 * Refills and cancels of orders, asked for by the customer (on the site or through the reseller
 * API) or by an admin. The rules:
 * - refill: the service offers refills, the order is completed, its refill period (counted from
 *   the order) has not ended, and no earlier refill of it is still open;
 * - cancel: the orders feature's rule (`cancelOrders`, src/server/orders/cancels.ts).
 * Provider calls are made outside any transaction.
 */

export type ActionSource = 'site' | 'api' | 'admin';
export type RefillRow = typeof orderRefills.$inferSelect;

/** How often an open refill's state is asked of the provider. */
const REFILL_CHECK_EVERY_MS = 30_000;

type ServiceFlags = Pick<CatalogService, 'refill' | 'refillDays' | 'cancel'>;

async function flagsOf(db: Db, serviceIds: string[]): Promise<Map<string, ServiceFlags>> {
  if (!serviceIds.length) return new Map();
  const rows = await db
    .select({ id: catalogServices.id, refill: catalogServices.refill, refillDays: catalogServices.refillDays, cancel: catalogServices.cancel })
    .from(catalogServices)
    .where(inArray(catalogServices.id, [...new Set(serviceIds)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Why a refill is refused now, or null when it may be asked for. */
function refillRefusal(o: OrderRow, flags: ServiceFlags | undefined, latest: RefillRow | undefined, now = new Date()): string | null {
  if (!flags?.refill) return 'Refill is not available for this service';
  if (o.status !== 'completed' || !o.providerOrderId) return 'Refill is available for completed orders only';
  if (now > refillUntil(o.createdAt, flags.refillDays)) return 'The refill period of this order has ended';
  if (latest && isOpenRefill(latest.status)) return 'A refill of this order is already in progress';
  return null;
}

async function latestRefills(db: Db, orderIds: string[]): Promise<Map<string, RefillRow>> {
  if (!orderIds.length) return new Map();
  const rows = await db.select().from(orderRefills).where(inArray(orderRefills.orderId, orderIds)).orderBy(desc(orderRefills.createdAt), desc(orderRefills.id));
  const out = new Map<string, RefillRow>();
  for (const r of rows) if (!out.has(r.orderId)) out.set(r.orderId, r);
  return out;
}

/** What each order allows now: the history's buttons and marks. */
export async function actionsOf(db: Db, rows: OrderRow[]): Promise<Record<string, OrderActions>> {
  const ids = rows.map((o) => o.id);
  const [flags, refills, cancels] = await Promise.all([flagsOf(db, rows.map((o) => o.serviceId)), latestRefills(db, ids), requestedCancels(db, ids)]);
  const out: Record<string, OrderActions> = {};
  for (const o of rows) {
    const f = flags.get(o.serviceId);
    const latest = refills.get(o.id);
    out[o.id] = {
      viaApi: o.viaApi,
      apiId: o.apiId,
      canRefill: refillRefusal(o, f, latest) === null,
      canCancel: cancelRefusal(o, f?.cancel, cancels.has(o.id)) === null,
      refillUntil: f?.refill && o.status === 'completed' ? refillUntil(o.createdAt, f.refillDays).toISOString() : null,
      refill: latest ? { id: latest.id, status: latest.status, createdAt: latest.createdAt.toISOString() } : null,
      cancelRequested: cancels.has(o.id),
    };
  }
  return out;
}

const pgUnique = (err: unknown): boolean => {
  for (let e: any = err; e; e = e.cause) if (e.code === '23505') return true;
  return false;
};

/**
 * Asks the provider for a refill of one order. The request is written first (one open refill per
 * order, kept by a unique index), then the provider is called; its answer settles the row.
 * Throws REFILL_NOT_ALLOWED with the reason when the rules refuse it or the provider does.
 */
export async function requestRefill(deps: OrdersDeps, order: OrderRow, source: ActionSource): Promise<RefillRow> {
  const flags = (await flagsOf(deps.db, [order.serviceId])).get(order.serviceId);
  const latest = (await latestRefills(deps.db, [order.id])).get(order.id);
  const refusal = refillRefusal(order, flags, latest);
  if (refusal) throw new AppError('REFILL_NOT_ALLOWED', refusal, { reason: refusal });
  let row: RefillRow;
  try {
    [row] = (await deps.db.insert(orderRefills).values({ orderId: order.id, userId: order.userId, source }).returning()) as [RefillRow];
  } catch (err) {
    if (pgUnique(err)) throw new AppError('REFILL_NOT_ALLOWED', 'A refill of this order is already in progress', { reason: 'open' });
    throw err;
  }
  const settle = async (set: Partial<RefillRow>) =>
    (await deps.db.update(orderRefills).set({ ...set, updatedAt: new Date() }).where(eq(orderRefills.id, row.id)).returning())[0]!;
  let result: Awaited<ReturnType<SmmProvider['refill']>>;
  try {
    result = await deps.providers.forOrder(order).client.refill([order.providerOrderId!]);
  } catch (err) {
    deps.logger.warn({ err, order: order.id }, 'refill request got no answer');
    await settle({ status: 'error', providerStatus: 'The provider did not answer' });
    throw new AppError('PROVIDER_NO_ANSWER', 'The provider did not answer.');
  }
  const answer = result === 'unsupported' ? { error: 'Refill is not available for this service' } : result.get(order.providerOrderId!);
  if (!answer || 'error' in answer) {
    const reason = answer?.error ?? 'Refill was not accepted';
    await settle({ status: 'rejected', providerStatus: reason });
    throw new AppError('REFILL_NOT_ALLOWED', reason, { reason });
  }
  return settle({ providerRefillId: answer.refillId, checkedAt: new Date() });
}

/**
 * Asks the provider for the state of open refills (those of `refillIds`, or every open one not
 * checked for a while) and stores it. Provider failures leave the rows as they were.
 */
export async function refreshRefills(deps: OrdersDeps, opts: { refillIds?: number[]; limit?: number } = {}): Promise<number> {
  const due = await deps.db
    .select({ ...getTableColumns(orderRefills), providerId: orders.providerId })
    .from(orderRefills)
    .innerJoin(orders, eq(orders.id, orderRefills.orderId))
    .where(
      and(
        inArray(orderRefills.status, [...OPEN_REFILL_STATUSES]),
        isNotNull(orderRefills.providerRefillId),
        opts.refillIds
          ? inArray(orderRefills.id, opts.refillIds.length ? opts.refillIds : [-1])
          : or(isNull(orderRefills.checkedAt), lt(orderRefills.checkedAt, new Date(Date.now() - REFILL_CHECK_EVERY_MS))),
      ),
    )
    .orderBy(sql`${orderRefills.checkedAt} asc nulls first`)
    .limit(opts.limit ?? 100);
  if (!due.length) return 0;
  // Asked of each provider for the refills of its orders; refill ids are the provider's own.
  const states = new Map<number, { status: RefillStatus; raw: string } | { error: string }>();
  for (const [provider, group] of groupByProvider(deps.providers, due)) {
    let answers: Awaited<ReturnType<SmmProvider['refillStatus']>>;
    try {
      answers = await provider.client.refillStatus(group.map((r) => r.providerRefillId!));
    } catch (err) {
      deps.logger.warn({ err, provider: provider.name }, 'refill status got no answer');
      continue;
    }
    if (answers === 'unsupported') continue;
    for (const r of group) {
      const state = answers.get(r.providerRefillId!);
      if (state) states.set(r.id, state);
    }
  }
  let changed = 0;
  for (const r of due) {
    const state = states.get(r.id);
    if (!state) continue;
    const status: RefillStatus = 'error' in state ? 'error' : state.status;
    const raw = 'error' in state ? state.error : state.raw;
    await deps.db
      .update(orderRefills)
      .set({ status, providerStatus: raw, checkedAt: new Date(), updatedAt: status === r.status ? r.updatedAt : new Date() })
      .where(eq(orderRefills.id, r.id));
    if (status !== r.status) changed++;
  }
  return changed;
}

/** A refill asked for from the site or by the team, told to the owner's open pages. */
export async function refillAndTell(deps: OrdersDeps, o: OrderRow, source: ActionSource) {
  const r = await requestRefill(deps, o, source);
  await deps.realtime?.publish(o.userId, { type: 'order', orderId: o.id, number: o.number, status: o.status }).catch(() => {});
  return { refill: { id: r.id, status: r.status, createdAt: r.createdAt.toISOString() } };
}

/** A cancel asked for from the site or by the team, told to the owner's open pages. */
export async function cancelAndTell(deps: OrdersDeps, o: OrderRow, source: ActionSource) {
  const after = await requestCancel(deps, o, source);
  await deps.realtime?.publish(o.userId, { type: 'order', orderId: o.id, number: o.number, status: after.status }).catch(() => {});
  return toOrderView(after);
}
