import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_GROUPS, BREAKDOWNS, periodDays, TOP_CUSTOMERS, type PeriodDays } from '../../core/analytics';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import * as figureRows from '../testing/figureRows';
import { useTestShop } from '../testing/shop';
import { breakdown, customerBalances, ordersByStatus, periodFigures, type FigureRow } from './figures';

/**
 * The owner's figures (docs/decisions/0018-owner-figures.md) against rows whose figures are
 * worked out by hand: refunds full and partial, a legacy admin refund, a drip-feed and its runs,
 * a discounted order, a sign-up bonus and an adjustment (neither a sale nor a top-up), a top-up
 * reversed by the bank (`chargeback`), and days at the edges of the shop's time zone.
 */

let database: Database;
let app: Hono;
useTestShop((shop) => ({ database, app } = shop));

const at = (local: string) => new Date(`${local}+04:00`);
const M = 1_000_000;

const customer = (createdAt: Date, role?: 'user' | 'admin') => figureRows.customer(database.db, createdAt, role);
const entry = (userId: string, kind: string, amountMicros: number, reference: string, when: Date) => figureRows.entry(database.db, userId, kind, amountMicros, reference, when);
const payment = (userId: string, usdMicros: number, qepik: number, when: Date) => figureRows.payment(database.db, userId, usdMicros, qepik, when);
const order = (userId: string, o: figureRows.OrderOpts) => figureRows.order(database.db, userId, o);

const MARCH: PeriodDays = { from: '2026-03-01', to: '2026-03-31', days: 31 };

