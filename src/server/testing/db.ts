import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../db/client';

/**
 * A clean, migrated database for one test file: a fresh in-memory PGlite by default, or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL (dropped again by `close`).
 */
export async function createTestDatabase(engine: 'default' | 'pglite' | 'postgres' = 'default'): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const usePg = engine === 'postgres' || (engine === 'default' && !!url);
  if (!usePg) return openPglite();
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const name = `artim_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const database = await openPostgres(dbUrl.toString(), 20);
  return {
    ...database,
    async close() {
      await database.close();
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

export const postgresAvailable = () => !!process.env.TEST_DATABASE_URL;
