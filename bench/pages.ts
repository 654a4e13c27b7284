/**
 * `npm run bench:pages`: how many pages the production build serves per second, anonymous and
 * signed in.
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
 * Signed-in pages: a customer with 50 orders (placed through the API at a sandbox provider) asks
 * for /en/dashboard and /en/order with their session cookie. Beside each, in the same run, a bare
 * `node:http` server in a process of its own answers the same HTML (gzipped once) to the same
 * autocannon load: the machine's ceiling for that page. The app's memory (RSS) is printed before
 * and after each signed-in page's 2 s warm-up, its range during the run (sampled every 250 ms) and
 * at its end, and the CPU time the app's process spent per request during
 * it (less disturbed than req/s by other work on a shared machine). Goal: ≥ 1,000 req/s with p99 ≤ 50 ms on PostgreSQL, ≥ 500
 * req/s on PGlite.
 *
 * BENCH_PAGES=/en,/terms measures only those anonymous pages (BENCH_PAGES= none);
 * BENCH_SIGNED_IN=/en/dashboard only those signed-in pages; BENCH_DB=pglite or postgres only that one.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import pg from 'pg';
import { E2E_ADMIN, removeDataDir, startAppProcess, type AppProcess } from '../e2e/app-process';
import { startSandboxProvider } from '../sandbox/provider';
import { providerEnv } from '../src/server/testing/sandbox';

const PAGES = process.env.BENCH_PAGES?.split(',').filter(Boolean) ?? ['/en', '/en/services', '/az/about', '/terms'];
const SIGNED_IN = process.env.BENCH_SIGNED_IN?.split(',').filter(Boolean) ?? ['/en/dashboard', '/en/order'];
const ORDERS = 50;
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASES = (process.env.BENCH_DB?.split(',') ?? ['pglite', 'postgres']) as ('pglite' | 'postgres')[];
const GOAL = { rps: 1000, p99Ms: 50 };
/** Signed-in pages: the goal per database (PGlite answers in the app's own process). */
const SIGNED_IN_GOAL = { postgres: { rps: 1000, p99Ms: 50 }, pglite: { rps: 500, p99Ms: Infinity } };
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
  /**
   * Signed-in pages: the app's RSS before the warm-up, after it, its lowest and highest during the
   * measured run (sampled every 250 ms) and after it; and the goal for this database.
   */
  rss?: string;
  /** Signed-in pages: the app process's CPU time (user + system) per answered request, warm-up excluded. */
  cpuMs?: number;
  goal?: { rps: number; p99Ms: number };
}

type Result = autocannon.Result;

function rowOf(db: string, page: string, r: Result, loadBefore: string, extra: Partial<Row> = {}): Row {
  return {
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
    ...extra,
  };
}

const print = (r: Row) =>
  console.log(
    `  ${r.db} ${r.page}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, timeouts ${r.timeouts}${r.rss ? `, RSS ${r.rss}` : ''}${r.cpuMs === undefined ? '' : `, app CPU ${r.cpuMs.toFixed(3)} ms/request`} (load before ${r.loadBefore})`,
  );

