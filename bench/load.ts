/**
 * `npm run bench:load` — a realistic mix against the storefront on PostgreSQL, loopback only,
 * bounded in time: anonymous catalogue browsing (list with ETag revalidation, one service,
 * platforms, settings), signed-in dashboard reads (orders, counters, wallet, payments), order
 * placement, and open SSE connections. Prints throughput, p50/p99 per route, the error count
 * (must be 0) and the server's memory at start and end.
 *
 * DURATION seconds (default 600), CONNECTIONS per stream (default 10), CUSTOMERS (default 20),
 * SSE (open event streams, default 50), BENCH_DATABASE_URL (default the local PostgreSQL).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { startAppProcess } from '../e2e/app-process';
import { startSandboxProvider } from '../sandbox/provider';
import { providerEnv } from '../src/server/testing/sandbox';

const SERVER = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION = Number(process.env.DURATION ?? 600);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 20);
const SSE = Number(process.env.SSE ?? 50);

const name = `artim_load_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: SERVER });
await admin.connect();
await admin.query(`create database ${name}`);
const dbUrl = Object.assign(new URL(SERVER), { pathname: `/${name}` }).toString();

const sandbox = await startSandboxProvider({ orderSeconds: 120 });
const app = await startAppProcess(
  { DATABASE_URL: dbUrl, ...providerEnv(sandbox), LOG_LEVEL: 'error', NODE_ENV: 'test', DATABASE_POOL_SIZE: '20' },
  undefined,
  ['--no-web'],
);
const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
const origin = app.url.replace('127.0.0.1', 'localhost');
const rss = async () => Number((await import('node:fs')).readFileSync(`/proc/${app.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]) / 1024;

try {
  // Customers with a balance, signed in; sign-up limits are per address, so the bench clears them.
  const cookies: string[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const res = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: `load${i}@example.com`, password: 'Load-pass-1!', name: `Load ${i}` }),
    });
    if (res.status !== 200) throw new Error(`sign-up ${res.status}`);
    cookies.push(res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '));
    await db.query('delete from rate_limits');
  }
  await db.query(`insert into ledger_entries (user_id, amount_micros, kind, reference) select id, 1000000000000, 'topup', 'load-' || id from users`);
  await db.query(`update users set balance_micros = balance_micros + 1000000000000`);
  // Order placement is rate-limited per customer (60 a minute); the mix stays under it.
  await db.query(`delete from rate_limits`);

  const list = await fetch(`${app.url}/api/catalog/services`);
  const etag = list.headers.get('etag')!;
  const services = (await list.json()).services as { id: string; platform: string; min: number; hasParams: boolean }[];
  const plain = services.filter((s) => s.platform === 'instagram' && !s.hasParams);

  // Open event streams held for the whole run.
  const streams = await Promise.all(
    Array.from({ length: SSE }, async (_, i) => {
      const controller = new AbortController();
      const res = await fetch(`${app.url}/api/events`, { headers: { cookie: cookies[i % cookies.length]! }, signal: controller.signal });
      const reader = res.body!.getReader();
      void (async () => {
        for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) break;
      })();
      return { controller, ok: res.status === 200 };
    }),
  );

  const memoryStart = await rss();
  let n = 0;
  const cookie = () => cookies[n++ % cookies.length]!;
  // Orders go round the customers on their own counter: each stays under the 60-a-minute limit.
  let placed = 0;
  const streamsOf: { title: string; opts: autocannon.Options }[] = [
    { title: 'GET /api/catalog/services (304)', opts: { url: `${app.url}/api/catalog/services`, headers: { 'if-none-match': etag } } },
    { title: 'GET /api/catalog/services (full, gzip)', opts: { url: `${app.url}/api/catalog/services`, headers: { 'accept-encoding': 'gzip' }, connections: Math.max(1, CONNECTIONS / 5) } },
    { title: 'GET /api/catalog/services/:id', opts: { url: `${app.url}/api/catalog/services/${plain[0]!.id}` } },
    { title: 'GET /api/catalog/platforms + /api/settings', opts: { url: app.url, requests: [{ path: '/api/catalog/platforms' }, { path: '/api/settings' }] } },
    {
      title: 'dashboard reads (overview, wallet, payments)',
      opts: {
        url: app.url,
        requests: ['/api/orders/overview', '/api/wallet', '/api/payments'].map((path) => ({ path, setupRequest: (req: any) => ({ ...req, headers: { ...req.headers, cookie: cookie() } }) })),
      },
    },
    {
      title: 'POST /api/orders',
      opts: {
        url: `${app.url}/api/orders`,
        connections: Math.max(1, Math.floor(CUSTOMERS / 4)),
        overallRate: Math.floor((CUSTOMERS * 40) / 60),
        requests: [
          {
            method: 'POST',
            setupRequest: (req: any) => {
              const i = placed++;
              return {
                ...req,
                headers: { 'content-type': 'application/json', origin, cookie: cookies[i % cookies.length]! },
                body: JSON.stringify({ serviceId: plain[i % plain.length]!.id, link: `https://instagram.com/load.${i}`, quantity: plain[i % plain.length]!.min, params: {}, idempotencyKey: randomUUID() }),
              };
            },
          },
        ],
      },
    },
  ];

  console.log(`load: ${DURATION} s, ${streamsOf.length} request streams + ${SSE} open event streams, ${CUSTOMERS} customers, ${os.cpus().length} cores`);
  const results = await Promise.all(
    streamsOf.map(({ title, opts }) => autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }).then((r) => ({ title, r }))),
  );
  const memoryEnd = await rss();
  let errors = 0;
  console.log('\nroute                                              req/s     p50      p99     4xx/5xx   errors');
  for (const { title, r } of results) {
    // 304 answers are the point of the revalidation stream: only 4xx, 5xx, errors and timeouts count.
    const refused = r['4xx'] + r['5xx'];
    errors += refused + r.errors + r.timeouts;
    console.log(`${title.padEnd(50)} ${r.requests.average.toFixed(1).padStart(7)} ${`${r.latency.p50} ms`.padStart(8)} ${`${r.latency.p99} ms`.padStart(8)} ${String(refused).padStart(12)} ${String(r.errors + r.timeouts).padStart(7)}`);
  }
  const total = results.reduce((s, { r }) => s + r.requests.total, 0);
  console.log(`\ntotal ${total} requests, ${(total / DURATION).toFixed(1)} req/s; errors ${errors}; event streams open ${streams.filter((s) => s.ok).length}/${SSE}`);
  console.log(`server memory (RSS): ${memoryStart.toFixed(0)} MB at start, ${memoryEnd.toFixed(0)} MB at end`);
  const ledger = await db.query(`select count(*)::int as bad from (select u.id from users u left join ledger_entries l on l.user_id = u.id group by u.id, u.balance_micros having u.balance_micros <> coalesce(sum(l.amount_micros), 0)) x`);
  console.log(`orders stored ${(await db.query('select count(*)::int as n from orders')).rows[0].n}, ledger mismatches ${ledger.rows[0].bad}\n`);
  for (const s of streams) s.controller.abort();
  process.exitCode = errors === 0 && ledger.rows[0].bad === 0 ? 0 : 1;
} finally {
  await db.end();
  await app.stop();
  await sandbox.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
