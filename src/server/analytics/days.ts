import { sql, type SQL } from 'drizzle-orm';
import { BREAKDOWNS, SHOP_TIME_ZONE, type Breakdown, type DayRange } from '../../core/analytics';
import type { AnalyticsDimension } from '../db/schema';

/**
 * The owner's figures of each of the shop's days, in SQL: the one definition that open days are
 * read through and closed days were rolled up through (docs/decisions/0018-owner-figures.md,
 * 0021-analytics-rollup.md).
 */

/** The instants a period of the shop's days spans: [lo, hi). */
const lo = (p: DayRange) => sql`((${p.from}::date)::timestamp at time zone ${SHOP_TIME_ZONE})`;
const hi = (p: DayRange) => sql`((${p.to}::date + 1)::timestamp at time zone ${SHOP_TIME_ZONE})`;
export const within = (column: SQL, p: DayRange) => sql`${column} >= ${lo(p)} and ${column} < ${hi(p)}`;
/** The shop's day an instant falls on. */
const shopDayOf = (column: SQL) => sql`(${column} at time zone ${SHOP_TIME_ZONE})::date`;

/** The order a charge or refund entry is about: `<id>`, `<id>:<total>`, `admin-refund:<id>:<before>`. */
const ORDER_OF_ENTRY = sql.raw(
  `(case when l.kind = 'order_charge' then l.reference when l.reference like 'admin-refund:%' then split_part(l.reference, ':', 2) else split_part(l.reference, ':', 1) end)::uuid`,
);
/** The payment a top-up or chargeback entry names (its reference is the payment's id), by the payments' key. */
const PAYMENT_OF_ENTRY = sql.raw(`(case when l.reference ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then l.reference::uuid end)`);
/** The orders bought at a provider: all but a drip-feed parent whose runs are sent one by one. */
const BOUGHT = sql.raw(`not (o.runs is not null and not o.upstream_drip)`);
/** What an order cost less what its provider gave back. */
const NET_COST = sql.raw(`coalesce(o.cost_micros - o.cost_refunded_micros, 0)`);
/** An order a customer placed (not a drip-feed run). */
const PLACED = sql.raw(`o.parent_id is null`);
export const CUSTOMER = sql.raw(`not exists (select 1 from user_roles r where r.user_id = u.id and r.role in ('moderator', 'admin'))`);

/** The key of a breakdown row: of the order an entry is about (a customer's: the entry's own account), and of an order. */
const KEY_OF: Record<Breakdown, { entry: string; order: string }> = {
  platform: { entry: 'o.platform', order: 'o.platform' },
  service: { entry: 'o.service_id', order: 'o.service_id' },
  provider: { entry: 'o.provider_id::text', order: 'o.provider_id::text' },
  customer: { entry: 'l.user_id', order: 'o.user_id' },
};

/** Which dimension a row of `group by grouping sets` is, and its key (`''`: the whole day, or none recorded). */
function dimensionOf(keyed: string[]) {
  if (keyed.length === 0) return { dimension: sql.raw(`'all'`), key: sql.raw(`''`) };
  return {
    dimension: sql.raw(`case ${keyed.map((k) => `when grouping(k_${k}) = 0 then '${k}'`).join(' ')} else 'all' end`),
    key: sql.raw(`coalesce(case ${keyed.map((k) => `when grouping(k_${k}) = 0 then k_${k}`).join(' ')} end, '')`),
  };
}

/**
 * The figures of each of the shop's days in [from, to], as rows (day, dimension, key, sales,
 * refunds, cost, top_ups, qepik, orders) for the dimensions asked: `all` (the whole day), `status`
 * (orders placed that day by their status now) and each breakdown's keys. Computed from the ledger
 * and orders: an open day is read through this, a closed day was rolled up through it
 * (src/server/analytics/rollup.ts), so both count alike.
 */
export function dayFigures(p: DayRange, dims: readonly AnalyticsDimension[]): SQL {
  const keyed = BREAKDOWNS.filter((d) => dims.includes(d));
  const all = dims.includes('all');
  const parts: SQL[] = [];
  const sets = (extra: string[]) => sql.raw([...(all ? ['(day)'] : []), ...extra.map((k) => `(day, k_${k})`)].join(', '));
  const keys = (list: string[], of: (k: string) => string) => sql.raw(list.map((k) => `, ${of(k)} as k_${k}`).join(''));
  if (all || keyed.length > 0) {
    // Charges and refunds: sales and refunds, by the order each is about.
    const { dimension, key } = dimensionOf(keyed);
    const join = keyed.some((k) => k !== 'customer') ? sql`left join orders o on o.id = ${ORDER_OF_ENTRY}` : sql``;
    parts.push(sql`
      select day, ${dimension} as dimension, ${key} as key, -sum(amount_micros) as sales,
        coalesce(sum(amount_micros) filter (where kind = 'order_refund'), 0) as refunds, 0 as cost, 0 as top_ups, 0 as qepik, 0 as orders
      from (
        select ${shopDayOf(sql`l.created_at`)} as day, l.kind, l.amount_micros${keys(keyed, (k) => KEY_OF[k as Breakdown].entry)}
        from ledger_entries l ${join}
        where l.kind in ('order_charge', 'order_refund') and ${within(sql`l.created_at`, p)}
      ) e
      group by grouping sets (${sets(keyed)})`);
  }
  if (all) {
    // Top-ups less chargebacks: the USD credited and the AZN of the payment each names.
    parts.push(sql`
      select ${shopDayOf(sql`l.created_at`)} as day, 'all' as dimension, '' as key, 0 as sales, 0 as refunds, 0 as cost,
        sum(l.amount_micros) as top_ups, coalesce(sum(case l.kind when 'topup' then 1 else -1 end * (select p.amount_minor from payments p where p.id = ${PAYMENT_OF_ENTRY} and p.currency = 'AZN')), 0) as qepik, 0 as orders
      from ledger_entries l
      where l.kind in ('topup', 'chargeback') and ${within(sql`l.created_at`, p)}
      group by 1`);
  }
  const ordered = [...(dims.includes('status') ? ['status'] : []), ...keyed];
  if (all || ordered.length > 0) {
    // Orders: what they cost and how many customers placed, on the day each was written.
    const { dimension, key } = dimensionOf(ordered);
    parts.push(sql`
      select day, ${dimension} as dimension, ${key} as key, 0 as sales, 0 as refunds,
        coalesce(sum(net_cost) filter (where bought), 0) as cost, 0 as top_ups, 0 as qepik, count(*) filter (where placed) as orders
      from (
        select ${shopDayOf(sql`o.created_at`)} as day, ${NET_COST} as net_cost, ${BOUGHT} as bought, ${PLACED} as placed${keys(ordered, (k) => (k === 'status' ? 'o.status' : KEY_OF[k as Breakdown].order))}
        from orders o where ${within(sql`o.created_at`, p)}
      ) o
      group by grouping sets (${sets(ordered)})`);
  }
  return sql`
    select day, dimension, key, sum(sales) as sales, sum(refunds) as refunds, sum(cost) as cost, sum(top_ups) as top_ups, sum(qepik) as qepik, sum(orders) as orders
    from (${sql.join(parts, sql` union all `)}) f
    group by day, dimension, key`;
}

