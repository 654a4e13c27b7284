import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScratchDatabase, createTestDatabase } from '../testing/db';
import { openPostgres, preparedStatement, rowsOf, type Database } from './client';

/**
 * A hot path's raw statement written once and run as a named prepared statement
 * (`preparedStatement`): its text is built once per database handle, on PostgreSQL the connection
 * keeps it, named by its text, and each run binds its own values; its rows are what `db.execute`
 * answers, on PGlite too.
 */
const url = process.env.TEST_DATABASE_URL;

type Values = { n: number };
/** A statement in two branches, counting how often each is written out. */
const written = { one: 0, other: 0 };
const branchSql = (when: boolean) => sql`select ${sql.placeholder('n')}::int + 1 as next, now() as at, ${when ? sql`'one'` : sql`'other'`} as branch`;
const one = preparedStatement<Values>(() => (written.one++, branchSql(true)));
const other = preparedStatement<Values>(() => (written.other++, branchSql(false)));

describe.skipIf(!url)('a named prepared statement (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  beforeAll(async () => {
    scratch = await createScratchDatabase('prepared', url, inject('postgresTemplate') || undefined);
    // One connection: what it has prepared is what pg_prepared_statements shows.
    database = await openPostgres(scratch.url, 1);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  }, 30_000);

  it('is prepared once per text on the connection and answers each run with its own values, as db.execute does', async () => {
    const prepared = () => database.query<{ name: string; statement: string }>(`select name, statement from pg_prepared_statements where name like 'artim_%'`);
    expect(await prepared()).toEqual([]);
    const writtenBefore = written.one;
    const first = rowsOf<{ next: number; at: unknown; branch: string }>(await one(database.db, { n: 1 }))[0]!;
    const second = rowsOf<{ next: number; branch: string }>(await one(database.db, { n: 41 }))[0]!;
    expect([first.next, second.next, first.branch]).toEqual([2, 42, 'one']);
    // Written out once for the handle, however many runs.
    expect(written.one - writtenBefore).toBe(1);
    // The same type parsing as db.execute (a timestamp as Drizzle's driver gives it).
    const plain = rowsOf<{ at: unknown }>(await database.db.execute(sql`select now() as at`))[0]!;
    expect(typeof first.at).toBe(typeof plain.at);
    expect((await prepared()).map((p) => p.statement)).toEqual([expect.stringContaining("'one' as branch")]);
    // Another branch of it is another statement.
    expect(rowsOf<{ branch: string }>(await other(database.db, { n: 1 }))[0]!.branch).toBe('other');
    expect(await prepared()).toHaveLength(2);
    // A value left out is refused before anything is sent.
    await expect(one(database.db, {} as Values)).rejects.toThrow(/placeholder/i);
  });
});

describe('a named prepared statement (PGlite)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it('answers as db.execute does', async () => {
    const writtenBefore = written.other;
    const prepared = rowsOf<{ next: number; branch: string }>(await other(database.db, { n: 6 }))[0]!;
    expect([prepared.next, prepared.branch]).toEqual([7, 'other']);
    expect(rowsOf<{ next: number }>(await other(database.db, { n: 9 }))[0]!.next).toBe(10);
    // Another handle writes it out for itself.
    expect(written.other - writtenBefore).toBe(1);
  });
});
