import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The Drizzle database, whichever engine is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** What a transaction callback receives; queries written against `Db` work on it too. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * One handle on the database for the whole process: Drizzle for typed queries, plus the few raw
 * operations the platform needs (multi-statement scripts, LISTEN/NOTIFY, job queue SQL).
 */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** One statement with `$1…` parameters. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Several statements without parameters. */
  exec(text: string): Promise<void>;
  /** For the job queue: parameters when given, else a script whose last result's rows are returned. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** Subscribes to a NOTIFY channel; returns the unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** Runs `fn` while holding a cluster-wide lock, so start-up steps of several instances take turns. */
  withLock<T>(lockId: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** An embedded database can also hand out a copy of its whole data directory. */
export interface PgliteDatabase extends Database {
  readonly kind: 'pglite';
  /** The data directory as an uncompressed tarball, for `openPglite(undefined, { loadDataDir })`. */
  dumpDataDir(): Promise<Blob>;
}

const MIGRATIONS = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 727_001; // advisory lock id: one instance migrates at a time

/**
 * PGlite in `dataDir`, or in memory when `dataDir` is undefined. `loadDataDir` starts it from a
 * dump of another PGlite's data directory (`dumpDataDir`) instead of an empty cluster; the
 * migrations then only apply what the dump does not have yet.
 */
export async function openPglite(dataDir?: string, opts: { loadDataDir?: Blob } = {}): Promise<PgliteDatabase> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir, loadDataDir: opts.loadDataDir });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS });
  return {
    kind: 'pglite',
    db,
    async query<T>(text: string, params?: unknown[]) {
      // PGlite rejects an empty parameter list for statements that have none; use exec-less path then.
      const res = await client.query<T>(text, params && params.length ? params : undefined);
      return res.rows;
    },
    async exec(text) {
      await client.exec(text);
    },
    async executeSql(text, values) {
      if (values && values.length) return { rows: (await client.query(text, values)).rows };
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    async listen(channel, onPayload) {
      const unlisten = await client.listen(channel, onPayload);
      return async () => unlisten();
    },
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    // One process owns an embedded database: there is nobody to take turns with.
    withLock: (_lockId, fn) => fn(),
    async close() {
      if (!client.closed) await client.close();
    },
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const migrator = await pool.connect();
  try {
    await migrator.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg({ client: migrator, schema }), { migrationsFolder: MIGRATIONS });
  } finally {
    await migrator.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    migrator.release();
  }
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;

  // One dedicated connection carries every LISTEN of this process.
  let listener: pg.Client | null = null;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const connectListener = async () => {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    client.on('error', () => {
      listener = null;
      setTimeout(() => void reconnect(), 1000).unref();
    });
    await client.connect();
    for (const channel of handlers.keys()) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    listener = client;
  };
  const reconnect = async () => {
    if (closed || listener) return;
    await connectListener().catch(() => setTimeout(() => void reconnect(), 2000).unref());
  };
  let closed = false;

  return {
    kind: 'postgres',
    db,
    async query<T>(text: string, params?: unknown[]) {
      const res = await pool.query(text, params);
      return res.rows as T[];
    },
    async exec(text) {
      await pool.query(text);
    },
    async executeSql(text, values) {
      const res = (await pool.query(text, values)) as pg.QueryResult | pg.QueryResult[];
      return { rows: Array.isArray(res) ? (res.at(-1)?.rows ?? []) : res.rows };
    },
    async listen(channel, onPayload) {
      if (!listener) await connectListener();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await listener!.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async withLock(lockId, fn) {
      const holder = await pool.connect();
      try {
        await holder.query('select pg_advisory_lock($1)', [lockId]);
        return await fn();
      } finally {
        await holder.query('select pg_advisory_unlock($1)', [lockId]).catch(() => {});
        holder.release();
      }
    },
    async close() {
      closed = true;
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}

export function openDatabase(opts: { url?: string; dataDir?: string; poolSize?: number }): Promise<Database> {
  return opts.url ? openPostgres(opts.url, opts.poolSize) : openPglite(opts.dataDir);
}

/** The rows of a raw `db.execute(sql…)`: node-postgres answers a result with `rows`, PGlite too, some drivers an array. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
