import { z } from 'zod';

/**
 * The owner's figures (docs/decisions/0018-owner-figures.md): their names, the periods and
 * groupings the analytics page asks for, and how a period becomes two instants. Every amount is an
 * integer in its ledger's unit: USD micro-dollars, AZN qəpik (docs/decisions/0015).
 *
 * - topUps: what completed card top-ups credited (AZN qəpik paid, USD micros credited), less the
 *   top-ups the bank reversed (`chargeback`).
 * - sales: what orders charged, less what was given back of them (refunds, full and partial).
 * - cost: what the orders cost at their providers, less what the providers gave back of it.
 * - grossProfit: sales − cost.
 * - customerBalances: the sum of every balance: what the shop owes its customers.
 */

/** The shop's time zone: a day, week or month of the figures is one in Baku (UTC+4, no daylight saving). */
export const SHOP_TIME_ZONE = 'Asia/Baku';

export const ANALYTICS_PERIODS = ['today', '7d', '30d', '90d', 'custom'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const ANALYTICS_GROUPS = ['day', 'week', 'month'] as const;
export type AnalyticsGroup = (typeof ANALYTICS_GROUPS)[number];
export const BREAKDOWNS = ['platform', 'service', 'provider', 'customer'] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];
/** The tables of the page, each exported as CSV. */
export const ANALYTICS_TABLES = ['series', 'statuses', ...BREAKDOWNS] as const;
export type AnalyticsTable = (typeof ANALYTICS_TABLES)[number];

/** The longest custom range, in days (both ends counted). */
export const MAX_RANGE_DAYS = 366;
/** The customers shown one by one in the customer breakdown; the rest are summed in one row. */
export const TOP_CUSTOMERS = 20;

const PRESET_DAYS: Record<Exclude<AnalyticsPeriod, 'custom'>, number> = { today: 1, '7d': 7, '30d': 30, '90d': 90 };

/** A day of a custom range: yyyy-mm-dd, a real day, from 2000 to 2999 (the database has no year 0). */
const daySchema = z.iso.date().refine((d) => d >= '2000-01-01' && d <= '2999-12-31', 'out of range');

/** The page's query: a preset or a custom range (yyyy-mm-dd, both days included), and a grouping. */
export const analyticsQuerySchema = z.strictObject({
  period: z.enum(ANALYTICS_PERIODS).default('30d'),
  from: daySchema.optional(),
  to: daySchema.optional(),
  group: z.enum(ANALYTICS_GROUPS).default('day'),
});
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;

export const analyticsBreakdownQuerySchema = analyticsQuerySchema.extend({ by: z.enum(BREAKDOWNS) });
export const analyticsExportQuerySchema = analyticsQuerySchema.extend({ table: z.enum(ANALYTICS_TABLES) });

/** A period as the shop's days: `from` and `to` included (yyyy-mm-dd). */
export interface PeriodDays {
  from: string;
  to: string;
  days: number;
}

/** Days from the first to the last, both included (yyyy-mm-dd). */
export type DayRange = Pick<PeriodDays, 'from' | 'to'>;

/** The shop's calendar day of an instant (yyyy-mm-dd in SHOP_TIME_ZONE). */
export function shopDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: SHOP_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

const DAY_MS = 86_400_000;
const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** The day `n` days after (before, when negative) a day (yyyy-mm-dd). */
export const addDays = (day: string, n: number) => dayOf(dayNumber(day) + n);

/**
 * The days a query asks for, or null when its custom range is not one (a missing end, `from`
 * after `to`, longer than MAX_RANGE_DAYS): the caller refuses it with PERIOD_INVALID. A preset
 * ends today and counts today among its days.
 */
export function periodDays(q: Pick<AnalyticsQuery, 'period' | 'from' | 'to'>, now = new Date()): PeriodDays | null {
  if (q.period !== 'custom') {
    const days = PRESET_DAYS[q.period];
    const to = shopDay(now);
    return { from: dayOf(dayNumber(to) - days + 1), to, days };
  }
  if (!q.from || !q.to) return null;
  const days = dayNumber(q.to) - dayNumber(q.from) + 1;
  if (!Number.isFinite(days) || days < 1 || days > MAX_RANGE_DAYS) return null;
  return { from: q.from, to: q.to, days };
}

/** Margin in percent of sales, to one decimal; null without sales. */
export function marginPercent(salesMicros: number, grossProfitMicros: number): number | null {
  if (salesMicros === 0) return null;
  return Math.round((grossProfitMicros * 1000) / salesMicros) / 10;
}
