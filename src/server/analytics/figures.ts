import { sql, type SQL } from 'drizzle-orm';
import { marginPercent, SHOP_TIME_ZONE, TOP_CUSTOMERS, type AnalyticsGroup, type Breakdown, type DayRange, type PeriodDays } from '../../core/analytics';
import { ORDER_STATUSES, type OrderStatus } from '../../core/orderStatus';
import { rowsOf, type Db } from '../db/client';
import type { AnalyticsDimension } from '../db/schema';
import { CUSTOMER, dayFigures, within } from './days';
import { rolledUp, type RolledRange } from './rollup';

/**
 * The owner's figures of a period (docs/decisions/0018-owner-figures.md), from the figures of its
 * days: closed days from their rollup, open days computed (both by `dayFigures`, days.ts; decision
 * 0021). What each counts:
 *
 * - sales: the `order_charge` entries less the `order_refund` entries, at each entry's time. A
 *   drip-feed is charged once, on its parent; its runs are never charged, and a refund of a run is
 *   a refund of that charge, so nothing is counted twice. Sign-up bonuses and the team's
 *   adjustments are not sales (nor top-ups).
 * - refunds: the `order_refund` entries (full and partial), at their time.
 * - cost: the orders the shop buys at a provider (every order except a drip-feed parent whose runs
 *   are sent one by one: its runs are bought instead), their `cost_micros` less
 *   `cost_refunded_micros` (what the provider gave back so far), on the day the order (or run) was
 *   written. An order whose cost is not known costs nothing here.
 * - grossProfit: sales − cost; margin: grossProfit / sales.
 * - topUps: the `topup` entries less the `chargeback` entries (a top-up the bank reversed), at the
 *   entry's time, in USD micros credited and in the AZN qəpik the payment was for.
 * - orders: the orders customers placed (a drip-feed counts once, its runs not), on the day placed.
 * - newCustomers: accounts opened without a staff role.
 * - customerBalances: the sum of every balance now, and what accounts below zero owe.
 */

/**
 * When the figures are asked (default: now): which days are closed, and so read from the rollup.
 * Asked as of a time before the days of a period, every day is open: computed from the ledger and
 * orders, as the rollup computes them.
 */
export type At = { now?: number };

/** The rolled-up rows of `analytics_days` for a dimension over [from, to], as `dayFigures` writes them: days, and whole months where asked. */
function rolledRows(range: RolledRange, dims: readonly AnalyticsDimension[]): SQL {
  const columns = sql.raw(`day, dimension, key, sales_micros as sales, refunds_micros as refunds, cost_micros as cost, top_ups_micros as top_ups, top_ups_qepik as qepik, orders`);
  const inDims = sql.join(dims.map((d) => sql`${d}`), sql`, `);
  if (!range.months) return sql`select ${columns} from analytics_days where grain = 'day' and dimension in (${inDims}) and day between ${range.from} and ${range.to}`;
  const m = range.months;
  return sql`
    select ${columns} from analytics_days where grain = 'month' and dimension in (${inDims}) and day >= ${m.from} and day < ${m.until}
    union all
    select ${columns} from analytics_days where grain = 'day' and dimension in (${inDims}) and day >= ${range.from} and day < ${m.from}
    union all
    select ${columns} from analytics_days where grain = 'day' and dimension in (${inDims}) and day >= ${m.until} and day <= ${range.to}`;
}

/** A period's rows per day: closed days from the rollup (brought up to date first), open days from the ledger and orders. */
async function periodRows(db: Db, p: DayRange, dims: readonly AnalyticsDimension[], opts: At & { months: boolean }): Promise<SQL> {
  const split = await rolledUp(db, p, opts);
  const sources: SQL[] = [];
  if (split.rolled) sources.push(rolledRows(split.rolled, dims));
  if (split.open) sources.push(dayFigures(split.open, dims));
  return sources.length ? sql.join(sources, sql` union all `) : sql`select null::date as day, null::text as dimension, null::text as key, 0 as sales, 0 as refunds, 0 as cost, 0 as top_ups, 0 as qepik, 0 as orders where false`;
}

export interface FigureRow {
  salesMicros: number;
  refundsMicros: number;
  costMicros: number;
  grossProfitMicros: number;
  marginPercent: number | null;
  topUpsMicros: number;
  topUpsQepik: number;
  orders: number;
  newCustomers: number;
}
export interface SeriesRow extends FigureRow {
  /** The group's first day (yyyy-mm-dd). */
  bucket: string;
}

const n = (v: unknown) => Number(v ?? 0);

