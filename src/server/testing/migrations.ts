import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll } from 'vitest';

/** The application's migrations folder. */
export const MIGRATIONS = fileURLToPath(new URL('../db/migrations', import.meta.url));

/**
 * For a test of one migration on old data: the function returned gives, for a `tag`, a copy of the migrations folder as it
 * was before the migration `tag` (its journal cut there), removed when the file's tests end. Migrate
 * a database with it, give it old rows, then migrate it with MIGRATIONS.
 */
export function migrationsFolderBefore(into?: string): (tag: string) => string {
  const dir = into ?? mkdtempSync(join(tmpdir(), 'artim-migrations-'));
  if (!into) afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (tag) => {
    cpSync(MIGRATIONS, dir, { recursive: true });
    const journalPath = join(dir, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === tag);
    if (at <= 0) throw new Error(`no migration ${tag} after the first`);
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    return dir;
  };
}

/**
 * A fresh in-memory PGlite migrated from empty up to just before the migration `tag`, as
 * `migrate(…, { migrationsFolder: migrationsFolderBefore()(tag) })` on `PGlite.create()` makes it,
 * for a test that then gives it old rows. It starts from a dump of that database kept in the
 * system temp folder beside the run's migrated snapshot (globalSetup.ts), named after a hash of
 * PGlite's version and of the migrations it holds: the first run migrates and dumps it, later
 * runs copy it — as each test file's database is a copy instead of running every migration.
 */
export async function pgliteBefore(tag: string): Promise<PGlite> {
  const cut = mkdtempSync(join(tmpdir(), 'artim-migrations-'));
  try {
    const folder = migrationsFolderBefore(cut)(tag);
    const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const hash = createHash('sha256').update(readFileSync(new URL('../../../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
    for (const entry of journal.entries) hash.update(`${JSON.stringify(entry)}\n`).update(readFileSync(join(folder, `${entry.tag}.sql`)));
    const dir = join(tmpdir(), 'artim-test-databases');
    const file = join(dir, `pglite-before-${tag}-${hash.digest('hex').slice(0, 12)}.tar`);
    if (!existsSync(file)) {
      const client = await PGlite.create();
      try {
        await migrate(drizzle({ client }), { migrationsFolder: folder });
        mkdirSync(dir, { recursive: true });
        const partial = `${file}.${randomBytes(4).toString('hex')}`;
        writeFileSync(partial, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
        renameSync(partial, file); // whole or not at all, also when two files build it at once
      } finally {
        await client.close();
      }
    }
    return await PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) });
  } finally {
    rmSync(cut, { recursive: true, force: true });
  }
}
