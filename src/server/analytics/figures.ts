import { sql, type SQL } from 'drizzle-orm';
import { marginPercent, SHOP_TIME_ZONE, TOP_CUSTOMERS, type AnalyticsGroup, type Breakdown, type PeriodDays } from '../../core/analytics';
import { ORDER_STATUSES, type OrderStatus } from '../../core/orderStatus';
import { rowsOf, type Db } from '../db/client';

/**
 * The owner's figures, each defined here once and in SQL (docs/decisions/0018-owner-figures.md):
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

/** The instants a period of the shop's days spans: [lo, hi). */
const lo = (p: PeriodDays) => sql`((${p.from}::date)::timestamp at time zone ${SHOP_TIME_ZONE})`;
const hi = (p: PeriodDays) => sql`((${p.to}::date + 1)::timestamp at time zone ${SHOP_TIME_ZONE})`;
const within = (column: SQL, p: PeriodDays) => sql`${column} >= ${lo(p)} and ${column} < ${hi(p)}`;
/** The start of the group an instant falls in, in the shop's time zone (weeks begin on Monday); written as yyyy-mm-dd once grouped (`DAY_OF`). */
const bucketOf = (column: SQL, group: AnalyticsGroup) => sql`date_trunc(${group}, ${column} at time zone ${SHOP_TIME_ZONE})`;
const DAY_OF = sql.raw(`to_char(b, 'YYYY-MM-DD')`);

/** The order a charge or refund entry is about: `<id>`, `<id>:<total>`, `admin-refund:<id>:<before>`. */
const ORDER_OF_ENTRY = sql.raw(
  `(case when l.kind = 'order_charge' then l.reference when l.reference like 'admin-refund:%' then split_part(l.reference, ':', 2) else split_part(l.reference, ':', 1) end)::uuid`,
);
/** The orders bought at a provider: all but a drip-feed parent whose runs are sent one by one. */
const BOUGHT = sql.raw(`not (o.runs is not null and not o.upstream_drip)`);
/** What an order cost less what its provider gave back. */
const NET_COST = sql.raw(`coalesce(o.cost_micros - o.cost_refunded_micros, 0)`);
/** An order a customer placed (not a drip-feed run). */
const PLACED = sql.raw(`o.parent_id is null`);
const CUSTOMER = sql.raw(`not exists (select 1 from user_roles r where r.user_id = u.id and r.role in ('moderator', 'admin'))`);

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
 * first day), and the orders by status. One pass over each table: the whole period's row is the
 * ROLLUP's own total, computed by the database, not added up here.
 */
