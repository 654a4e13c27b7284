/**
 * Runs once before the unit and integration tests: migrates one database per engine and leaves
 * it for every test file to copy (see createTestDatabase in ./db.ts), so no file pays for the
 * migrations itself.
 *
 * - PGlite: an in-memory database is migrated and its data directory dumped to a file.
 * - PostgreSQL (when TEST_DATABASE_URL is set): a template database is migrated; each file then
 *   gets `create database … template <it>`.
 *
 * Both are named after a hash of the migrations (and of the PGlite version), so a later run with
 * the same migrations reuses them; a change to any migration builds new ones.
 *
 * For the tests that start the shop as a process (`startAppProcess`), it also bundles the server
 * once (e2e/app-bundle.ts; removed when the run ends) and keeps the migrated PGlite as a data
 * directory on disk (beside the snapshot, reused the same way), which a start on a fresh data
 * folder copies.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildAppBundle } from '../../../e2e/app-bundle';
import { APP_BUNDLE_ENV, APP_PGLITE_ENV } from '../../../e2e/app-process';
import { openPglite, openPostgres } from '../db/client';
import { createScratchDatabase } from './scratch';

declare module 'vitest' {
  export interface ProvidedContext {
    /** File holding the migrated PGlite data directory. */
    pgliteSnapshot: string;
    /** Name of the migrated template database on TEST_DATABASE_URL's server ('' when there is none). */
    postgresTemplate: string;
  }
}

const MIGRATIONS = fileURLToPath(new URL('../db/migrations', import.meta.url));

function migrationsHash(): string {
  const hash = createHash('sha256');
  // The dump's format is PGlite's own: another version builds its own snapshot.
  hash.update(readFileSync(new URL('../../../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(`${entry.name}\n`).update(readFileSync(path));
    }
  };
  walk(MIGRATIONS);
  return hash.digest('hex').slice(0, 12);
}

/** The migrated PGlite data directory as a tarball, built unless an earlier run left it. */
async function pgliteSnapshot(key: string): Promise<string> {
  const dir = join(tmpdir(), 'artim-test-databases');
  const file = join(dir, `pglite-${key}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const database = await openPglite();
  try {
    const partial = `${file}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await (await database.dumpDataDir()).arrayBuffer()));
    renameSync(partial, file); // whole or not at all, also when two runs build it at once
  } finally {
    await database.close();
  }
  return file;
}

/**
 * A migrated PGlite data directory on disk, made from the snapshot unless an earlier run left it:
 * an app process started on a fresh data folder starts from a copy of it (`startAppProcess`)
 * instead of creating a cluster and running every migration itself.
 */
async function pgliteDataDir(key: string, snapshot: string): Promise<string> {
  const dir = join(tmpdir(), 'artim-test-databases', `pglite-${key}.dir`);
  if (existsSync(dir)) return dir;
  const partial = `${dir}.${randomBytes(4).toString('hex')}`;
  try {
    const database = await openPglite(partial, { loadDataDir: new Blob([readFileSync(snapshot)]) });
    await database.close();
    renameSync(partial, dir); // whole or not at all
  } catch (e) {
    if (!existsSync(dir)) throw e; // else another run made it at the same time
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return dir;
}

/**
 * The migrated PGlite, as the snapshot the test files copy and as the data directory app processes
 * copy; also for the journeys' apps (e2e/global-setup.ts).
 */
export async function migratedPglite(key = migrationsHash()): Promise<{ snapshot: string; dataDir: string }> {
  const snapshot = await pgliteSnapshot(key);
  return { snapshot, dataDir: await pgliteDataDir(key, snapshot) };
}

/** The migrated template database on `serverUrl`, built unless an earlier run left it. */
async function postgresTemplate(serverUrl: string, key: string): Promise<string> {
  const name = `artim_template_${key}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    // Migrated under another name and renamed when done, so nobody copies a half-migrated one.
    const building = await createScratchDatabase('template', serverUrl);
    try {
      // Every connection is closed afterwards: PostgreSQL copies a template only while nobody is connected to it.
      await (await openPostgres(building.url, 1)).close();
      if (!(await exists())) await admin.query(`alter database ${building.name} rename to ${name}`);
    } catch (e) {
      if (!(await exists())) throw e;
    } finally {
      await building.drop();
    }
    return name;
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const key = migrationsHash();
  const url = process.env.TEST_DATABASE_URL;
  const [{ snapshot, dataDir }, template, bundle] = await Promise.all([
    migratedPglite(key),
    url ? postgresTemplate(url, key) : Promise.resolve(''),
    buildAppBundle(),
  ]);
  project.provide('pgliteSnapshot', snapshot);
  project.provide('postgresTemplate', template);
  // The test files' processes are started after this, with this environment.
  process.env[APP_BUNDLE_ENV] = bundle.dir;
  process.env[APP_PGLITE_ENV] = dataDir;
  console.log(`test databases and the server's bundle ready in ${((Date.now() - started) / 1000).toFixed(1)} s (migrations ${key})`);
  return () => {
    delete process.env[APP_BUNDLE_ENV];
    delete process.env[APP_PGLITE_ENV];
    bundle.remove();
  };
}
