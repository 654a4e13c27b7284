import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { ledgerEntries, users } from '../db/schema';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { adjustBalance, verifyLedger } from './ledger';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const balanceOf = async (userId: string) => (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.balanceCents;
const adjustments = (userId: string) =>
  database.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'admin_adjustment')));

describe('a staff balance adjustment', () => {
  it('credits and debits through admin_adjustment ledger entries with the reason; the balance stays the ledger sum', async () => {
    const { id } = await createCustomer(database.db, { balanceCents: 1_000 });
    expect(await database.db.transaction((tx) => adjustBalance(tx, { userId: id, amountCents: 250, reason: 'goodwill' }))).toBe(1_250);
    expect(await database.db.transaction((tx) => adjustBalance(tx, { userId: id, amountCents: -400, reason: 'correction' }))).toBe(850);
    const entries = await adjustments(id);
    expect(entries.map((e) => [e.amountCents, e.note]).sort()).toEqual([
      [-400, 'correction'],
      [250, 'goodwill'],
    ]);
    expect(await balanceOf(id)).toBe(850);
    expect((await verifyLedger(database.db)).filter((r) => r.userId === id)).toEqual([]);
  });

  it('refuses a debit beyond the balance and an unknown user, writing nothing', async () => {
    const { id } = await createCustomer(database.db, { balanceCents: 100 });
    await expect(database.db.transaction((tx) => adjustBalance(tx, { userId: id, amountCents: -101, reason: 'too much' }))).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    await expect(database.db.transaction((tx) => adjustBalance(tx, { userId: 'no-such-user', amountCents: 5, reason: 'nobody' }))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await adjustments(id)).toEqual([]);
    expect(await balanceOf(id)).toBe(100);
  });
});
