/**
 * `npm run bench:analytics` — the analytics page's API over a year of a busy shop, on PostgreSQL.
 *
 * Creates a database of its own (dropped at the end) and fills it with SQL `generate_series`, as an
 * import would (triggers off): CUSTOMERS customers (default 20,000) who joined over the year, ORDERS
 * orders (default 1,000,000) spread over the last 365 days with a ledger `order_charge` each, a
 * refund for one order in ten (half of them partial, a day later), one top-up for every ten orders
 * (with its payment row), and one top-up in a hundred reversed by the bank (`chargeback`).
 *
 * Then it times the analytics routes (`GET /api/admin/analytics` and its four breakdowns, through
 * their Hono handlers; sign-in and the guard in front are not timed) for today, 7, 30, 90 and 365
 * days: each route alone (median of ROUNDS, default 3, after one warm-up), and the whole page as the
 * browser asks for it (the figures and the breakdown of its open tab, by platform, at once):
 *
 * 1. Baseline, in the same run on the same rows: every figure computed from the ledger and orders
 *    on each request (the rollup bypassed), and a `select 1` round trip.
 * 2. The rollup of the year's closed days built from nothing, as the rollup job does once on a shop that had none.
 * 3. The routes with the rollup in place.
 * 4. After a busy day's changes to closed days (CHANGED orders, default 3,000, of the last three
 *    days completed or refunded at their provider, each marking its day stale): the first whole
 *    page, which computes those days again, for 30 and 365 days.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names a server where the
 * bench may create and drop a database.
 */
import pg from 'pg';
import { openPostgres } from '../src/server/db/client';
import { adminAnalyticsRoutes } from '../src/server/admin/analytics';
import { breakdown, periodFigures } from '../src/server/analytics/figures';
import { rollUpLastYear } from '../src/server/analytics/rollup';
import { periodDays, type AnalyticsQuery, type Breakdown } from '../src/core/analytics';
import type { AppDeps } from '../src/server/deps';
import { ms, pct, withDatabase } from './rawOrders';

const ORDERS = Number(process.env.ORDERS ?? 1_000_000);
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CHANGED = Number(process.env.CHANGED ?? 3000);

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const PERIODS: [string, string][] = [
  ['today', 'period=today&group=day'],
  ['7 days', 'period=7d&group=day'],
  ['30 days', 'period=30d&group=day'],
  ['90 days', 'period=90d&group=week'],
  ['365 days', `period=custom&from=${day(-364)}&to=${day(0)}&group=month`],
];
const BREAKDOWNS = ['platform', 'service', 'provider', 'customer'];