describe('the figures of a month worked out by hand', () => {
  let a: string;
  let b: string;
  beforeAll(async () => {
    a = await customer(at('2026-03-02T10:00:00'));
    b = await customer(at('2026-03-09T09:00:00'));
    await customer(at('2026-03-03T09:00:00'), 'admin'); // staff: not a new customer
    await customer(at('2026-02-28T23:59:00')); // Baku's February
    await payment(a, 10 * M, 1700, at('2026-03-02T10:05:00'));
    await entry(a, 'signup_bonus', 1 * M, `bonus-${a}`, at('2026-03-02T10:00:01'));
    await entry(a, 'admin_adjustment', 2 * M, `adj-${randomUUID()}`, at('2026-03-02T11:00:00'));

    const o1 = await order(a, { charge: 3 * M, cost: 2 * M, when: at('2026-03-03T12:00:00') });
    // A legacy goodwill refund of the team: sales go down, the cost is not given back.
    await entry(a, 'order_refund', 500_000, `admin-refund:${o1}:0`, at('2026-03-15T12:00:00'));
    await database.db.execute(sql`update orders set refunded_micros = 500000 where id = ${o1}`);
    // A partial: 40 % given back, and the same share of the cost.
    const o2 = await order(a, { charge: 1 * M, cost: 600_000, when: at('2026-03-03T13:00:00'), status: 'partial', refunded: 400_000, costRefunded: 240_000 });
    await entry(a, 'order_refund', 400_000, `${o2}:400000`, at('2026-03-05T09:00:00'));
    // Cancelled: everything back.
    const o3 = await order(a, { charge: 2 * M, cost: 1_500_000, when: at('2026-03-03T14:00:00'), status: 'cancelled', refunded: 2 * M, costRefunded: 1_500_000 });
    await entry(a, 'order_refund', 2 * M, `${o3}:2000000`, at('2026-03-10T09:00:00'));
    // A drip-feed of 3 runs: the parent is charged 3, two runs written (one refunded), the third never (its share back on the parent).
    const d = await order(a, { charge: 3 * M, cost: 1_800_000, when: at('2026-03-04T08:00:00'), status: 'partial', runs: 3, refunded: 1 * M, costRefunded: 600_000 });
    await order(a, { charge: 1 * M, cost: 600_000, when: at('2026-03-04T08:00:01'), parentId: d });
    const r2 = await order(a, { charge: 1 * M, cost: 600_000, when: at('2026-03-05T08:00:00'), parentId: d, status: 'cancelled', refunded: 1 * M, costRefunded: 600_000 });
    await entry(a, 'order_refund', 1 * M, `${r2}:1000000`, at('2026-03-06T08:00:00'));
    await entry(a, 'order_refund', 1 * M, `${d}:1000000`, at('2026-03-07T08:00:00'));
    // A customer's discount is already in the charge: 0.90 sold, 0.50 cost.
    await order(b, { charge: 900_000, cost: 500_000, when: at('2026-03-09T10:00:00'), platform: 'tiktok', serviceId: 'svc-2' });
    // The last minutes of March in Baku (still March 31 in UTC too), an order whose cost is not known.
    await order(b, { charge: 1 * M, cost: null, when: at('2026-03-31T23:30:00'), status: 'pending' });
    // April in Baku, March in UTC: not March's.
    await order(b, { charge: 4 * M, cost: 1 * M, when: at('2026-04-01T00:30:00') });
    await order(b, { charge: 7 * M, cost: 1 * M, when: at('2026-02-28T23:30:00') });
    // A top-up of b's reversed by the bank: no top-up left of it.
    const p2 = await payment(b, 5 * M, 850, at('2026-03-09T09:30:00'));
    await entry(b, 'chargeback', -5 * M, p2, at('2026-03-12T09:00:00'));
  });

  const expected: FigureRow = {
    // Charges 3 + 1 + 2 + 3 + 0.9 + 1 = 10.9; refunds 0.5 + 0.4 + 2 + 1 + 1 = 4.9.
    salesMicros: 6 * M,
    refundsMicros: 4_900_000,
    // 2 + (0.6 − 0.24) + 0 + runs (0.6 + 0) + 0.5 + unknown 0; the drip-feed parent is bought as its runs.
    costMicros: 3_460_000,
    grossProfitMicros: 2_540_000,
    marginPercent: 42.3,
    topUpsMicros: 10 * M,
    topUpsQepik: 1700,
    // The drip-feed once, its runs not.
    orders: 6,
    newCustomers: 2,
  };

  it('totals: sales less refunds, cost less what providers gave back, top-ups less the reversed, in the shop’s days', async () => {
    const { totals } = await periodFigures(database.db, MARCH, 'day');
    expect(totals).toEqual(expected);
  });

  it('groups by the shop’s week (Monday first) and month, each group its own entries', async () => {
    const weeks = await periodFigures(database.db, MARCH, 'week');
    expect(weeks.series.map((r) => r.bucket)).toEqual(['2026-02-23', '2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30']);
    const week = (b: string) => weeks.series.find((r) => r.bucket === b)!;
    // Mar 2–8: charges 3 + 1 + 2 + 3, refunds 0.4 + 1 + 1; cost 2 + 0.36 + 0.6 + 0.
    expect(week('2026-03-02')).toMatchObject({ salesMicros: 6_600_000, refundsMicros: 2_400_000, costMicros: 2_960_000, topUpsMicros: 10 * M, topUpsQepik: 1700, orders: 4, newCustomers: 1 });
    // Mar 9–15: 0.9 charged, refunds 2 + 0.5; b's top-up and its reversal.
    expect(week('2026-03-09')).toMatchObject({ salesMicros: -1_600_000, costMicros: 500_000, topUpsMicros: 0, topUpsQepik: 0, orders: 1, newCustomers: 1 });
    expect(week('2026-03-30')).toMatchObject({ salesMicros: 1 * M, costMicros: 0, orders: 1 });
    const month = await periodFigures(database.db, MARCH, 'month');
    expect(month.series).toEqual([{ bucket: '2026-03-01', ...expected }]);
  });

  it('orders by status: those customers placed, runs not counted', async () => {
    const byStatus = Object.fromEntries((await ordersByStatus(database.db, MARCH)).map((r) => [r.status, r.orders]));
    expect(byStatus).toMatchObject({ completed: 2, partial: 2, cancelled: 1, pending: 1, unknown: 0 });
  });

  it('breakdowns by platform and service add up to the totals', async () => {
    const platforms = await breakdown(database.db, MARCH, 'platform');
    expect(platforms.map((r) => [r.key, r.salesMicros, r.costMicros, r.orders])).toEqual([
      ['instagram', 5_100_000, 2_960_000, 5],
      ['tiktok', 900_000, 500_000, 1],
    ]);
    const services = await breakdown(database.db, MARCH, 'service');
    expect(services.find((r) => r.key === 'svc-2')).toMatchObject({ salesMicros: 900_000, grossProfitMicros: 400_000, marginPercent: 44.4 });
  });

  it('customer balances: the sum of every balance, and what accounts below zero owe', async () => {
    const before = await customerBalances(database.db);
    // A chargeback of a top-up already spent leaves a balance below zero: as far below as the
    // chargebacks the account had (the database's check).
    await database.db.execute(sql`update users set balance_micros = ${7 * M} where id = ${a}`);
    await database.db.execute(sql`update users set chargeback_micros = ${2_500_000}, balance_micros = ${-2_500_000} where id = ${b}`);
    const after = await customerBalances(database.db);
    expect(after.customerBalancesMicros - before.customerBalancesMicros).toBe(7 * M - 2_500_000);
    expect(after.owedByCustomersMicros - before.owedByCustomersMicros).toBe(2_500_000);
    expect(after.accountsBelowZero - before.accountsBelowZero).toBe(1);
  });

  it('the API answers the same figures, refuses a period that is not one with a worded 400, and exports CSV in decimals', async () => {
    const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
    const get = (path: string, cookie = admin) => app.request(path, { headers: { origin: TEST_ORIGIN, cookie } });
    const res = await get('/api/admin/analytics?period=custom&from=2026-03-01&to=2026-03-31&group=month');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.totals).toEqual(expected);
    expect(body.period).toEqual(MARCH);

    for (const bad of ['period=custom&from=2026-03-31&to=2026-03-01', 'period=custom&from=2025-01-01&to=2026-01-02', 'period=custom&from=2026-03-01']) {
      const refused = await get(`/api/admin/analytics?${bad}`);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toMatchObject({ code: 'PERIOD_INVALID', details: { maxDays: 366 } });
    }
    expect((await get('/api/admin/analytics?period=custom&from=2025-03-31&to=2026-03-31')).status).toBe(200);
    expect((await get('/api/admin/analytics?period=year')).status).toBe(422);
    expect((await get('/api/admin/analytics?period=custom&from=0000-01-01&to=0000-01-05')).status).toBe(422);
    expect((await get('/api/admin/analytics?period=custom&from=2026-02-27&to=2026-02-30')).status).toBe(422);
    expect((await get('/api/admin/analytics?period=7d&extra=1')).status).toBe(422);
    expect((await get('/api/admin/analytics/breakdown?period=7d&by=country')).status).toBe(422);

    const csv = await get('/api/admin/analytics/export?period=custom&from=2026-03-01&to=2026-03-31&group=month&table=series');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toContain('artim-series-2026-03-01-2026-03-31-month.csv');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).trim().split('\r\n');
    expect(lines).toEqual([
      'period_start,sales_usd,refunds_usd,cost_usd,gross_profit_usd,margin_percent,top_ups_usd,top_ups_azn,orders,new_customers',
      '2026-03-01,6.00,4.90,3.46,2.54,42.3,10.00,17.00,6,2',
    ]);
    const platforms = new TextDecoder().decode(await (await get('/api/admin/analytics/export?period=custom&from=2026-03-01&to=2026-03-31&table=platform')).arrayBuffer());
    expect(platforms.split('\r\n')[2]).toBe('tiktok,,0.90,0.00,0.50,0.40,44.4,1');

    // Who may: admins; support staff and customers are refused.
    const moderator = await signUpUser(app);
    expect((await post(app, `/api/admin/users/${moderator.id}/roles`, { role: 'moderator' }, { cookie: admin })).status).toBe(201);
    const customerUser = await signUpUser(app);
    for (const path of ['/api/admin/analytics', '/api/admin/analytics/breakdown?by=platform', '/api/admin/analytics/export?table=statuses']) {
      expect((await get(path)).status).toBe(200);
      expect((await get(path, moderator.cookie)).status).toBe(403);
      expect((await get(path, customerUser.cookie)).status).toBe(403);
      expect((await app.request(path, { headers: { origin: TEST_ORIGIN } })).status).toBe(401);
    }
  });
});

