import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../db/client';

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * An empty database of its own on the PostgreSQL server of `serverUrl` (TEST_DATABASE_URL by
 * default), for tests that start app processes on it; `drop` removes it, connections and all.
 */
export async function createScratchDatabase(prefix: string, serverUrl = process.env.TEST_DATABASE_URL) {
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `artim_${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

/**
 * A clean, migrated database for one test file: a fresh in-memory PGlite by default, or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL (dropped again by `close`), with a pool
 * of `poolSize` connections.
 */
export async function createTestDatabase(engine: 'default' | 'pglite' | 'postgres' = 'default', poolSize = 20): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const usePg = engine === 'postgres' || (engine === 'default' && !!url);
  if (!usePg) return openPglite();
  const scratch = await createScratchDatabase('test', url);
  const database = await openPostgres(scratch.url, poolSize);
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

export const postgresAvailable = () => !!process.env.TEST_DATABASE_URL;