function figureRow(r: { sales: number; refunds: number; cost: number; topups: number; qepik: number; orders: number; customers: number }): FigureRow {
  const grossProfitMicros = r.sales - r.cost;
  return {
    salesMicros: r.sales,
    refundsMicros: r.refunds,
    costMicros: r.cost,
    grossProfitMicros,
    marginPercent: marginPercent(r.sales, grossProfitMicros),
    topUpsMicros: r.topups,
    topUpsQepik: r.qepik,
    orders: r.orders,
    newCustomers: r.customers,
  };
}

type Sums = { sales: number; refunds: number; cost: number; topups: number; qepik: number; orders: number; customers: number };
const ZERO: Sums = { sales: 0, refunds: 0, cost: 0, topups: 0, qepik: 0, orders: 0, customers: 0 };
/** A row of a grouped query: its group's first day, and `level` 1 for the row of the whole period (ROLLUP's total). */
type Leveled = { bucket: string | null; level: number | string };

/**
 * Every figure of a period: the whole period's row and one row per group (keyed by the group's
 * first day), and the orders by status. The whole period's row is the ROLLUP's own total, computed
 * by the database, not added up here.
 */
async function figuresBy(db: Db, p: PeriodDays, group: AnalyticsGroup, at: At = {}) {
  const rows = await periodRows(db, p, ['all', 'status'], { ...at, months: false });
  const [figures, accounts] = await Promise.all([
    db.execute(sql`
      with d as (${rows})
      select 'money' as part, to_char(b, 'YYYY-MM-DD') as bucket, grouping(b) as level, null as status,
        coalesce(sum(sales), 0) as sales, coalesce(sum(refunds), 0) as refunds, coalesce(sum(cost), 0) as cost,
        coalesce(sum(top_ups), 0) as topups, coalesce(sum(qepik), 0) as qepik, coalesce(sum(orders), 0) as orders
      from (select date_trunc(${group}, day::timestamp) as b, * from d where dimension = 'all') g
      group by rollup (b)
      union all
      select 'status', null, 0, key, 0, 0, 0, 0, 0, sum(orders) from d where dimension = 'status' group by key`),
    db.execute(sql`
      select to_char(b, 'YYYY-MM-DD') as bucket, grouping(b) as level, count(*) as customers
      from (select date_trunc(${group}, u.created_at at time zone ${SHOP_TIME_ZONE}) as b from users u where ${within(sql`u.created_at`, p)} and ${CUSTOMER}) u
      group by rollup (b)`),
  ]);
  const groups = new Map<string, Sums>();
  let whole: Sums = { ...ZERO };
  const statuses = new Map<string, number>();
  const into = (r: Leveled, values: Partial<Sums>) => {
    if (Number(r.level) === 1) whole = { ...whole, ...values };
    else if (r.bucket !== null) groups.set(r.bucket, { ...(groups.get(r.bucket) ?? ZERO), ...values });
  };
  type MoneyRow = Leveled & { part: string; status: string | null; sales: string; refunds: string; cost: string; topups: string; qepik: string; orders: string };
  for (const r of rowsOf<MoneyRow>(figures)) {
    if (r.part === 'status') statuses.set(r.status!, n(r.orders));
    else into(r, { sales: n(r.sales), refunds: n(r.refunds), cost: n(r.cost), topups: n(r.topups), qepik: n(r.qepik), orders: n(r.orders) });
  }
  for (const r of rowsOf<Leveled & { customers: string }>(accounts)) into(r, { customers: n(r.customers) });
  return { whole: figureRow(whole), groups: new Map([...groups].map(([b, r]) => [b, figureRow(r)])), statuses: ORDER_STATUSES.map((status) => ({ status, orders: statuses.get(status) ?? 0 })) };
}

