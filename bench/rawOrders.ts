/**
 * What the order benches share: a throw-away PostgreSQL database per measurement, percentiles,
 * the raw debit + insert + ledger transaction that the HTTP figures are compared with, the shop
 * started for a bench, its customers, and the ledger check.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { parseLatencyRange, startSandboxProvider, type SandboxProvider } from '../sandbox/provider';
import { openPostgres } from '../src/server/db/client';
import { parseEnv } from '../src/server/env';
import { createLogger } from '../src/server/logger';
import { addSandboxFallbacks, readProviderCatalogue } from '../src/server/catalog/sources';
import { addProvider, createPacer, type SmmProvider } from '../src/server/providers';
import { startServer } from '../src/server/server';
import { providerEnv, sandboxClient } from '../src/server/testing/sandbox';

export const BENCH_SERVER = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
export const ms = (n: number) => `${n.toFixed(1)} ms`;

/**
 * Round trips to PostgreSQL, told apart by who made them. The benches run the submission worker
 * on a database handle of its own (`openWorkerDatabase`), as the worker process has in
 * production; its connections carry an application name, by which its statements are counted.
 * (The worker used to run inside an AsyncLocalStorage: its promise hooks then ran for every
 * promise of the process, the shop's included, about 4 % of the process under load.)
 */
const WORKER_APPLICATION = 'artim-bench-worker';
export const roundTrips = { request: 0, worker: 0 };
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if ((this as unknown as { connectionParameters?: { application_name?: string } }).connectionParameters?.application_name === WORKER_APPLICATION) roundTrips.worker++;
  else roundTrips.request++;
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

/** The submission worker's own connections to the bench's database (their statements count as the worker's). */
export function openWorkerDatabase(dbUrl: string) {
  const url = new URL(dbUrl);
  url.searchParams.set('application_name', WORKER_APPLICATION);
  return openPostgres(url.toString());
}

