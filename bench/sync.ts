/**
 * `npm run bench:sync` — one status sync pass over ORDERS (default 10,000) active orders.
 *
 * A fresh PostgreSQL database holds ORDERS orders in progress, each sent to the sandbox provider
 * (SMM API v2, answering after PROVIDER_LATENCY_MS, default 300-1500, at most PROVIDER_RATE
 * calls per second per key, default 20). One pass of the status sync asks for all of them in
 * batches of 100 ids; prints how long it took, how many provider calls it made, and how many
 * orders changed.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names a server where the
 * bench may create and drop a database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { parseLatencyRange, startSandboxProvider } from '../sandbox/provider';
import { openPostgres } from '../src/server/db/client';
import { createLogger } from '../src/server/logger';
import { syncOrderStatuses } from '../src/server/orders/sync';
import { singleProvider, createPacer, createProvider } from '../src/server/providers';

const SERVER = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ORDERS = Number(process.env.ORDERS ?? 10_000);
const LATENCY = process.env.PROVIDER_LATENCY_MS ?? '300-1500';
const RATE = Number(process.env.PROVIDER_RATE ?? 20);

const name = `artim_bench_sync_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: SERVER });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(SERVER);
url.pathname = `/${name}`;
const sandbox = await startSandboxProvider({ orderSeconds: 3600, balance: '100000000' });
const database = await openPostgres(url.toString(), 10);
try {
  // The provider's side: ORDERS orders placed over its own protocol, as fast as loopback allows.
  const v2 = async (params: Record<string, string>) =>
    (await fetch(sandbox.v2Url, { method: 'POST', body: new URLSearchParams({ key: sandbox.apiKey, ...params }) })).json() as Promise<Record<string, unknown>>;
  const services = (await v2({ action: 'services' })) as unknown as { service: number; min: string; type: string }[];
  const svc = services.find((s) => s.type === 'Default')!;
  const ids: string[] = new Array(ORDERS);
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < ORDERS) {
        const i = next++;
        const reply = await v2({ action: 'add', service: String(svc.service), link: `https://instagram.com/sync.${i}`, quantity: svc.min });
        ids[i] = String(reply.order);
      }
    }),
  );
  // A quarter of their lifetime on: most are in progress, as orders a shop follows usually are.
  sandbox.control.advance(900_000);

  // Our side: the same orders, in progress, never checked.
  const user = randomUUID();
  await database.query(`insert into users (id, name, email, balance_micros) values ($1, 'Sync Bench', 'sync@example.com', 0)`, [user]);
  await database.query(
    `insert into orders (number, user_id, service_id, service_name, platform, service_type, link, link_key, quantity, charge_micros, idempotency_key, request_hash, status, provider_order_id, submitted_at)
     select 'AR-S' || lpad(g::text, 8, '0'), $1, $2, 'Bench', 'instagram', 'Default', 'https://instagram.com/sync.' || (g - 1), 'instagram.com/sync.' || (g - 1), $3::int, 1000000, 'sync-' || g, 'h', 'in_progress', ($4::text[])[g], now()
     from generate_series(1, $5::int) g`,
    [user, String(svc.service), Number(svc.min), ids, ORDERS],
  );

  sandbox.control.setLatency(parseLatencyRange(LATENCY));
  sandbox.control.setRateLimit(RATE);
  sandbox.control.reset();
  const pacer = createPacer(RATE);
  const provider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, pacer });
  const started = performance.now();
  const pass = await syncOrderStatuses({ db: database.db, providers: singleProvider(provider), logger: createLogger('error') });
  const seconds = (performance.now() - started) / 1000;
  const calls = sandbox.control.calls()['smm-v2:status'] ?? 0;
  const [{ unchecked }] = await database.query<{ unchecked: number }>(`select count(*)::int as unchecked from orders where checked_at is null`);

  console.log(`\nStatus sync on PostgreSQL — ${ORDERS} active orders, SMM API v2 sandbox, latency ${LATENCY} ms, ${RATE} calls/s per key, ${os.cpus().length} cores`);
  console.log(`  one full pass: ${seconds.toFixed(2)} s, ${calls} provider status calls (${sandbox.control.rateLimited()} answered 429), ${pass.checked} orders checked, ${pass.changed} changed, ${unchecked} left unchecked\n`);
} finally {
  await database.close();
  await sandbox.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
process.exit(0);
