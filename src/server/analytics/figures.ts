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
/** The first day of the group an instant falls in, as yyyy-mm-dd in the shop's time zone (weeks begin on Monday); none: one row. */
const bucketOf = (column: SQL, group: AnalyticsGroup | null) =>
  group === null ? sql`null::text` : sql`to_char(date_trunc(${group}, ${column} at time zone ${SHOP_TIME_ZONE}), 'YYYY-MM-DD')`;

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

type Bucketed = { bucket: string | null };

/** Every figure of a period by group (or, with `group` null, one row for the whole period), keyed by the group's first day. */
async function figuresBy(db: Db, p: PeriodDays, group: AnalyticsGroup | null): Promise<Map<string | null, FigureRow>> {
  const [money, bought, accounts] = await Promise.all([
    db.execute(sql`
      select ${bucketOf(sql`l.created_at`, group)} as bucket,
        coalesce(-sum(l.amount_micros) filter (where l.kind in ('order_charge', 'order_refund')), 0) as sales,
        coalesce(sum(l.amount_micros) filter (where l.kind = 'order_refund'), 0) as refunds,
        coalesce(sum(l.amount_micros) filter (where l.kind in ('topup', 'chargeback')), 0) as topups,
        coalesce(sum(case l.kind when 'topup' then p.amount_qepik when 'chargeback' then -p.amount_qepik end), 0) as qepik
      from ledger_entries l
      left join payments p on l.kind in ('topup', 'chargeback') and p.id::text = l.reference
      where l.kind in ('order_charge', 'order_refund', 'topup', 'chargeback') and ${within(sql`l.created_at`, p)}
      group by 1`),
    db.execute(sql`
      select ${bucketOf(sql`o.created_at`, group)} as bucket,
        coalesce(sum(${NET_COST}) filter (where ${BOUGHT}), 0) as cost,
        count(*) filter (where ${PLACED}) as orders
      from orders o
      where ${within(sql`o.created_at`, p)}
      group by 1`),
    db.execute(sql`
      select ${bucketOf(sql`u.created_at`, group)} as bucket, count(*) as customers
      from users u where ${within(sql`u.created_at`, p)} and ${CUSTOMER}
      group by 1`),
  ]);
  const acc = new Map<string | null, { sales: number; refunds: number; cost: number; topups: number; qepik: number; orders: number; customers: number }>();
  const at = (b: string | null) => {
    let row = acc.get(b);
    if (!row) acc.set(b, (row = { sales: 0, refunds: 0, cost: 0, topups: 0, qepik: 0, orders: 0, customers: 0 }));
    return row;
  };
  for (const r of rowsOf<Bucketed & { sales: string; refunds: string; topups: string; qepik: string }>(money)) {
    Object.assign(at(r.bucket), { sales: n(r.sales), refunds: n(r.refunds), topups: n(r.topups), qepik: n(r.qepik) });
  }
  for (const r of rowsOf<Bucketed & { cost: string; orders: string }>(bought)) Object.assign(at(r.bucket), { cost: n(r.cost), orders: n(r.orders) });
  for (const r of rowsOf<Bucketed & { customers: string }>(accounts)) at(r.bucket).customers = n(r.customers);
  return new Map([...acc].map(([b, r]) => [b, figureRow(r)]));
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

const EMPTY: FigureRow = figureRow({ sales: 0, refunds: 0, cost: 0, topups: 0, qepik: 0, orders: 0, customers: 0 });

/** The period's totals and its series, one row per group (empty groups included). */
export async function periodFigures(db: Db, p: PeriodDays, group: AnalyticsGroup): Promise<{ totals: FigureRow; series: SeriesRow[] }> {
  const [totals, grouped] = await Promise.all([figuresBy(db, p, null), figuresBy(db, p, group)]);
  return {
    totals: totals.get(null) ?? EMPTY,
    series: bucketsOf(p, group).map((bucket) => ({ bucket, ...(grouped.get(bucket) ?? EMPTY) })),
  };
}

/** The period's figures as one row (the dashboard's day). */
export async function periodTotals(db: Db, p: PeriodDays): Promise<FigureRow> {
  return (await figuresBy(db, p, null)).get(null) ?? EMPTY;
}

/** The orders placed in the period, by status (every status, zeros included). */
export async function ordersByStatus(db: Db, p: PeriodDays): Promise<{ status: OrderStatus; orders: number }[]> {
  const rows = rowsOf<{ status: OrderStatus; orders: string }>(
    await db.execute(sql`select o.status, count(*) as orders from orders o where ${within(sql`o.created_at`, p)} and ${PLACED} group by 1`),
  );
  return ORDER_STATUSES.map((status) => ({ status, orders: n(rows.find((r) => r.status === status)?.orders) }));
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
  const result = await db.execute(sql`
    with money as (
      select ${key} as key, -sum(l.amount_micros) as sales, sum(l.amount_micros) filter (where l.kind = 'order_refund') as refunds
      from ledger_entries l join orders o on o.id = ${ORDER_OF_ENTRY}
      where l.kind in ('order_charge', 'order_refund') and ${within(sql`l.created_at`, p)}
      group by 1
    ), bought as (
      select ${key} as key, sum(${NET_COST}) filter (where ${BOUGHT}) as cost, count(*) filter (where ${PLACED}) as orders
      from orders o where ${within(sql`o.created_at`, p)}
      group by 1
    ), joined as (
      select key, sum(sales) as sales, sum(refunds) as refunds, sum(cost) as cost, sum(orders) as orders from (
        select key, sales, coalesce(refunds, 0) as refunds, 0 as cost, 0 as orders from money
        union all
        select key, 0, 0, coalesce(cost, 0), orders from bought
      ) both_sides group by key
    )
    select j.*, ${
      by === 'service'
        ? sql`(select s.name from catalog_services s where s.id = j.key)`
        : by === 'provider'
          ? sql`(select pr.name from providers pr where pr.id::text = j.key)`
          : by === 'customer'
            ? sql`(select u.email from users u where u.id = j.key)`
            : sql`null::text`
    } as label
    from joined j
    order by j.sales desc, j.orders desc, j.key`);
  let rows = rowsOf<{ key: string | null; label: string | null; sales: string; refunds: string; cost: string; orders: string }>(result).map((r) => {
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
  if (by === 'customer' && rows.length > TOP_CUSTOMERS) {
    const rest = rows.slice(TOP_CUSTOMERS);
    const sum = (f: (r: BreakdownRow) => number) => rest.reduce((s, r) => s + f(r), 0);
    const sales = sum((r) => r.salesMicros);
    const cost = sum((r) => r.costMicros);
    rows = [
      ...rows.slice(0, TOP_CUSTOMERS),
      { key: null, label: null, salesMicros: sales, refundsMicros: sum((r) => r.refundsMicros), costMicros: cost, grossProfitMicros: sales - cost, marginPercent: marginPercent(sales, sales - cost), orders: sum((r) => r.orders) },
    ];
  }
  return rows;
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
