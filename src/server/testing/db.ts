import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database } from '../db/client';
import { createScratchDatabase } from './scratch';

export { createScratchDatabase };

let snapshot: Blob | undefined;
/** The migrated PGlite data directory the run's global setup left, read once per test file. */
function pgliteSnapshot(): Blob | undefined {
  const file = inject('pgliteSnapshot');
  if (!file) return undefined;
  snapshot ??= new Blob([readFileSync(file)]);
  return snapshot;
}

/**
 * A clean, migrated database for one test file: a fresh in-memory PGlite by default, or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL (dropped again by `close`), with a pool
 * of `poolSize` connections.
 *
 * Both start as a copy of the database the run's global setup migrated once (globalSetup.ts), so
 * a file pays for a copy instead of every migration. Outside such a run, or with `fresh`, the
 * database starts empty and is migrated here.
 */
export async function createTestDatabase(
  engine: 'default' | 'pglite' | 'postgres' = 'default',
  poolSize = 20,
  opts: { fresh?: boolean } = {},
): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const usePg = engine === 'postgres' || (engine === 'default' && !!url);
  if (!usePg) return openPglite(undefined, { loadDataDir: opts.fresh ? undefined : pgliteSnapshot() });
  const template = opts.fresh ? undefined : inject('postgresTemplate') || undefined;
  const scratch = await createScratchDatabase('test', url, template);
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
