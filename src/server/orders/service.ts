import { createHash, randomInt } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { OrderStats, OrderView } from '../../core/contracts/orders';
import { AppError } from '../../core/errors';
import { normalizeLink } from '../../core/links';
import { assertValidOrderInput, orderParams, placeOrderInputSchema } from '../../core/orderRules';
import { statusesOfCounter, type OrderCounter, type OrderStatus } from '../../core/orderStatus';
import { priceOrder } from '../../core/pricing';
import { findService } from '../catalog';
import type { Db } from '../db/client';
import { orders } from '../db/schema';
import type { Logger } from '../logger';
import { isProviderError, type SmmProvider } from '../providers';
import type { RealtimeHub } from '../realtime';
import { getSettings } from '../settings';
import { crashPoint } from '../faults';
import { debit } from '../wallet';
import { refundOrder, type RefundResult } from './refunds';

export { partialRefundCents } from './refunds';

export type OrderRow = typeof orders.$inferSelect;

export interface OrdersDeps {
  db: Db;
  provider: SmmProvider;
  logger: Logger;
  realtime?: RealtimeHub;
}

export const DEFAULT_REFUSAL_MESSAGE = 'Sifariş verilmədi. Yenidən cəhd edin.';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A random order number: 10 characters of a 32-letter alphabet, about 50 bits. */
export const newOrderNumber = () => `AR-${Array.from({ length: 10 }, () => ALPHABET[randomInt(32)]).join('')}`;

export function toOrderView(o: OrderRow): OrderView {
  return {
    id: o.id,
    number: o.number,
    serviceId: o.serviceId,
    serviceName: o.serviceName,
    platform: o.platform,
    serviceType: o.serviceType,
    link: o.link,
    quantity: o.quantity,
    chargeCents: o.chargeCents,
    refundedCents: o.refundedCents,
    status: o.status,
    startCount: o.startCount,
    currentCount: o.currentCount,
    remains: o.remains,
    comment: o.comment,
    createdAt: o.createdAt.toISOString(),
  };
}

const pgCode = (err: unknown): string | undefined => {
  for (let e: any = err; e; e = e.cause) if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return undefined;
};
const constraintOf = (err: unknown): string | undefined => {
  for (let e: any = err; e; e = e.cause) if (typeof e.constraint === 'string') return e.constraint;
  const text = String((err as any)?.cause?.message ?? (err as any)?.message ?? '');
  return /orders_one_active_per_link|orders_user_idempotency_unique/.exec(text)?.[0];
};

async function notifyOrder(deps: Pick<OrdersDeps, 'realtime'>, o: Pick<OrderRow, 'id' | 'userId' | 'number' | 'status'>) {
  await deps.realtime?.publish(o.userId, { type: 'order', orderId: o.id, number: o.number, status: o.status }).catch(() => {});
}
async function notifyBalance(deps: Pick<OrdersDeps, 'realtime'>, userId: string, balanceCents: number, deltaCents: number) {
  await deps.realtime?.publish(userId, { type: 'balance', balanceCents, deltaCents }).catch(() => {});
}

/**
 * Places an order (docs/rules.md#orders). Everything about price and validity is recomputed here from the
 * server's catalogue and settings. One transaction writes the order as `pending` and debits the
 * balance; only then is the provider called. The same idempotency key replays the first order;
 * the same key with a different body is refused.
 */
export async function placeOrder(deps: OrdersDeps, userId: string, body: unknown): Promise<OrderView> {
  const input = placeOrderInputSchema.parse(body);
  const requestHash = createHash('sha256')
    .update(JSON.stringify([input.serviceId, input.link, input.quantity, Object.entries(input.params).sort()]))
    .digest('hex');

  const replay = async (): Promise<OrderView | null> => {
    const [existing] = await deps.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, input.idempotencyKey)))
      .limit(1);
    if (!existing) return null;
    if (existing.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This request key was used for a different order.');
    return toOrderView(existing);
  };
  const earlier = await replay();
  if (earlier) return earlier;

  const service = await findService(deps.db, input.serviceId);
  if (!service) throw new AppError('SERVICE_NOT_FOUND', 'Service not found.');
  assertValidOrderInput(service, input);
  const params = orderParams(service, input.params);
  const settings = await getSettings(deps.db);
  const { cents } = priceOrder(service.tiers, input.quantity, { serviceFeePercent: settings.service_fee, baseFee: settings.base_fee });
  if (cents <= 0) throw new AppError('VALIDATION_FAILED', 'This service cannot be priced.', { reason: 'price' });
  if (input.expectedTotalCents !== undefined && input.expectedTotalCents !== cents) {
    throw new AppError('PRICE_CHANGED', 'The price has changed since it was shown.', { totalCents: cents });
  }

  let order: OrderRow;
  let balance: number;
  try {
    ({ order, balance } = await deps.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(orders)
        .values({
          number: newOrderNumber(),
          userId,
          serviceId: service.id,
          serviceName: service.name,
          platform: service.platform,
          serviceType: service.type,
          link: input.link,
          linkKey: normalizeLink(input.link),
          quantity: input.quantity,
          params,
          chargeCents: cents,
          idempotencyKey: input.idempotencyKey,
          requestHash,
        })
        .returning();
      const after = await debit(tx, { userId, amountCents: cents, kind: 'order_charge', reference: created!.id });
      return { order: created!, balance: after };
    }));
  } catch (err) {
    if (pgCode(err) === '23505') {
      const constraint = constraintOf(err);
      if (constraint === 'orders_user_idempotency_unique') {
        const again = await replay();
        if (again) return again;
      }
      if (constraint === 'orders_one_active_per_link' || !constraint) {
        throw new AppError('ACTIVE_ORDER_EXISTS', 'Bu URL üçün aktiv sifariş mövcuddur');
      }
    }
    throw err;
  }
  crashPoint('crash-after-debit');
  await notifyBalance(deps, userId, balance, -cents);
  await notifyOrder(deps, order);
  return toOrderView(await submitOrder(deps, order));
}