export async function withDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `artim_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BENCH_SERVER });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(BENCH_SERVER);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    const again = new pg.Client({ connectionString: BENCH_SERVER });
    await again.connect();
    await again.query(`drop database if exists ${name} with (force)`);
    await again.end();
  }
}

/** The analytics triggers of migration 0032 on the order path's tables (orders, ledger_entries). */
const ANALYTICS_TRIGGERS = [
  ['orders', 'orders_analytics_insert'],
  ['orders', 'orders_analytics_update'],
  ['orders', 'orders_analytics_delete'],
  ['ledger_entries', 'ledger_entries_analytics_insert'],
  ['ledger_entries', 'ledger_entries_analytics_change'],
] as const;

/**
 * The order's money as raw `pg` statements from `clients` concurrent connections for `seconds`:
 * debit, order row and ledger entry in one transaction. Transactions per second and latency.
 * `withoutAnalyticsTriggers` drops the analytics triggers first (what they cost the order path).
 */
export async function benchRaw(dbUrl: string, clients: number, seconds: number, opts: { withoutAnalyticsTriggers?: boolean } = {}) {
  await (await openPostgres(dbUrl, 2)).close(); // the same schema, through the migrations
  if (opts.withoutAnalyticsTriggers) {
    const admin = new pg.Client({ connectionString: dbUrl });
    await admin.connect();
    for (const [table, trigger] of ANALYTICS_TRIGGERS) await admin.query(`drop trigger ${trigger} on ${table}`);
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: dbUrl, max: clients });
  pool.on('error', () => {});
  const setup = await pool.connect();
  await setup.query(`insert into users (id, name, email, balance_micros) select 'raw-' || g, 'Raw', 'raw' || g || '@example.com', 1000000000000 from generate_series(1, ${clients}) g`);
  setup.release();
  let count = 0;
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const client = await pool.connect();
      const user = `raw-${i + 1}`;
      let n = 0;
      try {
        while (Date.now() < deadline) {
          const started = performance.now();
          await client.query('begin');
          // The API id is drawn at random (decision 0014); a draw already taken is drawn again, as
          // the shop does (`retryOnTakenApiId`).
          const order = await client
            .query(
              `insert into orders (number, user_id, service_id, service_name, platform, service_type, link, link_key, quantity, charge_micros, idempotency_key, request_hash)
               values ($1, $2, '1', 'Bench', 'instagram', 'Followers', $3, $3, 100, 250000, $4, 'h') returning id`,
              [`AR-${randomBytes(5).toString('hex').toUpperCase()}`, user, `https://instagram.com/raw.${i}.${n++}`, randomUUID()],
            )
            .catch(async (err: { code?: string; constraint?: string }) => {
              if (err.code !== '23505' || err.constraint !== 'orders_api_id_unique') throw err;
              await client.query('rollback');
              return null;
            });
          if (!order) continue;
          // As the shop's order statement does, the debit's balance change is announced by the
          // app after the commit, not by the trigger inside it (migration 0041).
          const debited = await client.query(
            `update users set balance_micros = balance_micros - 250000 where id = $1 and balance_micros >= 250000 and set_config('artim.balance_told', 'on', true) = 'on' returning balance_micros`,
            [user],
          );
          if (!debited.rowCount) throw new Error('short');
          await client.query(`insert into ledger_entries (user_id, amount_micros, kind, reference) values ($1, -250000, 'order_charge', $2)`, [user, order.rows[0].id]);
          await client.query('commit');
          latencies.push(performance.now() - started);
          count++;
        }
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  return { rate: count / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

/** The storefront in process (API only) on a bench database, with the sandbox provider on loopback. */
export interface BenchShop {
  sandbox: SandboxProvider;
  /** With `providers: 2`: the second sandbox provider, every service's next source. */
  second?: SandboxProvider;
  server: Awaited<ReturnType<typeof startServer>>;
  /** The server's address, and the Origin its writes must carry. */
  base: string;
  origin: string;
  /** A plain connection for the bench's own reads and set-up. */
  db: pg.Client;
  /** A provider client for a submission worker the bench runs itself, paced to the sandbox's limit. */
  provider: SmmProvider;
  close(): Promise<void>;
}

/**
 * Starts the shop for an order bench: the sandbox provider answering after `latency` and taking
 * `rate` calls a second per key, and the server without background jobs (the bench runs the
 * submission worker itself).
 *
 * With `providers`, the shop's registry calls its providers at `rate` (their rows' pace) and the
 * bench sends through it. `providers: 2` is what `npm start` runs: a second sandbox provider over
 * the other protocol (SMM v2) at 1.15 times the prices, added as a provider and read, as the next
 * source of every service (`addSandboxFallbacks`), and the first refusing every 7th order, which
 * then goes to the second.
 */
export async function startBenchShop(dbUrl: string, opts: { latency: string; rate: number; env?: Record<string, string>; providers?: 1 | 2 }): Promise<BenchShop> {
  const sandbox = await startSandboxProvider({ orderSeconds: 3600, latencyMs: parseLatencyRange(opts.latency), rateLimitPerSecond: opts.rate, balance: '100000000' });
  const env = parseEnv({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    DATABASE_POOL_SIZE: '20',
    DATA_DIR: `${os.tmpdir()}/artim-bench-${randomBytes(3).toString('hex')}`,
    ...providerEnv(sandbox),
    JOBS: 'false',
    LOG_LEVEL: 'error',
    ADMIN_PASSWORD: 'Bench-Admin-1!',
    ...(opts.providers ? { PROVIDER_RATE_LIMIT: String(opts.rate) } : {}),
    ...opts.env,
  });
  const server = await startServer({ env, logger: createLogger('error'), web: 'none' });
  let second: SandboxProvider | undefined;
  if (opts.providers === 2) {
    second = await startSandboxProvider({ orderSeconds: 3600, latencyMs: parseLatencyRange(opts.latency), rateLimitPerSecond: opts.rate, balance: '100000000', apiKey: 'bench-second-key', priceFactor: '1.15' });
    const { deps } = server;
    const registry = deps.providers!;
    const primary = registry.all()[0]!;
    const row = await addProvider(deps.database.db, deps.providerKeys!, registry, { name: 'Sandbox 2', protocol: 'smm-v2', url: second.v2Url, key: second.apiKey, callsPerSecond: opts.rate, enabled: true });
    await readProviderCatalogue(deps.database.db, registry.get(row.id)!, { isDefault: false });
    const added = await addSandboxFallbacks(deps.database.db, primary.id!, row.id);
    if (added === 0) throw new Error('no service got the second provider as its next source');
    sandbox.control.setRefuseEvery(7);
  }
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  return {
    sandbox,
    second,
    server,
    base: server.url.replace('localhost', '127.0.0.1'),
    origin: server.url,
    db,
    provider: sandboxClient(sandbox, { pacer: createPacer(opts.rate) }),
    async close() {
      await db.end();
      await server.close();
      await sandbox.close();
      await second?.close();
    },
  };
}

/**
 * Signs `count` customers up (`then` runs for each with its session cookie) and gives every
 * account a large balance through the ledger. Sign-up limits are per address: the bench clears them.
 */
export async function benchCustomers(shop: BenchShop, count: number, prefix: string, then: (cookie: string) => Promise<void> = async () => {}): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${shop.base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shop.origin },
      body: JSON.stringify({ email: `${prefix}${i}@example.com`, password: 'Bench-pass-1!', name: `Bench ${i}` }),
    });
    if (res.status !== 200) throw new Error(`sign-up ${res.status} ${await res.text()}`);
    const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    cookies.push(cookie);
    await then(cookie);
    await shop.db.query('delete from rate_limits');
  }
  await shop.db.query(`insert into ledger_entries (user_id, amount_micros, kind, reference) select id, 1000000000000, 'topup', 'bench-' || id from users`);
  await shop.db.query(`update users set balance_micros = balance_micros + 1000000000000`);
  return cookies;
}

/** Accounts whose balance is not the sum of their ledger entries (must be 0). */
export async function ledgerMismatches(db: pg.Client): Promise<number> {
  const { rows } = await db.query(
    `select count(*)::int as bad from (select u.id from users u left join ledger_entries l on l.user_id = u.id group by u.id, u.balance_micros having u.balance_micros <> coalesce(sum(l.amount_micros), 0)) x`,
  );
  return rows[0].bad as number;
}
