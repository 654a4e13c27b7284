import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { orders, payments, providers, supportTickets, users } from '../db/schema';
import { newOrderNumber } from '../orders/service';
import { useTestShop } from '../testing/shop';
import { createCustomer } from '../testing/users';

/**
 * The dashboard's figures (docs/rules.md#owner-figures, #admin): today's sales and gross profit,
 * customer balances, top-ups under their own name, the counts that need attention, each
 * provider's balance against the threshold, and whether the shop sells at cost.
 */

let database: Database;
let app: Hono;
useTestShop((shop) => ({ database, app } = shop));

let admin: string;
const get = (path: string) => app.request(path, { headers: { origin: TEST_ORIGIN, cookie: admin } });
const put = (path: string, body: unknown) => app.request(path, { method: 'PUT', headers: { origin: TEST_ORIGIN, cookie: admin, 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function order(userId: string, o: { charge: number; cost: number; status: 'pending' | 'unknown' | 'completed'; fundsWait?: boolean }) {
  const key = randomUUID();
  const [row] = await database.db
    .insert(orders)
    .values({ number: newOrderNumber(), userId, serviceId: 's', serviceName: 'S', platform: 'instagram', serviceType: 'Default', link: `https://x.com/${key}`, linkKey: key, quantity: 100, chargeMicros: o.charge, costMicros: o.cost, status: o.status, idempotencyKey: key, requestHash: 'h', fundsWaitSince: o.fundsWait ? new Date() : null })
    .returning();
  await database.db.execute(sql`insert into ledger_entries (user_id, amount_micros, kind, reference) values (${userId}, ${-o.charge}, 'order_charge', ${row!.id})`);
  return row!;
}

describe('the dashboard', () => {
  beforeAll(async () => {
    admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  });

  it('adds today’s sales and profit, balances and top-ups under their own names, and counts what needs attention', async () => {
    const before = await (await get('/api/admin/dashboard')).json();
    expect(before).not.toHaveProperty('revenueQepik');
    const c = await createCustomer(database.db, { balanceMicros: 10_000_000 });
    const [p] = await database.db.insert(payments).values({ reference: `balance-${randomUUID()}`, userId: c.id, amountUsdMicros: 5_000_000, amountMinor: 850, rate: '1.7', status: 'completed', provider: 'epoint' }).returning();
    await database.db.execute(sql`insert into ledger_entries (user_id, amount_micros, kind, reference) values (${c.id}, 5000000, 'topup', ${p!.id})`);
    await database.db.insert(payments).values({ reference: `balance-${randomUUID()}`, userId: c.id, amountUsdMicros: 1_000_000, amountMinor: 170, rate: '1.7', status: 'pending', provider: 'epoint', flagged: true });
    await order(c.id, { charge: 2_000_000, cost: 1_500_000, status: 'completed' });
    await order(c.id, { charge: 1_000_000, cost: 600_000, status: 'unknown' });
    const waiting = await order(c.id, { charge: 500_000, cost: 400_000, status: 'pending', fundsWait: true });
    await database.db.insert(supportTickets).values({ userId: c.id, title: 'Where?', description: 'My order', status: 'open' } as typeof supportTickets.$inferInsert);
    await database.db.insert(providers).values({ name: 'Low panel', protocol: 'smm-v2', url: 'https://low.example/api/v2', keyEncrypted: 'sealed', keyHint: 'xxxx', balance: '0.50', balanceCurrency: 'USD' });

    const d = await (await get('/api/admin/dashboard')).json();
    expect(d.todaySalesMicros - before.todaySalesMicros).toBe(3_500_000);
    expect(d.todayGrossProfitMicros - before.todayGrossProfitMicros).toBe(3_500_000 - 2_500_000);
    // 10 given as a test top-up (no payment row: no qəpik) and 5 paid by card.
    expect(d.topUpsMicros - before.topUpsMicros).toBe(15_000_000);
    expect(d.topUpsQepik - before.topUpsQepik).toBe(850);
    expect(d.unknownOrders - before.unknownOrders).toBe(1);
    expect(d.waitingForFunds - before.waitingForFunds).toBe(1);
    expect(d.flaggedPayments - before.flaggedPayments).toBe(1);
    expect(d.waitingTickets - before.waitingTickets).toBe(1);
    const [sum] = await database.db.select({ total: sql<string>`sum(balance_micros)::text` }).from(users);
    expect(d.customerBalancesMicros).toBe(Number(sum!.total));
    expect(d.providers.find((x: { name: string }) => x.name === 'Low panel')).toMatchObject({ balance: '0.50', low: true });

    // The orders list the funds count links to holds that order.
    const list = await (await get('/api/admin/orders?funds=1')).json();
    expect(list.orders.map((o: { id: string }) => o.id)).toContain(waiting.id);
    expect(list.orders.every((o: { status: string }) => o.status === 'pending')).toBe(true);
  });

  it('says the shop sells at cost while both fees are 0, and not once one is set', async () => {
    expect((await put('/api/admin/settings', { service_fee: 0, base_fee: 0 })).status).toBe(200);
    expect((await (await get('/api/admin/dashboard')).json()).sellsAtCost).toBe(true);
    expect((await put('/api/admin/settings', { service_fee: 10 })).status).toBe(200);
    expect((await (await get('/api/admin/dashboard')).json()).sellsAtCost).toBe(false);
    expect((await put('/api/admin/settings', { service_fee: 0, base_fee: 0.05 })).status).toBe(200);
    expect((await (await get('/api/admin/dashboard')).json()).sellsAtCost).toBe(false);
  });
});
