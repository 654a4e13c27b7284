/**
 * `npm run bench:sync` — one status sync pass over ORDERS (default 10,000) active orders.
 *
 * A fresh PostgreSQL database holds ORDERS orders in progress, each sent to a sandbox provider
 * (answering after PROVIDER_LATENCY_MS, default 300-1500, at most PROVIDER_RATE calls per second
 * per key, default 20). One pass of the status sync, through the shop's provider registry, asks
 * for all of them, each provider its own orders in batches of 100 ids; prints how long it took,
 * how many provider calls it made, and how many orders changed.
 *
 * It runs twice, each on its own database: with TWO providers as `npm start` runs them (the first
 * speaking SMM v2 holds 6 orders in 7, the second — at 1.15 times the prices, the one the first's
 * refused orders go to — every 7th), and with ONE provider holding them all, as the baseline in
 * the same run. The second speaks SMM v2 here (SECOND_PROTOCOL=qqtube for the QQTube-style API
 * `npm start` gives it, which has no multi-order status call: its orders are asked one call each,
 * ORDERS / 7 / PROVIDER_RATE seconds at least). PROVIDERS=2 or PROVIDERS=1 runs one of them only.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names a server where the
 * bench may create and drop a database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { parseLatencyRange, startSandboxProvider, type SandboxProvider } from '../sandbox/provider';
import { openPostgres } from '../src/server/db/client';
import { createLogger } from '../src/server/logger';
import { syncOrderStatuses } from '../src/server/orders/sync';
import { createProvider, keyBox, keyHint, openProviderRegistry } from '../src/server/providers';
import type { ProviderProtocol } from '../src/server/providers/types';

const SERVER = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ORDERS = Number(process.env.ORDERS ?? 10_000);
const LATENCY = process.env.PROVIDER_LATENCY_MS ?? '300-1500';
const RATE = Number(process.env.PROVIDER_RATE ?? 20);
const SECOND_PROTOCOL: ProviderProtocol = process.env.SECOND_PROTOCOL === 'qqtube' ? 'qqtube' : 'smm-v2';
const RUNS: (1 | 2)[] = process.env.PROVIDERS === '1' ? [1] : process.env.PROVIDERS === '2' ? [2] : [2, 1];
/** Every 7th order is at the second provider, as the first sandbox's refusals send them there. */
const atSecond = (i: number) => (i + 1) % 7 === 0;

const box = keyBox(randomBytes(32).toString('base64url'));
const first = await startSandboxProvider({ orderSeconds: 3600, balance: '100000000' });
const second = await startSandboxProvider({ orderSeconds: 3600, balance: '100000000', apiKey: 'bench-second-key', priceFactor: '1.15' });
const protocols = new Map<SandboxProvider, ProviderProtocol>([
  [first, 'smm-v2'],
  [second, SECOND_PROTOCOL],
]);
const urlOf = (s: SandboxProvider) => (protocols.get(s) === 'qqtube' ? s.qqtubeUrl : s.v2Url);

