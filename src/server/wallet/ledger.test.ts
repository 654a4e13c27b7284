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

const balanceOf = async (userId: string) => (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.balanceMicros;
const adjustments = (userId: string) =>
  database.db.select().from(ledgerEntries).where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'admin_adjustment')));

describe('a staff balance adjustment', () => {
  it('credits and debits through admin_adjustment ledger entries with the reason; the balance stays the ledger sum', async () => {
    const { id } = await createCustomer(database.db, { balanceMicros: 10_000_000 });
    expect(await database.db.transaction((tx) => adjustBalance(tx, { userId: id, amountMicros: 2_500_000, reason: 'goodwill' }))).toBe(12_500_000);
    expect(await database.db.transaction((tx) => adjustBalance(tx, { userId: id, amountMicros: -4_000_000, reason: 'correction' }))).toBe(8_500_000);
    const entries = await adjustments(id);
    expect(entries.map((e) => [e.amountMicros, e.note]).sort()).toEqual([
      [-4_000_000, 'correction'],
      [2_500_000, 'goodwill'],
    ]);
    expect(await balanceOf(id)).toBe(8_500_000);
    expect((await verifyLedger(database.db)).filter((r) => r.userId === id)).toEqual([]);
  });

  it('refuses a debit beyond the balance and an unknown user, writing nothing', async () => {
    const { id } = await createCustomer(database.db, { balanceMicros: 1_000_000 });
    await expect(database.db.transaction((tx) => adjustBalance(tx, { userId: id, amountMicros: -1_000_001, reason: 'too much' }))).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    await expect(database.db.transaction((tx) => adjustBalance(tx, { userId: 'no-such-user', amountMicros: 50_000, reason: 'nobody' }))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await adjustments(id)).toEqual([]);
    expect(await balanceOf(id)).toBe(1_000_000);
  });
});
