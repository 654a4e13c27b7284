import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { ORDER_NOTE_CODES, type OrderNoteCode } from '../../../core/orderNotes';
import { FINAL_STATUSES, ORDER_STATUSES, UNSETTLED_STATUSES, type OrderStatus } from '../../../core/orderStatus';
import { sqlList } from '../sqlList';
import { users } from './auth';
import { providers } from './providers';

/**
 * Reseller API ids of new orders (docs/decisions/0014-reseller-order-ids.md): the column's default
 * draws each one at random from [API_ID_MIN, API_ID_MAX], from 48 random bits of a UUID, so two ids
 * a reseller holds say nothing of how many orders the shop took between them, and every id fits an
 * INT column. A drawn id that is taken fails the unique index and the insert is run again, drawing
 * anew (`retryOnTakenApiId` in orders/service.ts). Orders from before keep their sequential ids.
 */
export const API_ID_MIN = 100_000_000;
export const API_ID_MAX = 2_147_483_647;
export const API_ID_DRAW = sql.raw(`(${API_ID_MIN} + ('x' || translate(left(gen_random_uuid()::text, 13), '-', ''))::bit(48)::bigint % ${API_ID_MAX - API_ID_MIN + 1})`);

/**
 * Customer orders. The row is written (with the debit) before the provider is called, so it is
 * also the outbox: a `pending` order without a provider id is still to be submitted.
 * `number` is the order number customers see and track: random, never sequential.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    serviceId: text('service_id').notNull(),
    serviceName: text('service_name').notNull(),
    platform: text('platform').notNull(),
    serviceType: text('service_type').notNull(),
    link: text('link').notNull(),
    /** Normalized link, for the one-active-order-per-link rule. */
    linkKey: text('link_key').notNull(),
    quantity: integer('quantity').notNull(),
    params: jsonb('params').$type<Record<string, string>>().notNull().default({}),
    chargeMicros: bigint('charge_micros', { mode: 'number' }).notNull(),
    refundedMicros: bigint('refunded_micros', { mode: 'number' }).notNull().default(0),
    status: text('status', { enum: ORDER_STATUSES }).$type<OrderStatus>().notNull().default('pending'),
    /** The provider that holds the order; null: the default provider (docs/decisions/0016). */
    providerId: uuid('provider_id').references(() => providers.id, { onDelete: 'restrict' }),
    /**
     * What the order is bought as at its provider (docs/decisions/0017): the provider's service id
     * (null: the order's own `service_id`, orders from before), what it costs the shop at that
     * provider's price when it was routed (null: not known, orders from before), how much of that
     * the provider gives back (its refunds, cancels and partials; raised with the customer's
     * refunds, never by the team's goodwill), and the charge the provider's status reported.
     */
    providerServiceId: text('provider_service_id'),
    costMicros: bigint('cost_micros', { mode: 'number' }),
    costRefundedMicros: bigint('cost_refunded_micros', { mode: 'number' }).notNull().default(0),
    providerChargeMicros: bigint('provider_charge_micros', { mode: 'number' }),
    providerOrderId: text('provider_order_id'),
    /**
     * Waiting for a provider with money (docs/rules.md#provider-funds): since when (null: not
     * waiting), and when it is next tried; it is not claimed before then.
     */
    fundsWaitSince: timestamp('funds_wait_since', { withTimezone: true }),
    fundsRetryAt: timestamp('funds_retry_at', { withTimezone: true }),
    providerStatus: text('provider_status'),
    startCount: integer('start_count'),
    currentCount: integer('current_count'),
    remains: integer('remains'),
    /** Why the order failed or waits, as a code pages word in the reader's language (docs/rules.md#statuses). */
    noteCode: text('note_code', { enum: ORDER_NOTE_CODES }).$type<OrderNoteCode>(),
    /** The provider's message behind the note, as it sent it (never translated). */
    providerMessage: text('provider_message'),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    /**
     * When the provider first showed the order moving (in progress, a start count, units delivered,
     * partial or completed) and when it completed (completed or partial), as the status sync saw
     * them. Null for orders from before they were recorded (migration 0020 guesses nothing).
     */
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * Delayed (docs/rules.md#delayed-orders, src/server/orders/stuck.ts): when an order the
     * provider accepted was found with no progress past its service's usual start, and that usual
     * start in minutes as it was then. Written once; the order stops being shown as delayed when it
     * starts or ends. `delay_cancel_at`: when the shop asked the provider to cancel it for its
     * delay (once, past the `stuck_cancel_after_hours` setting).
     */
    delayedAt: timestamp('delayed_at', { withTimezone: true }),
    delayMinutes: integer('delay_minutes'),
    delayCancelAt: timestamp('delay_cancel_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The order's id in the reseller API (`/api/v2`): an integer, as the protocol's clients expect, drawn at random (API_ID_DRAW). */
    apiId: bigint('api_id', { mode: 'number' }).notNull().default(API_ID_DRAW),
    /**
     * Placed through the reseller API: its orders carry an idempotency key of the form `api_…`,
     * which a customer's own key may not begin with (`SERVER_KEY_PREFIXES`, src/core/orderRules.ts).
     */
    viaApi: boolean('via_api').notNull().generatedAlwaysAs(sql`left(idempotency_key, 4) = 'api_'`),
    /**
     * Drip-feed: a parent order has `runs` (its `quantity` is the total,
     * `quantity / runs` per run) and is charged for all of them; it is never sent itself. Its runs
     * are child orders (`parent_id`) written on schedule: `runs_sent` counts those written and
     * `next_run_at` is when the next one is due (null once all are written or the parent is
     * cancelled). A parent with `upstream_drip` is the exception: its provider drip-feeds the
     * service itself, so the parent is sent as one drip-feed order (runs and interval) and
     * followed like any order; it has no runs of its own, and `runs_sent` is `runs` once the
     * provider took it.
     */
    parentId: uuid('parent_id').references((): AnyPgColumn => orders.id, { onDelete: 'restrict' }),
    runs: integer('runs'),
    intervalMinutes: integer('interval_minutes'),
    runsSent: integer('runs_sent').notNull().default(0),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    upstreamDrip: boolean('upstream_drip').notNull().default(false),
  },
  (t) => [
    uniqueIndex('orders_user_idempotency_unique').on(t.userId, t.idempotencyKey),
    // One active order per customer, platform and link — enforced by the database, so two
    // concurrent requests cannot both pass the check.
    uniqueIndex('orders_one_active_per_link')
      .on(t.userId, t.platform, t.linkKey)
      .where(sql`status in (${sqlList(UNSETTLED_STATUSES)}) and parent_id is null`),
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('orders_api_id_unique').on(t.apiId),
    index('orders_status_idx').on(t.status, t.checkedAt),
    index('orders_funds_wait_idx').on(t.fundsWaitSince).where(sql`funds_wait_since is not null`),
    check('orders_charge_positive', sql`${t.chargeMicros} > 0`),
    index('orders_drip_due_idx').on(t.nextRunAt).where(sql`next_run_at is not null`),
    index('orders_parent_idx').on(t.parentId).where(sql`parent_id is not null`),
    // A service's last finished orders, for its figures (src/server/catalog/quality.ts).
    index('orders_service_finished_idx')
      .on(t.serviceId, t.updatedAt)
      .where(sql`status in (${sqlList(FINAL_STATUSES)}) and provider_order_id is not null and runs is null`),
    // Delayed orders still waiting for their start, for the team's count and list.
    index('orders_delayed_idx')
      .on(t.delayedAt)
      .where(sql`delayed_at is not null and started_at is null`),
    // Later orders on the same link, which end a refill (src/server/reseller/actions.ts).
    index('orders_link_created_idx').on(t.linkKey, t.platform, t.createdAt),
    // A period's orders and their cost (src/server/analytics/figures.ts).
    index('orders_created_idx').on(t.createdAt),
    check('orders_drip_shape', sql`${t.runs} is null or (${t.runs} >= 2 and ${t.intervalMinutes} >= 1 and ${t.quantity} % ${t.runs} = 0 and ${t.runsSent} <= ${t.runs} and ${t.parentId} is null)`),
    check('orders_upstream_drip_shape', sql`not ${t.upstreamDrip} or (${t.runs} is not null and ${t.nextRunAt} is null)`),
    check('orders_cost_refund_bounded', sql`${t.costRefundedMicros} >= 0 and (${t.costMicros} is null or ${t.costRefundedMicros} <= ${t.costMicros})`),
    check('orders_refund_bounded', sql`${t.refundedMicros} >= 0 and ${t.refundedMicros} <= ${t.chargeMicros}`),
    // An order that delivers nothing more (failed, stopped, refunded, cancelled) has its whole
    // charge back: it is never marked so while money is still owed.
    check('orders_refund_settled', sql`${t.status} not in ('error', 'stopped', 'refunded', 'cancelled') or ${t.refundedMicros} = ${t.chargeMicros}`),
    // Such orders written before refunds were cumulative, found and settled by reconciliation.
    index('orders_refund_owed_idx')
      .on(t.createdAt)
      .where(sql`status in ('error', 'stopped', 'refunded', 'cancelled') and refunded_micros < charge_micros`),
  ],
);