/** The app's resident memory in MB (Linux). */
const rssOf = (app: AppProcess) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${app.child.pid}/status`, 'utf8'))![1]) / 1024;
/**
 * The CPU time the app's process used so far, user and system, in ms (Linux; clock ticks of 10 ms):
 * per request, a figure the other processes on a shared machine disturb less than requests per second.
 */
function cpuMsOf(app: AppProcess): number {
  const fields = readFileSync(`/proc/${app.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * A bare `node:http` server in a process of its own that answers every request with `html`,
 * gzipped once: the most this machine serves of that page, with nothing computed per request.
 */
async function startCeiling(html: string): Promise<{ url: string; stop: () => void }> {
  const dir = mkdtempSync(join(os.tmpdir(), 'artim-ceiling-'));
  writeFileSync(join(dir, 'page.html.gz'), gzipSync(html, { level: 6 }));
  const code = `
    const body = require('node:fs').readFileSync(${JSON.stringify(join(dir, 'page.html.gz'))});
    require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': body.length, 'cache-control': 'private, no-store' });
      res.end(body);
    }).listen(0, '127.0.0.1', function () { console.log('listening ' + this.address().port); });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((done, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(String(d));
      if (m) done(Number(m[1]));
    });
    child.once('exit', (c) => fail(new Error(`ceiling server exited with ${c}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const CUSTOMER = { email: 'bench-pages@example.com', password: 'Bench-pages-1!', name: 'Bench Pages' };
const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
const poster = (app: AppProcess) => (path: string, cookie: string, body: unknown) =>
  // Writes must come from the site's own address (the public URL).
  fetch(app.url + path, { method: 'POST', headers: { 'content-type': 'application/json', origin: PRODUCTION_ENV.PUBLIC_URL, cookie }, body: JSON.stringify(body) });

/**
 * The customer with ORDERS orders, placed through the API of an app on the same data outside
 * production (where the team's admin area asks for no second factor, so the admin can credit them),
 * and their session as the production app on the same data and secret names it (`__Secure-`): a
 * password hashed outside production at the tests' cost never signs in there (src/server/passwords.ts).
 */
async function customerWithOrders(app: AppProcess): Promise<string> {
  const post = poster(app);
  const signUp = await post('/api/auth/sign-up/email', '', CUSTOMER);
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
  const cookie = cookieOf(signUp);
  const me = (await (await fetch(`${app.url}/api/me`, { headers: { cookie } })).json()) as { user: { id: string } };
  const signIn = await post('/api/auth/sign-in/email', '', E2E_ADMIN);
  if (signIn.status !== 200) throw new Error(`admin sign-in answered ${signIn.status}`);
  const credit = await post(`/api/admin/users/${me.user.id}/balance`, cookieOf(signIn), { amountMicros: 1_000_000_000, reason: 'bench balance' });
  if (credit.status !== 200) throw new Error(`credit answered ${credit.status}`);
  const list = (await (await fetch(`${app.url}/api/catalog/services?lang=en`)).json()) as { services: { id: string; platform: string; min: number; hasParams: boolean; displayPrice: unknown }[] };
  const service = list.services.find((s) => s.platform.toLowerCase() === 'instagram' && !s.hasParams && s.displayPrice);
  if (!service) throw new Error('no service to order');
  for (let i = 0; i < ORDERS; i++) {
    const placed = await post('/api/orders', cookie, { serviceId: service.id, link: `https://www.instagram.com/bench_${i}/`, quantity: service.min, params: {}, idempotencyKey: randomUUID() });
    if (placed.status !== 201) throw new Error(`order ${i} answered ${placed.status}: ${await placed.text()}`);
  }
  return cookie
    .split('; ')
    .map((c) => (c.startsWith('__Secure-') ? c : `__Secure-${c}`))
    .join('; ');
}

async function measure(app: AppProcess, db: 'pglite' | 'postgres', cookie: string): Promise<Row[]> {
  const rows: Row[] = [];
  const run = (url: string, headers: Record<string, string>, duration: number) =>
    autocannon({ url, connections: CONNECTIONS, duration, timeout: TIMEOUT_S, headers: { 'accept-encoding': 'gzip', ...headers } });
  for (const page of PAGES) {
    const url = app.url + page;
    const first = await fetch(url);
    if (first.status !== 200) throw new Error(`${db}: ${page} answered ${first.status}`);
    await run(url, {}, 2);
    const loadBefore = load();
    rows.push(rowOf(db, page, await run(url, {}, DURATION), loadBefore));
    print(rows.at(-1)!);
  }
  if (!SIGNED_IN.length) return rows;
  for (const page of SIGNED_IN) {
    const url = app.url + page;
    const first = await fetch(url, { headers: { cookie } });
    const html = await first.text();
    if (first.status !== 200 || !html.includes('Bench Pages')) throw new Error(`${db}: ${page} signed in answered ${first.status} without the customer's name`);
    // The ceiling: the same HTML from a bare server, under the same load, in the same run.
    const ceiling = await startCeiling(html);
    try {
      await run(ceiling.url, { cookie }, 2);
      const ceilingLoad = load();
      rows.push(rowOf(db, `${page} (bare node:http, same HTML)`, await run(ceiling.url, { cookie }, DURATION), ceilingLoad));
      print(rows.at(-1)!);
    } finally {
      ceiling.stop();
    }
    const before = rssOf(app);
    await run(url, { cookie }, 2);
    const warm = rssOf(app);
    const loadBefore = load();
    const cpuBefore = cpuMsOf(app);
    // Memory under the load: sampled four times a second while it lasts.
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssOf(app)), 250);
    let r: Result;
    try {
      r = await run(url, { cookie }, DURATION);
    } finally {
      clearInterval(sampler);
    }
    const cpuMs = (cpuMsOf(app) - cpuBefore) / Math.max(1, r.requests.total);
    const after = rssOf(app);
    const mb = (n: number) => n.toFixed(0);
    const rss = `${mb(before)} → ${mb(warm)} → ${mb(Math.min(...samples))}–${mb(Math.max(...samples))} → ${mb(after)} MB`;
    rows.push(rowOf(db, `${page} signed in`, r, loadBefore, { rss, cpuMs, goal: SIGNED_IN_GOAL[db] }));
    print(rows.at(-1)!);
  }
  return rows;
}

