import { and, desc, eq, gte, ilike, inArray, isNotNull, like, lt, or, sql } from 'drizzle-orm';
import { orderIdSchema, type AdminOrdersQuery } from '../../core/contracts/admin';
import { costDifference, marginMicros } from '../../core/margin';
import { statusesOfCounter } from '../../core/orderStatus';
import { AppError } from '../../core/errors';
import type { Db, Tx } from '../db/client';
import { ledgerEntries, orders, providers, users } from '../db/schema';
import { refundOrder, refundParts, refundReferencePattern, type RefundResult } from './refunds';
import { toOrderView, type OrderRow, type OrdersDeps } from './service';
import { delayedNow } from './stuck';
import { applyState } from './sync';

/** What the team does with any customer's order: search, detail, resync, refund and resubmit. */

const PAGE = 50;

/** ORDER_NOT_FOUND unless `id` is an order's id. */
export async function orderById(db: Db | Tx, id: string): Promise<OrderRow> {
  if (!orderIdSchema.safeParse(id).success) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
  const [o] = await db.select().from(orders).where(eq(orders.id, id));
  if (!o) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
  return o;
}

/** Every customer's orders, newest first, 50 a page: a search over number, link and e-mail, and filters. */
export async function searchOrders(db: Db, q: AdminOrdersQuery) {
  const conditions = [];
  if (q.q) {
    const pattern = `%${q.q.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
    conditions.push(or(ilike(orders.number, pattern), ilike(orders.link, pattern), ilike(users.email, pattern)));
  }
  if (q.status) conditions.push(eq(orders.status, q.status as never));
  if (q.platform) conditions.push(eq(orders.platform, q.platform));
  if (q.delayed) conditions.push(delayedNow);
  if (q.funds) conditions.push(and(isNotNull(orders.fundsWaitSince), eq(orders.status, 'pending')));
  if (q.from) conditions.push(gte(orders.createdAt, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) conditions.push(lt(orders.createdAt, new Date(new Date(`${q.to}T00:00:00Z`).getTime() + 86_400_000)));
  const where = conditions.length ? and(...conditions) : undefined;
  const rows = await db
    .select({ order: orders, email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where)
    .orderBy(desc(orders.createdAt))
    .limit(PAGE)
    .offset((q.page - 1) * PAGE);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).innerJoin(users, eq(users.id, orders.userId)).where(where);
  return { total: count?.n ?? 0, page: q.page, pageSize: PAGE, orders: rows.map((r) => ({ ...toOrderView(r.order), userId: r.order.userId, email: r.email, marginMicros: marginMicros(r.order) })) };
}

/**
 * One order with its owner and every ledger entry of its charge and refunds; for a drip-feed
 * parent also its runs' refunds (`runNumber` names the run), their total, and what the team may
 * still refund of the whole (`refundableMicros`, as `refundByStaff` takes it). `cost`: what the
 * order cost (docs/rules.md#what-an-order-cost) — the provider that holds it (null name: the
 * default provider) and its service id there, the cost and what the provider gave back of it, the
 * charge the provider reported with its difference from the cost, and the margin.
 */
export async function orderDetail(db: Db, o: OrderRow) {
  const [u] = await db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, o.userId));
  const provider = o.providerId ? (await db.select({ name: providers.name, protocol: providers.protocol }).from(providers).where(eq(providers.id, o.providerId)))[0] : undefined;
  const parts = await refundParts(db, o, { lock: false });
  const runs = new Map(parts.filter((p) => p.order.id !== o.id).map((p) => [p.order.id, p.order]));
  const entries = await db
    .select()
    .from(ledgerEntries)
    .where(
      or(
        eq(ledgerEntries.reference, o.id),
        ...refundReferencePattern(o.id).map((p) => like(ledgerEntries.reference, p)),
        runs.size
          ? and(eq(ledgerEntries.userId, o.userId), eq(ledgerEntries.kind, 'order_refund'), inArray(sql`split_part(${ledgerEntries.reference}, ':', 1)`, [...runs.keys()]))
          : undefined,
      ),
    )
    .orderBy(ledgerEntries.createdAt);
  return {
    order: {
      ...toOrderView(o),
      userId: o.userId,
      email: u?.email,
      name: u?.name,
      providerOrderId: o.providerOrderId,
      providerStatus: o.providerStatus,
      params: o.params,
      viaApi: o.viaApi,
      apiId: o.apiId,
      submittedAt: o.submittedAt?.toISOString() ?? null,
      checkedAt: o.checkedAt?.toISOString() ?? null,
      runsRefundedMicros: o.runs === null ? null : [...runs.values()].reduce((sum, r) => sum + r.refundedMicros, 0),
      refundableMicros: parts.reduce((sum, p) => sum + p.leftMicros, 0),
    },
    cost: {
      providerId: o.providerId,
      providerName: provider?.name ?? null,
      providerServiceId: o.providerServiceId ?? o.serviceId,
      costMicros: o.costMicros,
      costRefundedMicros: o.costRefundedMicros,
      providerChargeMicros: o.providerChargeMicros,
      difference: costDifference({ ...o, protocol: provider?.protocol }),
      marginMicros: marginMicros(o),
    },
    ledger: entries.map((e) => ({ ...e, createdAt: e.createdAt.toISOString(), runNumber: runs.get(e.reference.split(':')[0]!)?.number ?? null })),
  };
}

/** Asks the provider for the order's state now and applies it. */
export async function resyncOrder(deps: OrdersDeps, o: OrderRow): Promise<OrderRow> {
  if (!o.providerOrderId) throw new AppError('CONFLICT', 'The provider has no id for this order yet.');
  const states = await deps.providers.forOrder(o).client.status([o.providerOrderId]);
  const state = states.get(o.providerOrderId);
  if (!state) throw new AppError('PROVIDER_NO_ANSWER', 'The provider did not answer.');
  if ('error' in state) throw new AppError('PROVIDER_REFUSED', state.error);
  await applyState(deps, o, state);
  return orderById(deps.db, o.id);
}

/**
 * A staff refund inside the caller's transaction: `amountMicros`, or all that is left of the charge
 * (docs/rules.md#wallet). A drip-feed parent's refund is taken from the rows its money is on
 * (`refundParts`): the runs never written, then its runs, each within what it has left, so the
 * parent and its runs never give back more than the parent's charge. A row of unknown state
 * refunded in full is settled as refunded. The result is the order's; `runs` are the runs that
 * gave money back.
 */
export async function refundByStaff(tx: Tx, id: string, input: { amountMicros?: number; reason: string }): Promise<RefundResult & { runs: OrderRow[] }> {
  const [o] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  if (!o) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
  const parts = await refundParts(tx, o, { lock: true });
  const left = parts.reduce((sum, p) => sum + p.leftMicros, 0);
  const amount = input.amountMicros ?? left;
  if (left <= 0 || !Number.isSafeInteger(amount) || amount <= 0 || amount > left) throw new AppError('VALIDATION_FAILED', 'More than what is left of the charge.', { left });
  let rest = amount;
  let order = o;
  let balanceMicros: number | null = null;
  const runs: OrderRow[] = [];
  for (const part of parts) {
    const take = Math.min(rest, part.leftMicros);
    if (take <= 0) continue;
    const p = part.order;
    const status = p.status === 'unknown' && p.refundedMicros + take === p.chargeMicros ? 'refunded' : p.status;
    const step = await refundOrder(tx, p, { amountMicros: take, reason: input.reason, set: { status }, goodwill: true });
    rest -= step.refundedMicros;
    balanceMicros = step.balanceMicros ?? balanceMicros;
    if (p.id === o.id) order = step.order;
    else runs.push(step.order);
    if (rest <= 0) break;
  }
  return { order, refundedMicros: amount - rest, balanceMicros, runs };
}

export type ResubmitStep = { attached: OrderRow; providerOrderId: string } | { reset: OrderRow };

/**
 * Readies an `unknown` order to be sent again, only when the provider's own records confirm it
 * does not have it (otherwise the provider may be delivering it already): an order the provider
 * turns out to have is attached to it and pending; one it does not have is reset to pending,
 * for the caller to submit.
 */
export async function prepareResubmit(deps: OrdersDeps, o: OrderRow): Promise<ResubmitStep> {
  if (o.status !== 'unknown') throw new AppError('CONFLICT', 'Only an order of unknown state can be sent again.');
  const found = await deps.providers.forOrder(o).client.findOrder({ serviceId: o.serviceId, link: o.link, quantity: o.quantity, since: o.submittedAt ?? o.createdAt });
  if (found === 'unsupported') throw new AppError('CONFLICT', 'The provider cannot confirm whether it has this order.');
  if (found) {
    await deps.db.update(orders).set({ providerOrderId: found.providerOrderId, status: 'pending', noteCode: null, providerMessage: null }).where(eq(orders.id, o.id));
    return { attached: await orderById(deps.db, o.id), providerOrderId: found.providerOrderId };
  }
  const [reset] = await deps.db
    .update(orders)
    .set({ status: 'pending', submittedAt: null, noteCode: null, providerMessage: null, updatedAt: new Date() })
    .where(and(eq(orders.id, o.id), eq(orders.status, 'unknown')))
    .returning();
  if (!reset) throw new AppError('CONFLICT', 'The order changed meanwhile.');
  return { reset };
}

/** The admin dashboard's order counts: every order, those still active and those completed (the customers' counters). */
export async function orderCounts(db: Db): Promise<{ total: number; pending: number; completed: number; delayed: number; unknown: number }> {
  const [o] = await db
    .select({
      total: sql<number>`count(*)::int`,
      pending: sql<number>`count(*) filter (where ${inArray(orders.status, statusesOfCounter('active'))})::int`,
      completed: sql<number>`count(*) filter (where ${inArray(orders.status, statusesOfCounter('completed'))})::int`,
      delayed: sql<number>`count(*) filter (where ${delayedNow})::int`,
      unknown: sql<number>`count(*) filter (where ${eq(orders.status, 'unknown')})::int`,
    })
    .from(orders);
  return { total: o?.total ?? 0, pending: o?.pending ?? 0, completed: o?.completed ?? 0, delayed: o?.delayed ?? 0, unknown: o?.unknown ?? 0 };
}

/** The newest orders of every customer, for the admin dashboard. */
export async function latestOrders(db: Db, limit = 5) {
  const rows = await db
    .select({ id: orders.id, number: orders.number, serviceName: orders.serviceName, createdAt: orders.createdAt, chargeMicros: orders.chargeMicros, status: orders.status })
    .from(orders)
    .orderBy(desc(orders.createdAt))
    .limit(limit);
  return rows.map((l) => ({ ...l, createdAt: l.createdAt.toISOString() }));
}
