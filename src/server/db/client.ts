import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { Placeholder, SQL } from 'drizzle-orm';
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
  /**
   * Subscribes to a NOTIFY channel; returns the unsubscribe function. `onReconnect` runs after
   * the listening connection was lost and is back: notices sent in between are gone, so a
   * listener treats whatever it learns from them as stale.
   */
  listen(channel: string, onPayload: (payload: string) => void, opts?: ListenOptions): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** Runs `fn` while holding a cluster-wide lock, so start-up steps of several instances take turns. */
  withLock<T>(lockId: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** Runs once the listening connection is back after a drop (notices may have been missed). */
  onReconnect?: () => void;
}

/** How the listening connection of a process shows in `pg_stat_activity.application_name`. */
export const LISTENER_APPLICATION_NAME = 'artim-listen';
/** Waits before reconnecting a dropped listening connection: the first try at once, then longer. */
export const LISTEN_RETRY_MS = [100, 1000, 2000, 5000, 10_000] as const;

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
    // The embedded database lives in this process: its notices cannot be cut off, so
    // `onReconnect` never runs.
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

  // One dedicated connection carries every LISTEN of this process. When it drops (failover,
  // idle_session_timeout, a pooler restart) it is closed and one reconnect runs at a time, with
  // backoff; once back, every listener is told, since notices sent meanwhile are lost.
  type Handler = { onPayload: (payload: string) => void; onReconnect?: () => void };
  const handlers = new Map<string, Set<Handler>>();
  let listener: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let retry: NodeJS.Timeout | null = null;
  let attempt = 0;
  let lost = false;
  let closed = false;

  const openListener = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url, application_name: LISTENER_APPLICATION_NAME, keepAlive: true });
    let dropped = false;
    // 'error' and 'end' both come for one loss, sometimes several times: the first one counts.
    const drop = () => {
      if (dropped) return;
      dropped = true;
      void client.end().catch(() => {});
      if (listener !== client) return; // still connecting: the one who waits for it retries
      listener = null;
      lost = true;
      scheduleReconnect();
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h.onPayload(msg.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      drop();
      throw err;
    }
    if (dropped) throw new Error('the listening connection closed while it was being set up');
    return client;
  };

  /** The listening connection: the open one, the one being opened, or a new one. */
  const ensureListener = (): Promise<pg.Client> => {
    if (listener) return Promise.resolve(listener);
    connecting ??= openListener()
      .then(async (client) => {
        if (closed) {
          await client.end().catch(() => {});
          throw new Error('the database is closed');
        }
        listener = client;
        attempt = 0;
        if (lost) {
          lost = false;
          for (const set of handlers.values()) {
            for (const h of set) {
              try {
                h.onReconnect?.();
              } catch {
                // one listener's failure must not keep the others from hearing it
              }
            }
          }
        }
        return client;
      })
      .finally(() => {
        connecting = null;
      });
    return connecting;
  };

  const scheduleReconnect = () => {
    if (closed || retry) return;
    const delay = LISTEN_RETRY_MS[Math.min(attempt, LISTEN_RETRY_MS.length - 1)]!;
    attempt++;
    retry = setTimeout(() => {
      retry = null;
      if (closed || listener) return;
      ensureListener().catch(() => scheduleReconnect());
    }, delay);
    retry.unref();
  };

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
    async listen(channel, onPayload, opts = {}) {
      const handler: Handler = { onPayload, onReconnect: opts.onReconnect };
      let set = handlers.get(channel);
      const first = !set;
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(handler);
      const forget = () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(channel) === set) handlers.delete(channel);
      };
      try {
        const client = await ensureListener();
        // A connection opened after the handler was added listens already; LISTEN twice is harmless.
        // If this one drops meanwhile, its replacement listens to the channel.
        if (first) {
          await client.query(`listen ${pg.escapeIdentifier(channel)}`).catch((err: unknown) => {
            if (listener === client) throw err;
          });
        }
      } catch (err) {
        forget();
        throw err;
      }
      return async () => {
        forget();
        if (!handlers.has(channel)) await listener?.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => {});
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
      if (retry) clearTimeout(retry);
      await connecting?.catch(() => {});
      await listener?.end().catch(() => {});
      listener = null;
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

/** What a notice's payload may hold: under PostgreSQL's 8000 bytes, with room to spare. */
export const NOTICE_PAYLOAD_LIMIT = 7900;

/**
 * Items to send as few notices as fit, in order: each part's items, joined by one character and
 * with `overhead` characters around them (a JSON array's brackets), stay within
 * NOTICE_PAYLOAD_LIMIT. An item longer than that is a part of its own.
 */
export function noticeParts(items: readonly string[], overhead = 0): string[][] {
  const parts: string[][] = [];
  let size = 0;
  for (const item of items) {
    const last = parts.at(-1);
    if (last && size + 1 + item.length <= NOTICE_PAYLOAD_LIMIT) {
      last.push(item);
      size += 1 + item.length;
    } else {
      parts.push([item]);
      size = overhead + item.length;
    }
  }
  return parts;
}

/** What Drizzle keeps for itself on a database handle: its dialect (the SQL it writes) and its session (the driver). */
interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: { prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string, arrayMode: boolean): PreparedQuery };
}
interface PreparedQuery {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

/** A value of a statement, or the placeholder a prepared statement binds it at (`preparedStatement`). */
export type Bound<T> = T | Placeholder;

/**
 * A raw statement that a hot path runs over and over (placing an order), written once: `build`
 * gives its SQL with `sql.placeholder(name)` wherever a run binds a value, and is called once per
 * database handle, not per run (writing a statement of a few dozen values out of its parts is
 * tens of microseconds of CPU). Each run binds `values` by those names (a name without a value
 * throws) and sends the statement under a name derived from its text: node-postgres has PostgreSQL
 * parse it once per connection, then only binds the values, and PostgreSQL may keep its plan.
 * It answers what `db.execute` answers (the same rows, the same type parsing); on PGlite the name
 * changes nothing. A statement with another text (another branch of it) is another statement.
 */
export function preparedStatement<Values extends Record<string, unknown>>(build: () => SQL): (db: Db, values: Values) => Promise<unknown> {
  const prepared = new WeakMap<Db, PreparedQuery>();
  return (db, values) => {
    let query = prepared.get(db);
    if (!query) {
      const { dialect, session } = db as unknown as DrizzleInternals;
      const built = dialect.sqlToQuery(build());
      const name = `artim_${createHash('sha256').update(built.sql).digest('hex').slice(0, 24)}`;
      query = session.prepareQuery(built, undefined, name, false);
      prepared.set(db, query);
    }
    return query.execute(values);
  };
}