/** The first day of each group of the period, in order (weeks begin on Monday). */
export function bucketsOf(p: PeriodDays, group: AnalyticsGroup): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${p.from}T00:00:00Z`); t <= Date.parse(`${p.to}T00:00:00Z`); t += 86_400_000) {
    const d = new Date(t);
    if (group === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    if (group === 'month') d.setUTCDate(1);
    const key = d.toISOString().slice(0, 10);
    if (out.at(-1) !== key) out.push(key);
  }
  return out;
}

const EMPTY: FigureRow = figureRow(ZERO);

/**
 * The period's totals, its series (one row per group, empty groups included), and the orders
 * placed in it by status (every status, zeros included).
 */
export async function periodFigures(db: Db, p: PeriodDays, group: AnalyticsGroup, at: At = {}): Promise<{ totals: FigureRow; series: SeriesRow[]; statuses: { status: OrderStatus; orders: number }[] }> {
  const f = await figuresBy(db, p, group, at);
  return { totals: f.whole, series: bucketsOf(p, group).map((bucket) => ({ bucket, ...(f.groups.get(bucket) ?? EMPTY) })), statuses: f.statuses };
}

/** The period's figures as one row (the dashboard's day). */
export async function periodTotals(db: Db, p: PeriodDays): Promise<FigureRow> {
  return (await figuresBy(db, p, 'month')).whole;
}

/** The orders placed in the period, by status (every status, zeros included). */
export async function ordersByStatus(db: Db, p: PeriodDays): Promise<{ status: OrderStatus; orders: number }[]> {
  return (await figuresBy(db, p, 'month')).statuses;
}

export interface BreakdownRow {
  /** The platform, service id, provider id or customer id; null: no provider recorded (the default provider), or the other customers. */
  key: string | null;
  /** The service's name, the provider's name, the customer's e-mail. */
  label: string | null;
  salesMicros: number;
  refundsMicros: number;
  costMicros: number;
  grossProfitMicros: number;
  marginPercent: number | null;
  orders: number;
}

/**
 * The period's sales, refunds, cost and orders by platform, service, provider or customer, the
 * biggest sales first. Customers beyond the first TOP_CUSTOMERS are one row (key null), so the
 * rows always add up to the period's totals.
 */
export async function breakdown(db: Db, p: PeriodDays, by: Breakdown, at: At = {}): Promise<BreakdownRow[]> {
  const rows = await periodRows(db, p, [by], { ...at, months: true });
  const label =
    by === 'service'
      ? sql`(select s.name from catalog_services s where s.id = r.key)`
      : by === 'provider'
        ? sql`(select pr.name from providers pr where pr.id::text = r.key)`
        : by === 'customer'
          ? sql`(select u.email from users u where u.id = r.key)`
          : sql`null::text`;
  const shown = by === 'customer' ? TOP_CUSTOMERS : 1_000_000_000;
  const result = await db.execute(sql`
    with d as (${rows}), joined as (
      select key, sum(sales) as sales, sum(refunds) as refunds, sum(cost) as cost, sum(orders) as orders from d where dimension = ${by} group by key
    ), ranked as (
      select j.*, row_number() over (order by j.sales desc, j.orders desc, j.key) as rn from joined j
    )
    select * from (
      select nullif(r.key, '') as key, ${label} as label, r.sales, r.refunds, r.cost, r.orders, r.rn from ranked r where r.rn <= ${shown}
      union all
      select null, null, sum(sales), sum(refunds), sum(cost), sum(orders), ${shown}::bigint + 1 from ranked where rn > ${shown} having count(*) > 0
    ) shown order by rn`);
  return rowsOf<{ key: string | null; label: string | null; sales: string; refunds: string; cost: string; orders: string }>(result).map((r) => {
    const sales = n(r.sales);
    const cost = n(r.cost);
    return {
      key: r.key,
      label: r.label,
      salesMicros: sales,
      refundsMicros: n(r.refunds),
      costMicros: cost,
      grossProfitMicros: sales - cost,
      marginPercent: marginPercent(sales, sales - cost),
      orders: n(r.orders),
    };
  });
}

/** What the shop owes its customers: the sum of every balance, and what the accounts below zero owe the shop. */
export async function customerBalances(db: Db): Promise<{ customerBalancesMicros: number; owedByCustomersMicros: number; accountsBelowZero: number }> {
  const [r] = rowsOf<{ total: string; owed: string; below: string }>(
    await db.execute(sql`select coalesce(sum(balance_micros), 0) as total, coalesce(-sum(balance_micros) filter (where balance_micros < 0), 0) as owed, count(*) filter (where balance_micros < 0) as below from users`),
  );
  return { customerBalancesMicros: n(r?.total), owedByCustomersMicros: n(r?.owed), accountsBelowZero: n(r?.below) };
}

/**
 * What completed top-ups brought in, all time (AZN qəpik paid by the methods that charge in manat, and USD micros credited), less the
 * reversed ones: the same definition as the period figures, without a period.
 */
export async function topUpsAllTime(db: Db): Promise<{ topUpsQepik: number; topUpsMicros: number }> {
  const [r] = rowsOf<{ qepik: string; micros: string }>(
    await db.execute(sql`
      select coalesce(sum(case when p.currency <> 'AZN' then 0 when l.kind = 'topup' then p.amount_minor when l.kind = 'chargeback' then -p.amount_minor end), 0) as qepik, coalesce(sum(l.amount_micros), 0) as micros
      from ledger_entries l left join payments p on p.id::text = l.reference
      where l.kind in ('topup', 'chargeback')`),
  );
  return { topUpsQepik: n(r?.qepik), topUpsMicros: n(r?.micros) };
}
