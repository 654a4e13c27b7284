/**
 * `npm run bench:api` — orders per second through the reseller API, on PostgreSQL.
 *
 * 1. The storefront (in process, API only) on a fresh PostgreSQL database, with the sandbox
 *    provider on loopback answering after PROVIDER_LATENCY_MS (default 300-1500) and a submission
 *    worker sending the accepted orders meanwhile. CLIENTS customers (default 50), each with their
 *    own API key and balance, call `POST /api/v2` `action=add` as form posts, one call at a time
 *    per key (one autocannon connection each; CLIENT=fetch for the earlier `fetch` loops, whose
 *    HTTP client costs the shared cores far more), for SECONDS (default 20): prints orders per
 *    second, p50/p99 latency, refusals, and at the end compares every balance with its ledger
 *    (mismatches must be 0) and the orders stored with the orders the API answered (every one
 *    stored and charged; besides them only calls cut off when the load stopped), and the
 *    database round trips per call (the submission worker's apart).
 * 2. In the same run, the raw debit + insert + ledger transaction (bench/rawOrders.ts) from the
 *    same number of connections, for the ratio.
 *
 * Every call still takes its key's rate counter (`api:key`) and every order its customer's order
 * counter (`orders:user`), round trips like in production; the limits themselves are lifted for
 * the run, since 50 keys at the documented 600 calls and 60 orders a minute would measure the
 * limits, not the API. BENCH_DATABASE_URL as for bench:orders.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { RATE_RULES } from '../src/server/http/rateLimit';
import { startSubmissionWorker } from '../src/server/orders/worker';
import { benchCustomers, benchRaw, ledgerMismatches, ms, openWorkerDatabase, pct, roundTrips, startBenchShop, withDatabase } from './rawOrders';
import { singleProvider } from '../src/server/providers';

const CLIENTS = Number(process.env.CLIENTS ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 20);
const LATENCY = process.env.PROVIDER_LATENCY_MS ?? '300-1500';
const RATE = Number(process.env.PROVIDER_RATE ?? 50);
const SUBMIT_CONCURRENCY = Number(process.env.SUBMIT_CONCURRENCY ?? 50);
const CLIENT = process.env.CLIENT === 'fetch' ? 'fetch' : 'autocannon';

(RATE_RULES.apiPerKey as { limit: number }).limit = Number.MAX_SAFE_INTEGER;

const trips = roundTrips;

async function benchApi(dbUrl: string) {
  // Each call still takes its key's and its customer's counters; the limits are lifted so the
  // bench measures the shop.
  const shop = await startBenchShop(dbUrl, { latency: LATENCY, rate: RATE, env: { ORDERS_PER_MINUTE: '1000000' } });
  const { base, origin, db } = shop;
  const workerDatabase = await openWorkerDatabase(dbUrl);
  const submission = await startSubmissionWorker(
    { db: workerDatabase.db, providers: singleProvider(shop.provider), logger: shop.server.deps.logger, realtime: shop.server.deps.realtime },
    workerDatabase,
    { concurrency: SUBMIT_CONCURRENCY },
  );
  try {
    const services = (await (await fetch(`${base}/api/catalog/services`)).json()).services as { id: string; platform: string; min: number; hasParams: boolean }[];
    const svc = services.find((s) => s.platform === 'instagram' && !s.hasParams)!;

    // Customers, each with a key.
    const keys: string[] = [];
    await benchCustomers(shop, CLIENTS, 'api', async (cookie) => {
      const created = await fetch(`${base}/api/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', origin, cookie }, body: JSON.stringify({ name: 'bench' }) });
      if (created.status !== 201) throw new Error(`api key ${created.status} ${await created.text()}`);
      keys.push(((await created.json()) as { key: string }).key);
    });

    const latencies: number[] = [];
    let placed = 0;
    let calls = 0;
    /** The API ids answered: every one must be stored and charged. */
    const ids: number[] = [];
    /** Calls still on the way when autocannon stopped (their answers were not read). */
    let cutOff = 0;
    const refusals = new Map<string, number>();
    const answered = (status: number, text: string) => {
      calls++;
      let body: { order?: number; error?: string };
      try {
        body = JSON.parse(text) as typeof body;
        if (body.error !== undefined && typeof body.error !== 'string') body.error = `HTTP ${status} ${JSON.stringify(body.error)}`;
      } catch {
        body = { error: `HTTP ${status}` };
      }
      if (status === 200 && typeof body.order === 'number') {
        placed++;
        ids.push(body.order);
      }
      else refusals.set(body.error ?? `HTTP ${status}`, (refusals.get(body.error ?? `HTTP ${status}`) ?? 0) + 1);
    };
    const form = (key: string, link: string) => new URLSearchParams({ key, action: 'add', service: svc.id, link, quantity: String(svc.min) }).toString();
    const tripsBefore = trips.request;
    const cpuBefore = process.cpuUsage();
    let p50: number;
    let p99: number;
    if (CLIENT === 'fetch') {
      // The earlier load: one `fetch` loop per key (its HTTP client shares the cores with the shop).
      const deadline = Date.now() + SECONDS * 1000;
      await Promise.all(
        keys.map(async (key, i) => {
          let n = 0;
          while (Date.now() < deadline) {
            const started = performance.now();
            const res = await fetch(`${base}/api/v2`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(key, `https://instagram.com/api.${i}.${n++}`) });
            answered(res.status, await res.text());
            latencies.push(performance.now() - started);
          }
        }),
      );
      latencies.sort((a, b) => a - b);
      p50 = pct(latencies, 50);
      p99 = pct(latencies, 99);
    } else {
      // One autocannon connection per key, one call at a time on it (as the fetch loops did).
      let connection = 0;
      let n = 0;
      const load = await autocannon({
        url: `${base}/api/v2`,
        connections: CLIENTS,
        duration: SECONDS,
        requests: [
          {
            method: 'POST',
            setupRequest: (req: any, context: { key?: string; i?: number; waiting?: boolean }) => {
              context.waiting = true;
              if (context.key === undefined) {
                context.i = connection++ % CLIENTS;
                context.key = keys[context.i]!;
              }
              return { ...req, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(context.key, `https://instagram.com/api.${context.i}.${n++}`) };
            },
            onResponse: (status: number, body: string, context: { waiting?: boolean }) => {
              context.waiting = false;
              answered(status, body);
            },
          },
        ],
      });
      // A call cut off at the end may still be placed by the shop: wait for it, then count it apart.
      cutOff = load.requests.sent - calls;
      await new Promise((r) => setTimeout(r, 1000));
      p50 = load.latency.p50;
      p99 = load.latency.p99;
      for (const [what, count] of [['connection errors', load.errors], ['timeouts', load.timeouts]] as const) if (count) refusals.set(what, count);
    }
    const requestTrips = trips.request - tripsBefore;
    const cpu = process.cpuUsage(cpuBefore);
    const [{ n: stored }] = (await db.query(`select count(*)::int as n from orders where via_api`)).rows;
    const [{ n: storedAnswered }] = (await db.query(`select count(*)::int as n from orders where via_api and api_id = any($1::bigint[])`, [ids])).rows;
    const bad = await ledgerMismatches(db);
    const [{ charged }] = (await db.query(`select count(*)::int as charged from ledger_entries where kind = 'order_charge'`)).rows;
    return { rate: placed / SECONDS, calls, p50, p99, placed, stored, storedAnswered, cutOff, charged, refusals, ledgerMismatches: bad, sent: submission.sent, tripsPerCall: requestTrips / Math.max(1, calls), cpuPerCall: (cpu.user + cpu.system) / 1000 / Math.max(1, calls) };
  } finally {
    await submission.stop();
    await workerDatabase.close();
    await shop.close();
  }
}