async function pass(providers: 1 | 2) {
  const name = `artim_bench_sync_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 10);
  const sandboxes = providers === 2 ? [first, second] : [first];
  for (const s of sandboxes) {
    s.control.setLatency(0);
    s.control.setRateLimit(0);
    s.control.reset({ orders: true });
  }
  try {
    // The providers as the shop keeps them, paced at the sandboxes' limit.
    const rows = new Map<SandboxProvider, string>();
    for (const s of sandboxes) {
      const inserted = await database.query<{ id: string }>(
        `insert into providers (name, protocol, url, key_encrypted, key_hint, calls_per_second, created_at) values ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7)) returning id`,
        [s === first ? 'Sandbox' : 'Sandbox 2', protocols.get(s), urlOf(s), box.seal(s.apiKey), keyHint(s.apiKey), RATE, rows.size],
      );
      rows.set(s, inserted[0]!.id);
    }

    // The providers' side: ORDERS orders placed over their own protocols, as fast as loopback allows.
    const clients = new Map(sandboxes.map((s) => [s, createProvider({ protocol: protocols.get(s)!, url: urlOf(s), key: s.apiKey, timeoutMs: 30_000 })]));
    const services = await clients.get(first)!.services();
    const svc = services.find((s) => s.platform === 'instagram' && s.params.length === 0)!;
    const holder = (i: number) => (providers === 2 && atSecond(i) ? second : first);
    const ids: string[] = new Array(ORDERS);
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < ORDERS) {
          const i = next++;
          const placed = await clients.get(holder(i))!.add({ serviceId: svc.id, link: `https://instagram.com/sync.${i}`, quantity: svc.amountMinimum, params: {} });
          ids[i] = placed.providerOrderId;
        }
      }),
    );
    // A quarter of their lifetime on: most are in progress, as orders a shop follows usually are.
    for (const s of sandboxes) s.control.advance(900_000);

    // Our side: the same orders, in progress at the provider that holds them, never checked.
    const user = randomUUID();
    await database.query(`insert into users (id, name, email, balance_micros) values ($1, 'Sync Bench', 'sync@example.com', 0)`, [user]);
    const holders = Array.from({ length: ORDERS }, (_, i) => rows.get(holder(i))!);
    await database.query(
      `insert into orders (number, user_id, service_id, service_name, platform, service_type, link, link_key, quantity, charge_micros, idempotency_key, request_hash, status, provider_order_id, provider_id, submitted_at)
       select 'AR-S' || lpad(g::text, 8, '0'), $1, $2, 'Bench', 'instagram', 'Default', 'https://instagram.com/sync.' || (g - 1), 'instagram.com/sync.' || (g - 1), $3::int, 1000000, 'sync-' || g, 'h', 'in_progress', ($4::text[])[g], ($5::uuid[])[g], now()
       from generate_series(1, $6::int) g`,
      [user, svc.id, svc.amountMinimum, ids, holders, ORDERS],
    );

    const registry = await openProviderRegistry(database, { box, logger: createLogger('error'), listen: false });
    for (const s of sandboxes) {
      s.control.setLatency(parseLatencyRange(LATENCY));
      s.control.setRateLimit(RATE);
      s.control.reset();
    }
    const started = performance.now();
    const result = await syncOrderStatuses({ db: database.db, providers: registry, logger: createLogger('error') });
    const seconds = (performance.now() - started) / 1000;
    await registry.close();
    const calls = sandboxes.map((s) => Object.values(s.control.calls()).reduce((n, c) => n + c, 0));
    const limited = sandboxes.reduce((n, s) => n + s.control.rateLimited(), 0);
    const [{ unchecked }] = await database.query<{ unchecked: number }>(`select count(*)::int as unchecked from orders where checked_at is null`);
    return { seconds, calls, limited, checked: result.checked, changed: result.changed, unchecked, atSecond: holders.filter((h) => h === rows.get(second)).length };
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

try {
  const results: { providers: 1 | 2; r: Awaited<ReturnType<typeof pass>> }[] = [];
  for (const providers of RUNS) results.push({ providers, r: await pass(providers) });
  console.log(`\nStatus sync on PostgreSQL — ${ORDERS} active orders, latency ${LATENCY} ms, ${RATE} calls/s per key, ${os.cpus().length} cores`);
  for (const { providers, r } of results) {
    const who =
      providers === 2
        ? `TWO providers (SMM v2 sandbox with ${ORDERS - r.atSecond} orders, ${SECOND_PROTOCOL} sandbox with ${r.atSecond})`
        : `ONE provider (SMM v2 sandbox with all ${ORDERS}; baseline, same run)`;
    console.log(`  ${who}: one full pass ${r.seconds.toFixed(2)} s, ${r.calls.join(' + ')} provider calls (${r.limited} answered 429), ${r.checked} orders checked, ${r.changed} changed, ${r.unchecked} left unchecked`);
  }
  console.log('');
} finally {
  await first.close();
  await second.close();
}
process.exit(0);
