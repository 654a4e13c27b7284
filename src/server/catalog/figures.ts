import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ServiceFigures } from '../../core/contracts/catalog';
import { FINAL_STATUSES } from '../../core/orderStatus';
import { cachesOf } from '../cache';
import { rowsOf, type Db } from '../db/client';
import { sqlList } from '../db/sqlList';

/**
 * Service figures (docs/rules.md#service-figures): each service's usual start and completion
 * times and its completion rate, read from its last FIGURES_SAMPLE finished orders — orders the
 * provider accepted (a provider id) that reached a final status, drip-feed parents left out,
 * latest first by when they last changed:
 * - start: median of (started_at − created_at) over those with a recorded start;
 * - completion: median of (completed_at − created_at) over the completed ones with a recorded
 *   completion (partial orders are not counted as completions);
 * - completion rate: completed ÷ all of them (partial, cancelled, refunded, failed and stopped
 *   count against it), in whole percent, rounded half up.
 * Each figure needs at least FIGURES_MIN_ORDERS orders behind it, or it is null ("not enough
 * orders yet"). Medians are given in whole minutes, rounded half up.
 *
 * Kept on the server only: the 90th percentile of the start, over the same orders with the same
 * minimum (`startP90`), from which an order with no progress counts as delayed (orders/stuck.ts).
 */
export const FIGURES_SAMPLE = 50;
export const FIGURES_MIN_ORDERS = 5;

export interface FiguresSnapshot {
  byService: Map<string, ServiceFigures>;
  /** Changes when any figure does: part of the service list's version. */
  stamp: string;
  /** The 90th percentile of each service's start, in whole minutes (rounded half up), where enough orders show one. Not public. */
  startP90: Map<string, number>;
}

interface Row {
  service_id: string;
  finished: number;
  completed: number;
  start_n: number;
  start_s: number | string | null;
  start_p90_s?: number | string | null;
  done_n: number;
  done_s: number | string | null;
}

const minutes = (seconds: number | string | null) => (seconds === null ? null : Math.max(0, Math.round(Number(seconds) / 60)));

/** The figures of one service from its counts, or undefined when none is known yet. */
export function figuresOf(r: Row): ServiceFigures | undefined {
  const out: ServiceFigures = {
    startMinutes: r.start_n >= FIGURES_MIN_ORDERS ? minutes(r.start_s) : null,
    completeMinutes: r.done_n >= FIGURES_MIN_ORDERS ? minutes(r.done_s) : null,
    completionRate: r.finished >= FIGURES_MIN_ORDERS ? Math.floor((r.completed * 200 + r.finished) / (r.finished * 2)) : null,
  };
  return out.startMinutes === null && out.completeMinutes === null && out.completionRate === null ? undefined : out;
}

/** The 90th percentile of the service's start in minutes, or null without enough orders behind it. */
export function startP90Of(r: Pick<Row, 'start_n' | 'start_p90_s'>): number | null {
  return r.start_n >= FIGURES_MIN_ORDERS ? minutes(r.start_p90_s ?? null) : null;
}

/** Reads every active service's figures in one statement (one ordered index scan per service). */
async function loadFigures(db: Db): Promise<FiguresSnapshot> {
  const result = await db.execute(sql`
    select s.id as service_id, f.finished, f.completed, f.start_n, f.start_s, f.start_p90_s, f.done_n, f.done_s
    from catalog_services s
    cross join lateral (
      select
        count(*)::int as finished,
        count(*) filter (where r.status = 'completed')::int as completed,
        count(r.started_at)::int as start_n,
        percentile_cont(0.5) within group (order by extract(epoch from r.started_at - r.created_at)) as start_s,
        percentile_cont(0.9) within group (order by extract(epoch from r.started_at - r.created_at)) as start_p90_s,
        count(r.completed_at) filter (where r.status = 'completed')::int as done_n,
        percentile_cont(0.5) within group (order by extract(epoch from r.completed_at - r.created_at)) filter (where r.status = 'completed') as done_s
      from (
        select o.status, o.created_at, o.started_at, o.completed_at
        from orders o
        where o.service_id = s.id and o.status in (${sqlList(FINAL_STATUSES)}) and o.provider_order_id is not null and o.runs is null
        order by o.updated_at desc
        limit ${sql.raw(String(FIGURES_SAMPLE))}
      ) r
    ) f
    where s.active and f.finished > 0
    order by s.id`);
  const byService = new Map<string, ServiceFigures>();
  const startP90 = new Map<string, number>();
  for (const r of rowsOf<Row>(result)) {
    const row = { ...r, finished: Number(r.finished), completed: Number(r.completed), start_n: Number(r.start_n), done_n: Number(r.done_n) };
    const f = figuresOf(row);
    if (f) byService.set(r.service_id, f);
    const p90 = startP90Of(row);
    if (p90 !== null) startP90.set(r.service_id, p90);
  }
  const stamp = createHash('sha1').update(JSON.stringify([...byService])).digest('base64url');
  return { byService, stamp, startP90 };
}

const lastKnown = new WeakMap<Db, FiguresSnapshot>();
const loading = new WeakMap<Db, Promise<FiguresSnapshot>>();

/**
 * The figures of every service, through this instance's cache when it keeps one: they expire
 * with its entries (a minute; completions announce nothing) and are then read again once, in the
 * background, while requests keep the last known ones — reading them takes a few hundred
 * milliseconds on a large shop, which no request waits for but the first.
 */
export function serviceFigures(db: Db): Promise<FiguresSnapshot> {
  const caches = cachesOf(db);
  if (!caches) return loadFigures(db);
  const fresh = caches.figures.get('all') as FiguresSnapshot | undefined;
  if (fresh) return Promise.resolve(fresh);
  let load = loading.get(db);
  if (!load) {
    load = loadFigures(db)
      .then((value) => {
        caches.figures.set('all', value);
        lastKnown.set(db, value);
        return value;
      })
      .finally(() => loading.delete(db));
    loading.set(db, load);
  }
  const stale = lastKnown.get(db);
  if (!stale) return load;
  load.catch(() => {});
  return Promise.resolve(stale);
}
