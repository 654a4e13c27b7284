import { bigint, bigserial, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The owner's figures of closed days, kept so that a long period is read from a few rows per day
 * instead of every order and ledger entry (docs/decisions/0021-analytics-rollup.md). They are
 * computed by the same SQL that computes an open day's (src/server/analytics/figures.ts), so a
 * rolled-up day and the rows it summarizes cannot disagree; a change to a closed day's rows marks
 * it stale (the triggers of migration 0032) and it is computed again before it is read.
 */

/** What a row of `analytics_days` is the figures of: the whole day, a status, or one key of a breakdown. */
export const ANALYTICS_DIMENSIONS = ['all', 'status', 'platform', 'service', 'provider', 'customer'] as const;
export type AnalyticsDimension = (typeof ANALYTICS_DIMENSIONS)[number];

/**
 * One closed day's (grain `day`) or closed month's (grain `month`, `day` its first day; breakdowns
 * and statuses only) figures for one dimension and key (`''` for the whole day, and for a missing
 * provider or platform). Amounts in USD micro-dollars and AZN qəpik, as the ledger's.
 */
export const analyticsDays = pgTable(
  'analytics_days',
  {
    dimension: text('dimension', { enum: ANALYTICS_DIMENSIONS }).notNull(),
    grain: text('grain', { enum: ['day', 'month'] }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    key: text('key').notNull(),
    salesMicros: bigint('sales_micros', { mode: 'number' }).notNull(),
    refundsMicros: bigint('refunds_micros', { mode: 'number' }).notNull(),
    costMicros: bigint('cost_micros', { mode: 'number' }).notNull(),
    topUpsMicros: bigint('top_ups_micros', { mode: 'number' }).notNull(),
    topUpsQepik: bigint('top_ups_qepik', { mode: 'number' }).notNull(),
    orders: integer('orders').notNull(),
  },
  (t) => [primaryKey({ columns: [t.dimension, t.grain, t.day, t.key] })],
);

/** The closed days whose figures are in `analytics_days`. */
export const analyticsBuiltDays = pgTable('analytics_built_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The closed months whose figures are in `analytics_days` at grain `month` (every day of them built). */
export const analyticsBuiltMonths = pgTable('analytics_built_months', {
  month: date('month', { mode: 'string' }).primaryKey(),
  builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Closed days whose rows changed after their figures may have been computed: an order of that day
 * changed, or a ledger entry dated that day was written. One row per change (never merged, so a
 * change made while the day is being computed again keeps its mark); the computation removes the
 * marks it read.
 */
export const analyticsStaleDays = pgTable(
  'analytics_stale_days',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [index('analytics_stale_days_day_idx').on(t.day)],
);
