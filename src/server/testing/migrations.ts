import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** The application's migrations folder. */
export const MIGRATIONS = fileURLToPath(new URL('../db/migrations', import.meta.url));

/**
 * For a test of one migration on old data: the function returned gives, for a `tag`, a copy of the migrations folder as it
 * was before the migration `tag` (its journal cut there), removed when the file's tests end. Migrate
 * a database with it, give it old rows, then migrate it with MIGRATIONS.
 */
export function migrationsFolderBefore(): (tag: string) => string {
  const dir = mkdtempSync(join(tmpdir(), 'artim-migrations-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
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
