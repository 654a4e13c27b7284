/**
 * `npm run bench:pages`: how many anonymous public pages the production build serves per second.
 *
 * Starts the built app (`node --import tsx src/server/main.ts`, dist/ must exist: `npm run build`)
 * twice, once on the embedded PGlite and once on PostgreSQL (a fresh database created on
 * BENCH_DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/test, dropped at the
 * end), each with NODE_ENV=production (React's production server renderer, as deployed; the
 * sandbox provider and gateway allowed). Against each it runs autocannon, CONNECTIONS (default 50)
 * connections for DURATION seconds (default 10) per page, after a 2 s warm-up of that page, on
 * /en, /en/services, /az/about and /terms as a first-time visitor (no cookie, gzip accepted).
 * Prints req/s, p50, p99, non-2xx answers and timeouts per page, the load average before each
 * run (the machine is shared), and the goal beside them: ≥ 1,000 req/s with p99 ≤ 50 ms.
 *
 * BENCH_PAGES=/en,/terms measures only those pages; BENCH_DB=pglite or postgres only that one.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { removeDataDir, startAppProcess, type AppProcess } from '../e2e/app-process';

const PAGES = process.env.BENCH_PAGES?.split(',').filter(Boolean) ?? ['/en', '/en/services', '/az/about', '/terms'];
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASES = (process.env.BENCH_DB?.split(',') ?? ['pglite', 'postgres']) as ('pglite' | 'postgres')[];
const GOAL = { rps: 1000, p99Ms: 50 };
const TIMEOUT_S = 10;

/** The production settings the server insists on; nothing here leaves the machine. */
const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'error',
  AUTH_SECRET: randomBytes(32).toString('hex'),
  PUBLIC_URL: 'http://localhost',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  ALLOW_SANDBOX_IN_PRODUCTION: 'true',
};

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

interface Row {
  db: string;
  page: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  timeouts: number;
  errors: number;
  total: number;
  loadBefore: string;
}

async function measure(app: AppProcess, db: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const page of PAGES) {
    const url = app.url + page;
    const first = await fetch(url);
    if (first.status !== 200) throw new Error(`${db}: ${page} answered ${first.status}`);
    await autocannon({ url, connections: CONNECTIONS, duration: 2, timeout: TIMEOUT_S, headers: { 'accept-encoding': 'gzip' } });
    const loadBefore = load();
    const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, timeout: TIMEOUT_S, headers: { 'accept-encoding': 'gzip' } });
    rows.push({
      db,
      page,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
      timeouts: r.timeouts,
      errors: r.errors - r.timeouts,
      total: r.requests.total,
      loadBefore,
    });
    const last = rows.at(-1)!;
    console.log(`  ${db} ${page}: ${last.rps.toFixed(0)} req/s, p50 ${last.p50} ms, p99 ${last.p99} ms, non-2xx ${last.non2xx}, timeouts ${last.timeouts} (load before ${loadBefore})`);
  }
  return rows;
}

async function main() {
  if (!existsSync(resolve('dist/client/.vite/manifest.json')) || !existsSync(resolve('dist/server'))) {
    throw new Error('No production build in dist/: run `npm run build` first.');
  }
  console.log(`bench:pages: ${CONNECTIONS} connections, ${DURATION} s per page, ${os.cpus().length} cores, Node ${process.version}; load average ${load()}`);
  const rows: Row[] = [];
  for (const db of DATABASES) {
    let name: string | undefined;
    let admin: pg.Client | undefined;
    let env: Record<string, string> = PRODUCTION_ENV;
    if (db === 'postgres') {
      name = `artim_pages_${randomBytes(4).toString('hex')}`;
      admin = new pg.Client({ connectionString: SERVER });
      await admin.connect();
      await admin.query(`create database ${name}`);
      env = { ...env, DATABASE_URL: Object.assign(new URL(SERVER), { pathname: `/${name}` }).toString() };
    }
    const app = await startAppProcess(env);
    try {
      console.log(`\n${db}: app at ${app.url}`);
      rows.push(...(await measure(app, db)));
    } finally {
      await app.stop();
      removeDataDir(app.dataDir);
      if (admin) {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }
  }

  const table = [
    ['database', 'page', 'req/s', 'p50', 'p99', 'non-2xx', 'timeouts', 'other errors', 'requests', 'load avg before (1, 5, 15 min)', 'goal'],
    ...rows.map((r) => [
      r.db,
      r.page,
      r.rps.toFixed(0),
      `${r.p50} ms`,
      `${r.p99} ms`,
      String(r.non2xx),
      String(r.timeouts),
      String(r.errors),
      String(r.total),
      r.loadBefore,
      r.rps >= GOAL.rps && r.p99 <= GOAL.p99Ms && r.non2xx + r.timeouts + r.errors === 0 ? 'met' : 'missed',
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  console.log('');
  for (const r of table) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  console.log(`\nGoal: ≥ ${GOAL.rps.toLocaleString('en')} req/s with p99 ≤ ${GOAL.p99Ms} ms and no failed request, on PGlite and PostgreSQL (autocannon, ${CONNECTIONS} connections).`);
  console.log(`Load average at the end: ${load()} (autocannon shares the cores with the app).`);
}

await main();