/**
 * Sends a pending order to the provider exactly once: the order is claimed by setting
 * `submitted_at`, so a request handler and the recovery job never both send it.
 * Accepted → provider id stored. Refused → `error` and a full refund. No answer → `unknown`.
 */
export async function submitOrder(deps: OrdersDeps, order: OrderRow): Promise<OrderRow> {
  const [claimed] = await deps.db
    .update(orders)
    .set({ submittedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending'), sql`${orders.submittedAt} is null`))
    .returning();
  if (!claimed) return (await deps.db.select().from(orders).where(eq(orders.id, order.id)))[0] ?? order;

  try {
    const { providerOrderId } = await deps.provider.add({
      serviceId: claimed.serviceId,
      link: claimed.link,
      quantity: claimed.quantity,
      params: claimed.params,
    });
    const [updated] = await deps.db
      .update(orders)
      .set({ providerOrderId, updatedAt: new Date() })
      .where(eq(orders.id, claimed.id))
      .returning();
    return updated!;
  } catch (err) {
    if (isProviderError(err) && err.kind === 'refused') {
      const message = err.messages.filter(Boolean).join(', ') || DEFAULT_REFUSAL_MESSAGE;
      return failAndRefund(deps, claimed.id, 'error', message);
    }
    // No answer or an unreadable one: the provider may have the order. Never re-send, never
    // refund here; reconciliation settles it from the provider's records.
    deps.logger.warn({ err, order: claimed.id }, 'order submission got no answer');
    const [updated] = await deps.db
      .update(orders)
      .set({ status: 'unknown', comment: 'API cavab vermədi. Yenidən cəhd edin.', updatedAt: new Date() })
      .where(and(eq(orders.id, claimed.id), eq(orders.status, 'pending')))
      .returning();
    if (updated) await notifyOrder(deps, updated);
    return updated ?? claimed;
  }
}

/** Marks an order failed (`error`, `cancelled` …) and refunds what is left of its charge, once. */
export async function failAndRefund(
  deps: OrdersDeps,
  orderId: string,
  status: OrderStatus,
  comment: string,
  /** Checked on the locked row: when it no longer holds (another process changed the order since it was read), nothing happens. */
  onlyIf?: (o: OrderRow) => boolean,
): Promise<OrderRow> {
  const result = await deps.db.transaction(async (tx) => {
    const [o] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!o) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
    if (onlyIf && !onlyIf(o)) return null;
    return refundOrder(tx, o, { reason: comment, set: { status, comment } });
  });
  if (!result) return (await deps.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
  await notifyRefund(deps, result);
  return result.order;
}

/** Tells the owner's open pages about a refund step and the order's new state. */
export async function notifyRefund(deps: Pick<OrdersDeps, 'realtime'>, result: RefundResult): Promise<void> {
  if (result.balanceCents !== null) await notifyBalance(deps, result.order.userId, result.balanceCents, result.refundedCents);
  await notifyOrder(deps, result.order);
}

export async function listOrders(db: Db, userId: string, limit = 200): Promise<OrderView[]> {
  const rows = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt)).limit(limit);
  return rows.map(toOrderView);
}

export async function orderStats(db: Db, userId: string): Promise<OrderStats> {
  const count = (counter: OrderCounter) =>
    sql<number>`count(*) filter (where ${inArray(orders.status, statusesOfCounter(counter))})::int`;
  const [row] = await db
    .select({ total: sql<number>`count(*)::int`, active: count('active'), completed: count('completed'), partial: count('partial'), error: count('error') })
    .from(orders)
    .where(eq(orders.userId, userId));
  return row ?? { total: 0, active: 0, completed: 0, partial: 0, error: 0 };
}