async function figuresBy(db: Db, p: PeriodDays, group: AnalyticsGroup) {
  const [money, bought, accounts] = await Promise.all([
    db.execute(sql`
      select ${DAY_OF} as bucket, grouping(b) as level,
        coalesce(-sum(amount_micros) filter (where kind in ('order_charge', 'order_refund')), 0) as sales,
        coalesce(sum(amount_micros) filter (where kind = 'order_refund'), 0) as refunds,
        coalesce(sum(amount_micros) filter (where kind in ('topup', 'chargeback')), 0) as topups,
        coalesce(sum(qepik), 0) as qepik
      from (
        select ${bucketOf(sql`l.created_at`, group)} as b, l.kind, l.amount_micros,
          case l.kind when 'topup' then p.amount_qepik when 'chargeback' then -p.amount_qepik end as qepik
        from ledger_entries l
        left join payments p on l.kind in ('topup', 'chargeback') and p.id::text = l.reference
        where l.kind in ('order_charge', 'order_refund', 'topup', 'chargeback') and ${within(sql`l.created_at`, p)}
      ) e
      group by rollup (b)`),
    db.execute(sql`
      select ${DAY_OF} as bucket, status, grouping(b, status) as level,
        coalesce(sum(net_cost) filter (where bought), 0) as cost,
        count(*) filter (where placed) as orders
      from (
        select ${bucketOf(sql`o.created_at`, group)} as b, o.status, ${NET_COST} as net_cost, ${BOUGHT} as bought, ${PLACED} as placed
        from orders o where ${within(sql`o.created_at`, p)}
      ) o
      group by grouping sets ((b), (status), ())`),
    db.execute(sql`
      select ${DAY_OF} as bucket, grouping(b) as level, count(*) as customers
      from (select ${bucketOf(sql`u.created_at`, group)} as b from users u where ${within(sql`u.created_at`, p)} and ${CUSTOMER}) u
      group by rollup (b)`),
  ]);
  const groups = new Map<string, Sums>();
  let whole: Sums = { ...ZERO };
  const statuses = new Map<string, number>();
  const into = (r: Leveled, wholeLevel: number, values: Partial<Sums>) => {
    if (Number(r.level) === wholeLevel) whole = { ...whole, ...values };
    else if (r.bucket !== null) groups.set(r.bucket, { ...(groups.get(r.bucket) ?? ZERO), ...values });
  };
  for (const r of rowsOf<Leveled & { sales: string; refunds: string; topups: string; qepik: string }>(money)) {
    into(r, 1, { sales: n(r.sales), refunds: n(r.refunds), topups: n(r.topups), qepik: n(r.qepik) });
  }
  // grouping(bucket, status): 1 a group's row, 2 a status's, 3 the whole period's.
  for (const r of rowsOf<Leveled & { status: string | null; cost: string; orders: string }>(bought)) {
    if (Number(r.level) === 2) statuses.set(r.status!, n(r.orders));
    else into({ bucket: r.bucket, level: Number(r.level) === 3 ? 1 : 0 }, 1, { cost: n(r.cost), orders: n(r.orders) });
  }
  for (const r of rowsOf<Leveled & { customers: string }>(accounts)) into(r, 1, { customers: n(r.customers) });
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
export async function periodFigures(db: Db, p: PeriodDays, group: AnalyticsGroup): Promise<{ totals: FigureRow; series: SeriesRow[]; statuses: { status: OrderStatus; orders: number }[] }> {
  const f = await figuresBy(db, p, group);
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

const KEY_OF: Record<Breakdown, SQL> = {
  platform: sql.raw('o.platform'),
  service: sql.raw('o.service_id'),
  provider: sql.raw('o.provider_id::text'),
  customer: sql.raw('o.user_id'),
};

/**
 * The period's sales, refunds, cost and orders by platform, service, provider or customer, the
 * biggest sales first. Customers beyond the first TOP_CUSTOMERS are one row (key null), so the
 * rows always add up to the period's totals.
 */
export async function breakdown(db: Db, p: PeriodDays, by: Breakdown): Promise<BreakdownRow[]> {
  const key = KEY_OF[by];
  // A customer's charges and refunds are on their own ledger: no need to find the orders.
  const money =
    by === 'customer'
      ? sql`select l.user_id as key, -sum(l.amount_micros) as sales, sum(l.amount_micros) filter (where l.kind = 'order_refund') as refunds
          from ledger_entries l
          where l.kind in ('order_charge', 'order_refund') and ${within(sql`l.created_at`, p)}
          group by 1`
      : sql`select ${key} as key, -sum(l.amount_micros) as sales, sum(l.amount_micros) filter (where l.kind = 'order_refund') as refunds
          from ledger_entries l join orders o on o.id = ${ORDER_OF_ENTRY}
          where l.kind in ('order_charge', 'order_refund') and ${within(sql`l.created_at`, p)}
          group by 1`;
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
    with money as (${money}), bought as (
      select ${key} as key, sum(${NET_COST}) filter (where ${BOUGHT}) as cost, count(*) filter (where ${PLACED}) as orders
      from orders o where ${within(sql`o.created_at`, p)}
      group by 1
    ), joined as (
      select key, sum(sales) as sales, sum(refunds) as refunds, sum(cost) as cost, sum(orders) as orders from (
        select key, sales, coalesce(refunds, 0) as refunds, 0 as cost, 0 as orders from money
        union all
        select key, 0, 0, coalesce(cost, 0), orders from bought
      ) both_sides group by key
    ), ranked as (
      select j.*, row_number() over (order by j.sales desc, j.orders desc, j.key) as rn from joined j
    )
    select * from (
      select r.key, ${label} as label, r.sales, r.refunds, r.cost, r.orders, r.rn from ranked r where r.rn <= ${shown}
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
 * What completed top-ups brought in, all time (AZN qəpik paid and USD micros credited), less the
 * reversed ones: the same definition as the period figures, without a period.
 */
export async function topUpsAllTime(db: Db): Promise<{ topUpsQepik: number; topUpsMicros: number }> {
  const [r] = rowsOf<{ qepik: string; micros: string }>(
    await db.execute(sql`
      select coalesce(sum(case l.kind when 'topup' then p.amount_qepik when 'chargeback' then -p.amount_qepik end), 0) as qepik, coalesce(sum(l.amount_micros), 0) as micros
      from ledger_entries l left join payments p on p.id::text = l.reference
      where l.kind in ('topup', 'chargeback')`),
  );
  return { topUpsQepik: n(r?.qepik), topUpsMicros: n(r?.micros) };
}
