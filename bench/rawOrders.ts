/**
 * What the order benches share: a throw-away PostgreSQL database per measurement, percentiles,
 * and the raw debit + insert + ledger transaction that the HTTP figures are compared with.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { openPostgres } from '../src/server/db/client';

export const BENCH_SERVER = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
export const ms = (n: number) => `${n.toFixed(1)} ms`;

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

/**
 * The order's money as raw `pg` statements from `clients` concurrent connections for `seconds`:
 * debit, order row and ledger entry in one transaction. Transactions per second and latency.
 */
export async function benchRaw(dbUrl: string, clients: number, seconds: number) {
  await (await openPostgres(dbUrl, 2)).close(); // the same schema, through the migrations
  const pool = new pg.Pool({ connectionString: dbUrl, max: clients });
  pool.on('error', () => {});
  const setup = await pool.connect();
  await setup.query(`insert into users (id, name, email, balance_cents) select 'raw-' || g, 'Raw', 'raw' || g || '@example.com', 100000000 from generate_series(1, ${clients}) g`);
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
          const order = await client.query(
            `insert into orders (number, user_id, service_id, service_name, platform, service_type, link, link_key, quantity, charge_cents, idempotency_key, request_hash)
             values ($1, $2, '1', 'Bench', 'instagram', 'Followers', $3, $3, 100, 25, $4, 'h') returning id`,
            [`AR-${randomBytes(5).toString('hex').toUpperCase()}`, user, `https://instagram.com/raw.${i}.${n++}`, randomUUID()],
          );
          const debited = await client.query(`update users set balance_cents = balance_cents - 25 where id = $1 and balance_cents >= 25 returning balance_cents`, [user]);
          if (!debited.rowCount) throw new Error('short');
          await client.query(`insert into ledger_entries (user_id, amount_cents, kind, reference) values ($1, -25, 'order_charge', $2)`, [user, order.rows[0].id]);
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
