import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { payments, type PaymentStatus } from '../db/schema';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { countFlaggedPayments, listPaymentsForStaff, paymentsCsv } from './service';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const pay = async (userId: string, status: PaymentStatus, amountMinor: number, flagged = false) =>
  (
    await database.db
      .insert(payments)
      .values({ reference: `balance-${randomUUID()}`, userId, amountUsdMicros: amountMinor * 10_000, amountMinor, rate: '1.7', status, provider: 'epoint', flagged })
      .returning()
  )[0]!;

describe('the team’s view of payments', () => {
  it('lists payments newest first with the payer’s e-mail, or only the flagged ones, and counts the flagged ones', async () => {
    const flaggedBefore = await countFlaggedPayments(database.db);
    const user = await createCustomer(database.db, { email: 'payer@example.com' });
    const done = await pay(user.id, 'completed', 1700);
    await pay(user.id, 'failed', 900);
    const flagged = await pay(user.id, 'completed', 300, true);
    await pay(user.id, 'pending', 5000);

    expect(await countFlaggedPayments(database.db)).toBe(flaggedBefore + 1);

    const all = await listPaymentsForStaff(database.db, { page: 1 });
    const mine = all.payments.filter((p) => p.userId === user.id);
    expect(mine.map((p) => p.status)).toEqual(['pending', 'completed', 'failed', 'completed']);
    expect(mine.find((p) => p.id === done.id)).toMatchObject({ email: 'payer@example.com', amountMinor: 1700, createdAt: done.createdAt.toISOString() });

    expect((await listPaymentsForStaff(database.db, { flagged: '1', page: 1 })).payments.map((p) => p.id)).toEqual([flagged.id]);
  });
});

describe('the team’s payments list: filters, pages and the CSV', () => {
  it('filters by status, reversed, method, e-mail, customer, days (UTC, both included) and the flag; 50 a page; the CSV holds every filtered row, exact', async () => {
    const ali = await createCustomer(database.db, { email: `ali.filters+${randomUUID().slice(0, 6)}@example.com` });
    const vali = await createCustomer(database.db, { email: `vali.filters+${randomUUID().slice(0, 6)}@example.com` });
    const at = async (userId: string, status: PaymentStatus, createdAt: string, extra: Partial<typeof payments.$inferInsert> = {}) =>
      (
        await database.db
          .insert(payments)
          .values({ reference: `balance-${randomUUID()}`, userId, amountUsdMicros: 12_340_000, amountMinor: 2098, rate: '1.7', status, provider: 'epoint', createdAt: new Date(createdAt), ...extra })
          .returning()
      )[0]!;
    const a1 = await at(ali.id, 'completed', '2026-03-01T00:00:00Z');
    const a2 = await at(ali.id, 'failed', '2026-03-02T23:59:59Z', { gatewayCode: '51', gatewayMessage: 'Insufficient funds' });
    const a3 = await at(ali.id, 'completed', '2026-03-03T00:00:00Z', { provider: 'sandbox', flagged: true, flagReason: 'status: amount 1 ≠ 2098 qəpik' });
    const v1 = await at(vali.id, 'completed', '2026-03-02T12:00:00Z', { gatewayMessage: '=HYPERLINK("x"), "quoted"' });
    const mine = (r: Awaited<ReturnType<typeof listPaymentsForStaff>>) => r.payments.filter((p) => ([ali.id, vali.id] as string[]).includes(p.userId)).map((p) => p.id);
    const list = (q: Partial<Parameters<typeof listPaymentsForStaff>[1]>) => listPaymentsForStaff(database.db, { page: 1, ...q });

    expect(mine(await list({ q: 'filters+' }))).toEqual([a3.id, a2.id, v1.id, a1.id]);
    expect(mine(await list({ q: ali.email.toUpperCase() }))).toEqual([a3.id, a2.id, a1.id]);
    expect(mine(await list({ userId: vali.id }))).toEqual([v1.id]);
    expect(mine(await list({ q: 'filters+', status: 'failed' }))).toEqual([a2.id]);
    expect(mine(await list({ q: 'filters+', method: 'sandbox' }))).toEqual([a3.id]);
    expect(mine(await list({ q: 'filters+', flagged: '1' }))).toEqual([a3.id]);
    expect(mine(await list({ q: 'filters+', from: '2026-03-02', to: '2026-03-02' }))).toEqual([a2.id, v1.id]);
    expect(mine(await list({ q: 'filters+', from: '2026-03-03' }))).toEqual([a3.id]);
    // A LIKE wildcard typed is a character searched for.
    expect(mine(await list({ q: 'ali%filters' }))).toEqual([]);
    const failed = (await list({ q: 'filters+', status: 'failed' })).payments[0]!;
    expect(failed).toMatchObject({ email: ali.email, method: 'epoint', gatewayCode: '51', failureReason: 'insufficient_funds', amountUsdMicros: 12_340_000, amountMinor: 2098, reversal: null });
    expect((await list({ q: 'filters+' })).methods).toEqual(expect.arrayContaining(['epoint', 'sandbox']));

    const csv = await paymentsCsv(database.db, { page: 1, q: 'filters+' });
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('created_at,reference,customer,amount_usd,amount_azn,method,status,gateway_code,gateway_message,failure_reason,flagged,flag_reason,reversed_at,reversed_by,reversal_reason,transaction_id,refund_status,refunded_at,refunded_by,refund_reason');
    expect(lines.slice(1, -1)).toHaveLength(4);
    expect(lines.at(-1)).toBe('');
    expect(lines[2]).toBe(`2026-03-02T23:59:59.000Z,${a2.reference},${ali.email},12.34,20.98,epoint,failed,51,Insufficient funds,insufficient_funds,no,,,,,,,,,`);
    // A text a spreadsheet would run as a formula is not one, and quotes and commas are quoted.
    expect(lines[3]).toContain(`,"'=HYPERLINK(""x""), ""quoted""",`);
  });

  it('pages by 50, newest first', async () => {
    const many = await createCustomer(database.db, { email: `many-${randomUUID().slice(0, 6)}@example.com` });
    for (let i = 0; i < 51; i++) await pay(many.id, 'completed', 100 + i);
    const first = await listPaymentsForStaff(database.db, { page: 1, userId: many.id });
    const second = await listPaymentsForStaff(database.db, { page: 2, userId: many.id });
    expect([first.total, first.pageSize, first.payments.length, second.payments.length]).toEqual([51, 50, 50, 1]);
    expect(second.payments[0]!.amountMinor).toBe(100);
  });
});
