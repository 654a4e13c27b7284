/**
 * `npm run bench:orders` — order placement throughput on PostgreSQL, provider latency on.
 *
 * 1. The storefront (in process, API only) on a fresh PostgreSQL database, with the sandbox
 *    provider on loopback answering after PROVIDER_LATENCY_MS (default 300-1500) and accepting
 *    PROVIDER_RATE per second per key (default 50), and a submission worker sending the accepted
 *    orders meanwhile: CLIENTS concurrent customers place orders for SECONDS; prints orders per
 *    second, p50/p99 latency of POST /api/orders, and the database round trips per order (of the
 *    request, and of the worker's submission).
 * 2. A burst of BURST orders (default 2,000) from the same customers: prints how long until all
 *    were accepted and until all were sent to the provider, the provider's 429s, and orders sent
 *    twice (must be 0).
 * 3. The same debit + insert + ledger transaction as raw `pg` statements from CLIENTS concurrent
 *    connections for SECONDS; prints transactions per second. Then once more on a database without
 *    the analytics triggers of migration 0032, for what they cost the order path.
 *
 *
 * Steps 1 and 2 run twice, each on its own database, the worker sending through the shop's provider
 * registry: with TWO providers as `npm start` runs them (every service bought from the first
 * sandbox provider, then from a second one over SMM v2 at 1.15 times the prices; the first refuses
 * every 7th order, which then goes to the second), and with ONE provider as the baseline, in the
 * same run. PROVIDERS=2 or PROVIDERS=1 runs one of them only.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names a server where the
 * bench may create and drop a database. CLIENTS (default 50), SECONDS (default 20),
 * SUBMIT_CONCURRENCY (default 50).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import autocannon from 'autocannon';
import { startSubmissionWorker } from '../src/server/orders/worker';
import { benchCustomers, benchRaw, ledgerMismatches, ms, openWorkerDatabase, roundTrips, startBenchShop, withDatabase } from './rawOrders';

const CLIENTS = Number(process.env.CLIENTS ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 20);
const LATENCY = process.env.PROVIDER_LATENCY_MS ?? '300-1500';
const RATE = Number(process.env.PROVIDER_RATE ?? 50);
const BURST = Number(process.env.BURST ?? 2000);
const SUBMIT_CONCURRENCY = Number(process.env.SUBMIT_CONCURRENCY ?? 50);
const RUNS: (1 | 2)[] = process.env.PROVIDERS === '1' ? [1] : process.env.PROVIDERS === '2' ? [2] : [2, 1];

const trips = roundTrips;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function benchHttp(dbUrl: string, providers: 1 | 2) {
  // The bench runs the submission worker itself (below), without the recurring jobs, through the
  // shop's registry (routing and failover over its providers).
  const shop = await startBenchShop(dbUrl, { latency: LATENCY, rate: RATE, env: { ORDERS_PER_MINUTE: '1000000' }, providers });
  const { sandbox, second, base, origin, db } = shop;
  const sandboxes = second ? [sandbox, second] : [sandbox];
  const rateLimited = () => sandboxes.reduce((n, s) => n + s.control.rateLimited(), 0);
  const workerDatabase = await openWorkerDatabase(dbUrl);
  const submission = await startSubmissionWorker(
    { db: workerDatabase.db, providers: shop.server.deps.providers!, logger: shop.server.deps.logger, realtime: shop.server.deps.realtime },
    workerDatabase,
    { concurrency: SUBMIT_CONCURRENCY },
  );
  try {
    const services = (await (await fetch(`${base}/api/catalog/services`)).json()).services as { id: string; platform: string; min: number; hasParams: boolean }[];
    const svc = services.find((s) => s.platform === 'instagram' && !s.hasParams)!;

    // Customers with plenty of balance.
    const cookies = await benchCustomers(shop, CLIENTS, 'bench');

    const place = (cookie: string, link: string) =>
      fetch(`${base}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, cookie },
        body: JSON.stringify({ serviceId: svc.id, link, quantity: svc.min, params: {}, idempotencyKey: randomUUID() }),
      });
    const unsent = async (pattern: string) =>
      (await db.query(`select count(*)::int as n from orders where link like $1 and provider_order_id is null and status = 'pending'`, [pattern])).rows[0].n as number;

    // 1. A burst of BURST orders, as fast as the customers can send them; the worker's round trips per order sent.
    const limitedBefore = rateLimited();
    const workerBefore = { trips: trips.worker, sent: submission.sent };
    const burstStarted = Date.now();
    let burstErrors = 0;
    let next = 0;
    await Promise.all(
      cookies.map(async (cookie) => {
        while (next < BURST) {
          const res = await place(cookie, `https://instagram.com/burst.${next++}`);
          await res.arrayBuffer();
          if (res.status !== 201) burstErrors++;
        }
      }),
    );
    const acceptedSeconds = (Date.now() - burstStarted) / 1000;
    while ((await unsent('https://instagram.com/burst.%')) > 0) await sleep(100);
    const burstSeconds = (Date.now() - burstStarted) / 1000;
    const workerTripsPerOrder = (trips.worker - workerBefore.trips) / Math.max(1, submission.sent - workerBefore.sent);
    const burstAt = (s: typeof sandbox | undefined) => (s?.control.orders() ?? []).filter((o) => o.link.startsWith('https://instagram.com/burst.'));
    const atProvider = sandboxes.flatMap(burstAt);
    const atSecond = burstAt(second).length;
    const doubles = atProvider.length - new Set(atProvider.map((o) => o.link)).size;
    const [{ burst_sent: burstSent }] = (await db.query(`select count(*)::int as burst_sent from orders where link like 'https://instagram.com/burst.%' and provider_order_id is not null`)).rows;

    // 2. Sustained placement while the worker sends (the provider's pace is far below it: a backlog
    // grows). The load comes from autocannon, whose HTTP client costs the shared cores far less
    // than fetch; one connection per customer.
    const tripsBefore = { ...trips };
    const cpuBefore = process.cpuUsage();
    let n = 0;
    let connection = 0;
    const load = await autocannon({
      url: `${base}/api/orders`,
      connections: CLIENTS,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          // One customer per connection, as the raw transaction has one user per connection (and
          // bench:api one key per connection): two orders of one customer at once take turns on
          // their balance's row, which a request counter's customer made happen now and then.
          setupRequest: (req: any, context: { cookie?: string }) => {
            const i = n++;
            context.cookie ??= cookies[connection++ % CLIENTS]!;
            return {
              ...req,
              headers: { 'content-type': 'application/json', origin, cookie: context.cookie },
              body: JSON.stringify({ serviceId: svc.id, link: `https://instagram.com/bench.${i}`, quantity: svc.min, params: {}, idempotencyKey: randomUUID() }),
            };
          },
        },
      ],
    });
    const requestTrips = trips.request - tripsBefore.request;
    const cpu = process.cpuUsage(cpuBefore);
    const errors = load.non2xx + load.errors + load.timeouts;
    const placed = load.requests.total - errors;
    const backlog = await unsent('https://instagram.com/bench.%');

    const [{ n: orders }] = (await db.query(`select count(*)::int as n from orders`)).rows;
    const bad = await ledgerMismatches(db);
    return {
      rate: load.requests.total / SECONDS,
      p50: load.latency.p50,
      p99: load.latency.p99,
      errors,
      orders,
      ledgerMismatches: bad,
      requestTripsPerOrder: requestTrips / Math.max(1, placed),
      cpuPerOrder: (cpu.user + cpu.system) / 1000 / Math.max(1, load.requests.total),
      workerTripsPerOrder,
      backlog,
      burst: { acceptedSeconds, burstSeconds, errors: burstErrors, sent: burstSent, atProvider: atProvider.length, atSecond, doubles, rateLimited: rateLimited() - limitedBefore },
    };
  } finally {
    await submission.stop();
    await workerDatabase.close();
    await shop.close();
  }
}

const runs: { providers: 1 | 2; http: Awaited<ReturnType<typeof benchHttp>> }[] = [];
for (const providers of RUNS) runs.push({ providers, http: await withDatabase((url) => benchHttp(url, providers)) });
const raw = await withDatabase((url) => benchRaw(url, CLIENTS, SECONDS)).catch((err) => {
  console.error(err);
  process.exit(1);
});
// What the analytics triggers of migration 0032 cost the order's transaction, in the same run.
const untriggered = await withDatabase((url) => benchRaw(url, CLIENTS, SECONDS, { withoutAnalyticsTriggers: true }));
console.log(`\nOrder placement on PostgreSQL — ${CLIENTS} concurrent clients, ${SECONDS} s each, ${os.cpus().length} cores; provider latency ${LATENCY} ms, ${RATE} calls/s per key, ${SUBMIT_CONCURRENCY} submissions at once`);
for (const { providers, http } of runs) {
  console.log(
    providers === 2
      ? '  TWO providers (each service bought from the first, then the second at 1.15 times the price; the first refuses every 7th order):'
      : '  ONE provider (baseline, same run):',
  );
  console.log(`    POST /api/orders (session, validation, pricing, debit; sent by the worker meanwhile): ${http.rate.toFixed(1)} orders/s, p50 ${ms(http.p50)}, p99 ${ms(http.p99)}, errors ${http.errors}, orders stored ${http.orders}, ledger mismatches ${http.ledgerMismatches}`);
  console.log(`    database round trips per order: ${http.requestTripsPerOrder.toFixed(2)} in the request, ${http.workerTripsPerOrder.toFixed(2)} in the submission worker; ${http.backlog} orders still waiting for a provider at the end; CPU of this process per order ${http.cpuPerOrder.toFixed(2)} ms (the load generator, the worker and the sandbox included)`);
  console.log(`    ratio (HTTP orders / raw transactions): ${(http.rate / raw.rate).toFixed(3)}`);
  const b = http.burst;
  console.log(
    `    burst of ${BURST} orders: accepted in ${b.acceptedSeconds.toFixed(1)} s (${b.errors} errors), all sent in ${b.burstSeconds.toFixed(1)} s (${b.sent} sent, ${b.atProvider} at the providers${providers === 2 ? `, ${b.atSecond} of them at the second` : ''}, ${b.doubles} sent twice, ${b.rateLimited} answered 429)`,
  );
}
console.log(`  raw pg debit + insert + ledger transaction: ${raw.rate.toFixed(1)} tx/s, p50 ${ms(raw.p50)}, p99 ${ms(raw.p99)}`);
console.log(`  the same without the analytics triggers (migration 0032): ${untriggered.rate.toFixed(1)} tx/s, p50 ${ms(untriggered.p50)}, p99 ${ms(untriggered.p99)} (with them: ${(raw.rate / untriggered.rate).toFixed(3)} of it)\n`);
process.exit(0);
