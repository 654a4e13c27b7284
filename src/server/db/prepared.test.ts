import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScratchDatabase, createTestDatabase } from '../testing/db';
import { executePrepared, openPostgres, rowsOf, type Database } from './client';

/**
 * A hot path's raw statement run as a named prepared statement (`executePrepared`): on PostgreSQL
 * the connection keeps it, named by its text, and later runs bind new values to it; its rows are
 * what `db.execute` answers, on PGlite too.
 */
const url = process.env.TEST_DATABASE_URL;

const statement = (n: number, when: boolean) => sql`select ${n}::int + 1 as next, now() as at, ${when ? sql`'one'` : sql`'other'`} as branch`;

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
    const first = rowsOf<{ next: number; at: unknown; branch: string }>(await executePrepared(database.db, statement(1, true)))[0]!;
    const second = rowsOf<{ next: number; branch: string }>(await executePrepared(database.db, statement(41, true)))[0]!;
    expect([first.next, second.next, first.branch]).toEqual([2, 42, 'one']);
    // The same type parsing as db.execute (a timestamp as Drizzle's driver gives it).
    const plain = rowsOf<{ at: unknown }>(await database.db.execute(statement(1, true)))[0]!;
    expect(typeof first.at).toBe(typeof plain.at);
    expect((await prepared()).map((p) => p.statement)).toEqual([expect.stringContaining("'one' as branch")]);
    // Another branch of it is another statement.
    expect(rowsOf<{ branch: string }>(await executePrepared(database.db, statement(1, false)))[0]!.branch).toBe('other');
    expect(await prepared()).toHaveLength(2);
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
    const prepared = rowsOf<{ next: number; branch: string }>(await executePrepared(database.db, statement(6, false)))[0]!;
    expect([prepared.next, prepared.branch]).toEqual([7, 'other']);
    expect(rowsOf<{ next: number }>(await executePrepared(database.db, statement(9, false)))[0]!.next).toBe(10);
  });
});