const met = (r: Row, goal: { rps: number; p99Ms: number }) => r.rps >= goal.rps && r.p99 <= goal.p99Ms && r.non2xx + r.timeouts + r.errors === 0;

async function main() {
  if (!existsSync(resolve('dist/client/.vite/manifest.json')) || !existsSync(resolve('dist/server'))) {
    throw new Error('No production build in dist/: run `npm run build` first.');
  }
  console.log(`bench:pages: ${CONNECTIONS} connections, ${DURATION} s per page, ${os.cpus().length} cores, Node ${process.version}; load average ${load()}`);
  const rows: Row[] = [];
  // The orders of the signed-in customer go to a sandbox provider on this machine.
  const sandbox = await startSandboxProvider({ orderSeconds: 3600 });
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
    const dataDir = mkdtempSync(join(os.tmpdir(), 'artim-pages-'));
    let cookie = '';
    if (SIGNED_IN.length) {
      const setup = await startAppProcess({ ...env, ...providerEnv(sandbox), NODE_ENV: 'test' }, dataDir);
      try {
        cookie = await customerWithOrders(setup);
      } finally {
        await setup.stop();
      }
    }
    const app = await startAppProcess({ ...env, ...providerEnv(sandbox) }, dataDir);
    try {
      console.log(`\n${db}: app at ${app.url}`);
      rows.push(...(await measure(app, db, cookie)));
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
    ['database', 'page', 'req/s', 'p50', 'p99', 'non-2xx', 'timeouts', 'other errors', 'requests', 'RSS: start → warmed → during the run (min–max) → end', 'app CPU ms/request', 'load avg before (1, 5, 15 min)', 'goal'],
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
      r.rss ?? '',
      r.cpuMs === undefined ? '' : r.cpuMs.toFixed(3),
      r.loadBefore,
      r.page.includes('bare node:http') ? 'ceiling' : met(r, r.goal ?? GOAL) ? 'met' : 'missed',
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  console.log('');
  for (const r of table) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  console.log(`\nGoal: ≥ ${GOAL.rps.toLocaleString('en')} req/s with p99 ≤ ${GOAL.p99Ms} ms and no failed request, on PGlite and PostgreSQL (autocannon, ${CONNECTIONS} connections).`);
  console.log(
    `Signed in (a customer with ${ORDERS} orders): ≥ ${SIGNED_IN_GOAL.postgres.rps.toLocaleString('en')} req/s with p99 ≤ ${SIGNED_IN_GOAL.postgres.p99Ms} ms on PostgreSQL, ≥ ${SIGNED_IN_GOAL.pglite.rps} req/s on PGlite; the bare node:http row above each is the ceiling.`,
  );
  await sandbox.close();
  console.log(`Load average at the end: ${load()} (autocannon shares the cores with the app).`);
}

await main();