describe('every total is the sum of the rows it summarizes', () => {
  it('series in each grouping, and every breakdown (top customers and the rest), add up to the totals', async () => {
    const platformsOf = ['instagram', 'tiktok', 'youtube'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            customer: fc.nat({ max: TOP_CUSTOMERS + 5 }),
            platform: fc.constantFrom(...platformsOf),
            service: fc.constantFrom('s1', 's2', 's3'),
            day: fc.nat({ max: 120 }),
            minute: fc.nat({ max: 1439 }),
            charge: fc.integer({ min: 1, max: 50 * M }),
            costShare: fc.integer({ min: 0, max: 100 }),
            refundShare: fc.integer({ min: 0, max: 100 }),
            refundLater: fc.nat({ max: 20 }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.constantFrom(...ANALYTICS_GROUPS),
        async (rows, group) => {
          const people = new Map<number, string>();
          for (const r of rows) {
            const when = new Date(Date.parse('2027-01-01T00:00:00+04:00') + (r.day * 1440 + r.minute) * 60_000);
            let id = people.get(r.customer);
            if (!id) people.set(r.customer, (id = await customer(when)));
            const refunded = Math.floor((r.charge * r.refundShare) / 100);
            const cost = Math.floor((r.charge * r.costShare) / 100);
            const o = await order(id, { charge: r.charge, cost, when, platform: r.platform, serviceId: r.service, refunded, costRefunded: Math.floor((cost * r.refundShare) / 100), status: refunded === r.charge ? 'cancelled' : 'completed' });
            if (refunded > 0) await entry(id, 'order_refund', refunded, `${o}:${refunded}`, new Date(when.getTime() + r.refundLater * 86_400_000));
          }
          const p = periodDays({ period: 'custom', from: '2027-01-15', to: '2027-04-10' })!;
          const { totals, series } = await periodFigures(database.db, p, group);
          const sum = <T>(list: T[], f: (r: T) => number) => list.reduce((s, r) => s + f(r), 0);
          for (const f of ['salesMicros', 'refundsMicros', 'costMicros', 'grossProfitMicros', 'topUpsMicros', 'topUpsQepik', 'orders', 'newCustomers'] as const) {
            expect(sum(series, (r) => r[f])).toBe(totals[f]);
          }
          for (const by of BREAKDOWNS) {
            const rows = await breakdown(database.db, p, by);
            if (by === 'customer') expect(rows.length).toBeLessThanOrEqual(TOP_CUSTOMERS + 1);
            expect(sum(rows, (r) => r.salesMicros)).toBe(totals.salesMicros);
            expect(sum(rows, (r) => r.refundsMicros)).toBe(totals.refundsMicros);
            expect(sum(rows, (r) => r.costMicros)).toBe(totals.costMicros);
            expect(sum(rows, (r) => r.orders)).toBe(totals.orders);
          }
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);
});
