import { sql } from 'drizzle-orm';
import { addDays, shopDay, type DayRange } from '../../core/analytics';
import { rowsOf, type Db, type Tx } from '../db/client';
import { ANALYTICS_DIMENSIONS } from '../db/schema';
import type { JobDefinition } from '../jobs/boss';
import { dayFigures } from './days';

/**
 * The rollup of closed days (docs/decisions/0021-analytics-rollup.md): a closed day's figures are
 * computed once, by the same SQL as an open day's (`dayFigures`), into `analytics_days`, and again
 * whenever a change to its rows marked it stale (the triggers of migration 0032). Whole closed
 * months are summed once more for the breakdowns, whose days carry a row per customer and service.
 *
 * A day is rolled up an hour after it ends in Baku: a write that began before midnight and
 * commits after it (no transaction here lasts a second) cannot be missed by the day's rollup,
 * and a write dated in a day already closed marks it.
 */

/** How long after its end a day is rolled up. */
export const ROLLUP_GRACE_MS = 60 * 60 * 1000;

export interface RolledRange extends DayRange {
  /** Whole months inside the range read at grain `month`: [from, until), first days of months. */
  months: { from: string; until: string } | null;
}

/** Which part of a period comes from the rollup and which from the ledger and orders. */
export interface PeriodSplit {
  rolled: RolledRange | null;
  open: DayRange | null;
}

/** The first day not rolled up yet at `now`. */
export function firstOpenDay(now: number): string {
  return shopDay(new Date(now - ROLLUP_GRACE_MS));
}