const api = await withDatabase(benchApi);
const raw = await withDatabase((url) => benchRaw(url, CLIENTS, SECONDS));
const refused = [...api.refusals].map(([e, n]) => `${n} × ${e}`).join(', ') || 'none';
console.log(`\nReseller API on PostgreSQL — ${CLIENTS} concurrent keys (one customer each, ${CLIENT === 'fetch' ? '`fetch` loops' : 'one autocannon connection each'}), ${SECONDS} s, ${os.cpus().length} cores; provider latency ${LATENCY} ms, ${RATE} calls/s, ${SUBMIT_CONCURRENCY} submissions at once`);
console.log(`  POST /api/v2 action=add (key, rate counter, validation, pricing, debit): ${api.rate.toFixed(1)} orders/s, p50 ${ms(api.p50)}, p99 ${ms(api.p99)}; refused: ${refused}`);
console.log(`  orders answered ${api.placed} (all stored: ${api.storedAnswered === api.placed ? 'yes' : `NO, ${api.storedAnswered}`}), stored ${api.stored} (${api.stored - api.placed} of ${api.cutOff} calls cut off at the end), charged ${api.charged}; ${api.sent} sent to the provider meanwhile; ledger mismatches ${api.ledgerMismatches}`);
console.log(`  database round trips per call: ${api.tripsPerCall.toFixed(2)} (the submission worker's not counted); CPU of this process per call ${api.cpuPerCall.toFixed(2)} ms (the load generator, the worker and the sandbox included)`);
console.log(`  raw pg debit + insert + ledger transaction:                        ${raw.rate.toFixed(1)} tx/s, p50 ${ms(raw.p50)}, p99 ${ms(raw.p99)}`);
console.log(`  ratio (API orders / raw transactions): ${(api.rate / raw.rate).toFixed(3)}\n`);
const ok = api.ledgerMismatches === 0 && api.storedAnswered === api.placed && api.stored - api.placed <= api.cutOff && api.charged === api.stored;
if (!ok) console.error('FAILED: the ledger, the orders stored or the charges do not match the orders the API answered');
process.exit(ok ? 0 : 1);
