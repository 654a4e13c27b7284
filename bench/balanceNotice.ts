/**
 * `npx tsx bench/balanceNotice.ts`: what the notice of a balance change (migration 0036) costs
 * the transactions that change balances.
 *
 * A transaction that sends a NOTIFY takes a database-wide lock from just before its commit until
 * after it, so such commits happen one at a time. Every balance change now sends one (the
 * trigger `users_balance_cache_notify`). On a fresh migrated database (created on
 * BENCH_DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/test, dropped at the
 * end) with 100 customers, CONNECTIONS (default 16) clients run, for DURATION seconds (default 4)
 * each, transactions of one balance debit as an order's (`update … set balance_micros =
 * balance_micros - $x where id = $u and balance_micros >= $x`), alternately with the trigger
 * disabled and enabled, ROUNDS times (default 3): transactions per second and p99 of each.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { openPostgres } from '../src/server/db/client';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const DURATION = Number(process.env.DURATION ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CUSTOMERS = 100;

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

async function run(url: string, ids: string[]): Promise<{ tps: number; p99: number }> {
  const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
  const latencies: number[] = [];
  const end = Date.now() + DURATION * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, i) => {
      const client = await pool.connect();
      try {
        for (let n = 0; Date.now() < end; n++) {
          const started = performance.now();
          await client.query('begin');
          await client.query('update users set balance_micros = balance_micros - $2 where id = $1 and balance_micros >= $2', [ids[(i * 7 + n) % ids.length], 1]);
          await client.query('commit');
          latencies.push(performance.now() - started);
        }
      } finally {
        client.release();
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  return { tps: latencies.length / DURATION, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
}

async function main() {
  const name = `artim_notice_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = Object.assign(new URL(SERVER), { pathname: `/${name}` }).toString();
  try {
    // The migrations, as the app applies them.
    const database = await openPostgres(url, 2);
    await database.close();
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const ids = Array.from({ length: CUSTOMERS }, () => randomUUID());
    for (const id of ids) await db.query('insert into users (id, name, email, balance_micros) values ($1, $2, $3, $4)', [id, 'Bench', `${id}@example.com`, 1_000_000_000_000]);
    // Someone listens, as every app instance does.
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    await listener.query('listen artim_cache');
    let heard = 0;
    listener.on('notification', () => heard++);
    console.log(`balance notices: ${CONNECTIONS} clients, ${DURATION} s per run, ${ROUNDS} rounds, ${os.cpus().length} cores; load average ${load()}`);
    for (let round = 1; round <= ROUNDS; round++) {
      await db.query('alter table users disable trigger users_balance_cache_notify');
      const loadOff = load();
      const off = await run(url, ids);
      await db.query('alter table users enable trigger users_balance_cache_notify');
      const loadOn = load();
      const on = await run(url, ids);
      console.log(
        `  round ${round}: without the notice ${off.tps.toFixed(0)} tx/s, p99 ${off.p99.toFixed(1)} ms (load ${loadOff}); with it ${on.tps.toFixed(0)} tx/s, p99 ${on.p99.toFixed(1)} ms (load ${loadOn}); ratio ${(on.tps / off.tps).toFixed(2)}`,
      );
    }
    console.log(`notices heard: ${heard}; load average at the end ${load()}`);
    await listener.end();
    await db.end();
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();