async function generate(client: pg.Client) {
  const started = performance.now();
  // As an import: no triggers (the rollup is built from nothing after it).
  await client.query(`set session_replication_role = replica`);
  await client.query(`
    insert into providers (id, name, protocol, url, key_encrypted, key_hint)
    select ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'Panel ' || g, 'smm-v2', 'https://panel' || g || '.example/api/v2', 'sealed', 'xxxx'
    from generate_series(1, 3) g`);
  await client.query(`
    insert into users (id, name, email, balance_micros, created_at)
    select 'bench-' || g, 'Customer ' || g, 'c' || g || '@bench.example', 0, now() - interval '365 days' + (g::float / ${CUSTOMERS}) * interval '365 days'
    from generate_series(1, ${CUSTOMERS}) g`);
  await client.query(`insert into user_roles (user_id, role) select id, 'user' from users where id like 'bench-%'`);
  // Orders: every 10th refunded (odd tens in full and cancelled, even tens in part), cost 70 % of the charge.
  await client.query(`
    insert into orders (id, number, user_id, service_id, service_name, platform, service_type, link, link_key, quantity, charge_micros, refunded_micros,
                        status, provider_id, cost_micros, cost_refunded_micros, idempotency_key, request_hash, api_id, created_at, updated_at)
    select md5(g::text)::uuid, 'B' || g, 'bench-' || (1 + g % ${CUSTOMERS}), 'svc-' || (g % 400), 'Service ' || (g % 400),
           (array['instagram', 'tiktok', 'youtube', 'telegram', 'facebook'])[1 + g % 5], 'Default', 'https://example.com/' || g, 'l' || g, 1000,
           charge, case when g % 10 <> 0 then 0 when g % 20 = 0 then charge / 2 else charge end,
           case when g % 10 <> 0 then 'completed' when g % 20 = 0 then 'partial' else 'cancelled' end,
           ('00000000-0000-4000-8000-' || lpad((1 + g % 3)::text, 12, '0'))::uuid,
           charge * 7 / 10, case when g % 10 <> 0 then 0 when g % 20 = 0 then charge * 7 / 20 else charge * 7 / 10 end,
           'k' || g, 'h', g, at, at
    from (select g, 100000 + (g::bigint * 7919) % 5000000 as charge, now() - (g::float / ${ORDERS}) * interval '365 days' as at from generate_series(1, ${ORDERS}) g) o`);
  await client.query(`
    insert into ledger_entries (user_id, amount_micros, kind, reference, created_at)
    select user_id, -charge_micros, 'order_charge', id::text, created_at from orders`);
  await client.query(`
    insert into ledger_entries (user_id, amount_micros, kind, reference, created_at)
    select user_id, refunded_micros, 'order_refund', id::text || ':' || refunded_micros, least(created_at + interval '1 day', now()) from orders where refunded_micros > 0`);
  await client.query(`
    insert into payments (id, reference, user_id, amount_usd_micros, amount_qepik, rate, status, provider, created_at, settled_at)
    select md5('p' || g)::uuid, 'balance-' || g, 'bench-' || (1 + g % ${CUSTOMERS}), 20000000, 3400, '1.7', 'completed', 'epoint', at, at
    from (select g, now() - (g::float / ${ORDERS / 10}) * interval '365 days' as at from generate_series(1, ${ORDERS / 10}) g) p`);
  await client.query(`insert into ledger_entries (user_id, amount_micros, kind, reference, created_at) select user_id, amount_usd_micros, 'topup', id::text, settled_at from payments`);
  await client.query(`
    insert into ledger_entries (user_id, amount_micros, kind, reference, created_at)
    select user_id, -amount_usd_micros, 'chargeback', id::text, least(settled_at + interval '3 days', now()) from payments where reference like '%00'`);
  await client.query(`set session_replication_role = origin`);
  await client.query('analyze');
  const [{ orders, ledger }] = (await client.query(`select (select count(*) from orders)::int as orders, (select count(*) from ledger_entries)::int as ledger`)).rows;
  console.log(`Generated ${orders.toLocaleString('en')} orders, ${ledger.toLocaleString('en')} ledger entries, ${CUSTOMERS.toLocaleString('en')} customers in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
}

type Routes = ReturnType<typeof adminAnalyticsRoutes>;
/** Answers one of the page's requests, by path. */
type Ask = (path: string) => Promise<void>;

async function timed(ask: Ask, path: string): Promise<number> {
  const started = performance.now();
  await ask(path);
  return performance.now() - started;
}

const throughRoutes =
  (routes: Routes): Ask =>
  async (path) => {
    const res = await routes.request(path);
    await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  };

/** The same answers computed from the ledger and orders on each request: every day open, as asked before any of them ended. */
const fromTheRows =
  (db: Parameters<typeof periodFigures>[0]): Ask =>
  async (path) => {
    const url = new URL(path, 'http://bench');
    const q = Object.fromEntries(url.searchParams) as unknown as AnalyticsQuery & { by?: Breakdown };
    const p = periodDays(q)!;
    const at = { now: Date.parse('2000-01-01T00:00:00Z') };
    if (url.pathname === '/breakdown') JSON.stringify(await breakdown(db, p, q.by!, at));
    else JSON.stringify(await periodFigures(db, p, q.group, at));
  };

const median = (xs: number[]) => pct([...xs].sort((a, b) => a - b), 50);
const pathsOf = (q: string) => [`/?${q}`, ...BREAKDOWNS.map((by) => `/breakdown?${q}&by=${by}`)];
/** The page as the browser asks for it: its figures and the breakdown of its open tab, at once. */
const wholePage = async (ask: Ask, q: string) => {
  const started = performance.now();
  await Promise.all(pathsOf(q).slice(0, 2).map((p) => ask(p)));
  return performance.now() - started;
};

async function measure(ask: Ask, label: string) {
  console.log(`### ${label}\n`);
  console.log('| Period | Figures (series, statuses) | By platform | By service | By provider | By customer | Whole page (figures and one breakdown at once) |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const pages: Record<string, number> = {};
  for (const [name, q] of PERIODS) {
    const paths = pathsOf(q);
    for (const p of paths) await timed(ask, p); // warm-up
    const each = paths.map(() => [] as number[]);
    const whole: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < paths.length; i++) each[i]!.push(await timed(ask, paths[i]!));
      whole.push(await wholePage(ask, q));
    }
    pages[name] = median(whole);
    console.log(`| ${name} | ${each.map((xs) => ms(median(xs))).join(' | ')} | ${ms(median(whole))} |`);
  }
  console.log('');
  return pages;
}

await withDatabase(async (url) => {
  const database = await openPostgres(url, 10);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await generate(client);
    const routes = adminAnalyticsRoutes({ database } as AppDeps);

    const trips: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      await client.query('select 1');
      trips.push(performance.now() - started);
    }
    console.log(`Baseline: a \`select 1\` round trip takes ${ms(median(trips))} (median of 50).\n`);

    const before = await measure(fromTheRows(database.db), 'Computed from the ledger and orders on each request (baseline)');

    let started = performance.now();
    await rollUpLastYear(database.db);
    const built = performance.now() - started;
    const [{ rows }] = (await client.query(`select count(*)::int as rows from analytics_days`)).rows;
    console.log(`The rollup of the year's closed days, built from nothing (the rollup job, once): ${(built / 1000).toFixed(1)} s, ${rows.toLocaleString('en')} rows.\n`);

    const after = await measure(throughRoutes(routes), 'With the rollup of closed days (as served)');

    // A busy day's changes to closed days: orders of the last three days completed or refunded at their provider.
    const ask = throughRoutes(routes);
    const changed: Record<string, number> = {};
    for (const [name, q] of PERIODS.filter(([n]) => n === '30 days' || n === '365 days')) {
      await client.query(`
        update orders set status = 'partial', cost_refunded_micros = cost_micros / 2
        where id in (select id from orders where created_at < now() - interval '1 day' and created_at > now() - interval '4 days' and status = 'completed' order by random() limit ${CHANGED})`);
      started = performance.now();
      await wholePage(ask, q);
      changed[name] = performance.now() - started;
    }
    console.log(`After ${CHANGED.toLocaleString('en')} orders of the last three closed days changed, the first whole page (which computes those days again): 30 days ${ms(changed['30 days']!)}, 365 days ${ms(changed['365 days']!)}.\n`);

    console.log('| Period | Whole page from the rows (baseline) | Whole page with the rollup |');
    console.log('| --- | --- | --- |');
    for (const [name] of PERIODS) console.log(`| ${name} | ${ms(before[name]!)} | ${ms(after[name]!)} |`);
  } finally {
    await client.end();
    await database.close();
  }
});