const firstOfMonth = (day: string) => `${day.slice(0, 8)}01`;
const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
};
const daysBetween = (from: string, until: string) => (Date.parse(`${until}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/** The whole months inside [from, to]: [first day of the first, first day after the last), or null. */
function wholeMonths(r: DayRange): { from: string; until: string } | null {
  const from = r.from === firstOfMonth(r.from) ? r.from : nextMonth(firstOfMonth(r.from));
  const until = addDays(r.to, 1) === firstOfMonth(addDays(r.to, 1)) ? addDays(r.to, 1) : firstOfMonth(r.to);
  return from < until ? { from, until } : null;
}

/** Where a period's figures come from at `now`. */
export function splitPeriod(p: DayRange, now: number, months: boolean): PeriodSplit {
  const open = firstOpenDay(now);
  const rolledTo = p.to < open ? p.to : addDays(open, -1);
  const rolled = p.from <= rolledTo ? { from: p.from, to: rolledTo } : null;
  return {
    rolled: rolled && { ...rolled, months: months ? wholeMonths(rolled) : null },
    open: p.to >= open ? { from: p.from > open ? p.from : open, to: p.to } : null,
  };
}

/** The days of [from, to] as runs of consecutive days. */
function runsOf(days: string[]): DayRange[] {
  const runs: DayRange[] = [];
  for (const day of [...new Set(days)].sort()) {
    const last = runs.at(-1);
    if (last && addDays(last.to, 1) === day) last.to = day;
    else runs.push({ from: day, to: day });
  }
  return runs;
}

const LOCK = sql`select pg_advisory_xact_lock(hashtext('artim.analytics.rollup'))`;
/** Every dimension: a delete by day names them all, to go through the primary key. */
const EVERY_DIMENSION = sql.join(
  ANALYTICS_DIMENSIONS.map((d) => sql`${d}`),
  sql`, `,
);
const BREAKDOWN_DIMENSIONS = sql.join(
  ANALYTICS_DIMENSIONS.filter((d) => d !== 'all' && d !== 'status').map((d) => sql`${d}`),
  sql`, `,
);

/** Computes the days of a run again from the ledger and orders. */
async function buildDays(tx: Tx, run: DayRange) {
  await tx.execute(sql`delete from analytics_days where dimension in (${EVERY_DIMENSION}) and grain = 'day' and day between ${run.from} and ${run.to}`);
  await tx.execute(sql`
    insert into analytics_days (dimension, grain, day, key, sales_micros, refunds_micros, cost_micros, top_ups_micros, top_ups_qepik, orders)
    select dimension, 'day', day, key, sales, refunds, cost, top_ups, qepik, orders from (${dayFigures(run, ANALYTICS_DIMENSIONS)}) f`);
  await tx.execute(sql`
    insert into analytics_built_days (day) select d::date from generate_series(${run.from}::date, ${run.to}::date, interval '1 day') d
    on conflict (day) do update set built_at = now()`);
}

/** Sums a closed month's breakdown days into its month rows, when every day of it is built; else forgets them. */
async function buildMonth(tx: Tx, month: string) {
  const until = nextMonth(month);
  await tx.execute(sql`delete from analytics_days where dimension in (${BREAKDOWN_DIMENSIONS}) and grain = 'month' and day = ${month}`);
  await tx.execute(sql`delete from analytics_built_months where month = ${month}`);
  const [built] = rowsOf<{ n: string }>(await tx.execute(sql`select count(*) as n from analytics_built_days where day >= ${month} and day < ${until}`));
  if (Number(built?.n) !== daysBetween(month, until)) return;
  await tx.execute(sql`
    insert into analytics_days (dimension, grain, day, key, sales_micros, refunds_micros, cost_micros, top_ups_micros, top_ups_qepik, orders)
    select dimension, 'month', ${month}::date, key, sum(sales_micros), sum(refunds_micros), sum(cost_micros), sum(top_ups_micros), sum(top_ups_qepik), sum(orders)
    from analytics_days where grain = 'day' and dimension in (${BREAKDOWN_DIMENSIONS}) and day >= ${month} and day < ${until}
    group by dimension, key`);
  await tx.execute(sql`insert into analytics_built_months (month) values (${month})`);
}

const monthsIn = (m: { from: string; until: string } | null) => {
  const out: string[] = [];
  for (let month = m?.from; m && month && month < m.until; month = nextMonth(month)) out.push(month);
  return out;
};

/**
 * Brings the rollup of a period's closed days up to date: days never built, days marked stale,
 * and (for breakdowns) the whole months inside it. Answers at once when nothing is to do (one
 * query); otherwise one transaction, one at a time across every instance, on the database alone.
 */
export async function rolledUp(db: Db, p: DayRange, opts: { months: boolean; now?: number }): Promise<PeriodSplit> {
  const split = splitPeriod(p, opts.now ?? Date.now(), opts.months);
  const r = split.rolled;
  if (!r) return split;
  const months = monthsIn(r.months);
  const check = async (q: Db | Tx) => {
    const [row] = rowsOf<{ built: string; months: string; stale: boolean }>(
      await q.execute(sql`
        select (select count(*) from analytics_built_days where day between ${r.from} and ${r.to}) as built,
          (select count(*) from analytics_built_months where month = any(${`{${months.join(',')}}`}::date[])) as months,
          exists (select 1 from analytics_stale_days) as stale`),
    );
    return Number(row?.built) === daysBetween(r.from, addDays(r.to, 1)) && Number(row?.months) === months.length && !row?.stale;
  };
  if (await check(db)) return split;
  const computed = await db.transaction(async (tx) => {
    await tx.execute(LOCK);
    // The marks first, taken in one statement: a change committed after it keeps its mark for the next time.
    const marked = rowsOf<{ day: string }>(
      await tx.execute(sql`with taken as (delete from analytics_stale_days returning day) select distinct to_char(day, 'YYYY-MM-DD') as day from taken`),
    ).map((m) => m.day);
    const built = new Set(
      rowsOf<{ day: string }>(
        await tx.execute(sql`
          select to_char(day, 'YYYY-MM-DD') as day from analytics_built_days
          where (day between ${r.from} and ${r.to}) or day = any(${`{${marked.join(',')}}`}::date[])`),
      ).map((b) => b.day),
    );
    const wanted: string[] = [];
    for (let d = r.from; d <= r.to; d = addDays(d, 1)) if (!built.has(d)) wanted.push(d);
    // A stale day is computed again if it was built; one never built will be computed whole when asked.
    for (const day of marked) if (built.has(day)) wanted.push(day);
    for (const run of runsOf(wanted)) await buildDays(tx, run);
    // Months whose days were computed again, and months of the period never summed.
    const touched = new Set(wanted.map(firstOfMonth));
    const summed = new Set(
      rowsOf<{ month: string }>(await tx.execute(sql`select to_char(month, 'YYYY-MM-DD') as month from analytics_built_months where month = any(${`{${months.join(',')}}`}::date[])`)).map((m) => m.month),
    );
    const open = firstOpenDay(opts.now ?? Date.now());
    for (const month of new Set([...months.filter((m) => !summed.has(m)), ...touched])) {
      if (nextMonth(month) <= open) await buildMonth(tx, month);
    }
    return wanted.length;
  });
  // After a month or more computed at once (a first build), the planner learns the table's new size.
  if (computed >= 28) await db.execute(sql`analyze analytics_days`);
  return split;
}

/** The recurring job: keeps the last year's closed days rolled up, so the page rarely computes one. */
export async function rollUpLastYear(db: Db, now = Date.now()): Promise<void> {
  const to = addDays(firstOpenDay(now), -1);
  await rolledUp(db, { from: addDays(to, -366), to }, { months: true, now });
}

/** The job that keeps the rollup up to date; also sent once when the jobs start. */
export const ROLLUP_JOB = 'analytics-rollup';

/**
 * Every ten minutes: a day closes an hour after Baku's midnight, and days whose orders changed
 * are computed again here rather than by the next page that asks (nothing to do is one query).
 */
export function analyticsJobs(db: Db): JobDefinition[] {
  return [{ name: ROLLUP_JOB, cron: '*/10 * * * *', handler: () => rollUpLastYear(db) }];
}
