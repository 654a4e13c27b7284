import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { payments, type PaymentStatus } from '../db/schema';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { completedRevenueQepik, listPaymentsForStaff } from './service';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const pay = async (userId: string, status: PaymentStatus, amountQepik: number, flagged = false) =>
  (
    await database.db
      .insert(payments)
      .values({ reference: `balance-${randomUUID()}`, userId, amountUsdMicros: amountQepik * 10_000, amountQepik, rate: '1.7', status, provider: 'epoint', flagged })
      .returning()
  )[0]!;

describe('the team’s view of payments', () => {
  it('lists payments newest first with the payer’s e-mail, or only the flagged ones, and sums what completed ones brought in', async () => {
    const revenueBefore = await completedRevenueQepik(database.db);
    const user = await createCustomer(database.db, { email: 'payer@example.com' });
    const done = await pay(user.id, 'completed', 1700);
    await pay(user.id, 'failed', 900);
    const flagged = await pay(user.id, 'completed', 300, true);
    await pay(user.id, 'pending', 5000);

    expect(await completedRevenueQepik(database.db)).toBe(revenueBefore + 2000);

    const all = await listPaymentsForStaff(database.db, { page: 1 });
    const mine = all.payments.filter((p) => p.userId === user.id);
    expect(mine.map((p) => p.status)).toEqual(['pending', 'completed', 'failed', 'completed']);
    expect(mine.find((p) => p.id === done.id)).toMatchObject({ email: 'payer@example.com', amountQepik: 1700, createdAt: done.createdAt.toISOString() });

    expect((await listPaymentsForStaff(database.db, { flagged: '1', page: 1 })).payments.map((p) => p.id)).toEqual([flagged.id]);
  });
});
