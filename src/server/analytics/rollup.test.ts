import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANALYTICS_GROUPS, BREAKDOWNS, periodDays, shopDay, type PeriodDays } from '../../core/analytics';
import type { Database } from '../db/client';
import { rowsOf } from '../db/client';
import { customer, entry, order } from '../testing/figureRows';
import { useTestShop } from '../testing/shop';
import { breakdown, periodFigures } from './figures';
import { firstOpenDay, rolledUp, rollUpLastYear, splitPeriod } from './rollup';

/**
 * The rollup of closed days (docs/decisions/0021-analytics-rollup.md): a period read from it
 * answers exactly what the ledger and orders answer, before and after the closed days' rows
 * change; only what the figures read marks a day; a period splits into rolled and open days at
 * an hour past the shop's midnight.
 */

let database: Database;
useTestShop((shop) => ({ database } = shop));

const M = 1_000_000;
const DAY = 86_400_000;
/** As if asked before any of these days ended: every day open, computed from the ledger and orders. */
const RAW = { now: Date.parse('2000-01-01T00:00:00Z') };
const staleDays = async () => rowsOf<{ day: string }>(await database.db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day from analytics_stale_days order by day`)).map((r) => r.day);

async function expectSameAsRaw(p: PeriodDays) {
  for (const group of ANALYTICS_GROUPS) expect(await periodFigures(database.db, p, group)).toEqual(await periodFigures(database.db, p, group, RAW));
  for (const by of BREAKDOWNS) expect(await breakdown(database.db, p, by)).toEqual(await breakdown(database.db, p, by, RAW));
}

describe('splitting a period', () => {
  const at = (local: string) => Date.parse(`${local}+04:00`);

  it('rolls up days an hour after they end in Baku, and reads whole months at once', () => {
    const p = { from: '2026-01-15', to: '2026-04-30' };
    expect(splitPeriod(p, at('2026-04-20T00:59:00'), true)).toEqual({
      rolled: { from: '2026-01-15', to: '2026-04-18', months: { from: '2026-02-01', until: '2026-04-01' } },
      open: { from: '2026-04-19', to: '2026-04-30' },
    });
    expect(splitPeriod(p, at('2026-04-20T01:00:00'), true).rolled?.to).toBe('2026-04-19');
    // A month is whole when the range holds its first and last day.
    expect(splitPeriod({ from: '2026-02-01', to: '2026-02-28' }, at('2026-06-01T12:00:00'), true).rolled?.months).toEqual({ from: '2026-02-01', until: '2026-03-01' });
    expect(splitPeriod({ from: '2026-02-02', to: '2026-03-30' }, at('2026-06-01T12:00:00'), true).rolled?.months).toBeNull();
    expect(splitPeriod({ from: '2026-02-02', to: '2026-03-30' }, at('2026-06-01T12:00:00'), false).rolled?.months).toBeNull();
    // All open, all closed.
    expect(splitPeriod(p, at('2026-01-10T12:00:00'), true)).toEqual({ rolled: null, open: p });
    expect(splitPeriod(p, at('2026-06-01T12:00:00'), true).open).toBeNull();
    expect(firstOpenDay(at('2026-04-20T00:30:00'))).toBe('2026-04-19');
  });
});

describe('the rollup answers what the ledger and orders answer', () => {
  it('for any closed period, after any change to its days', async () => {
    const db = database.db;
    const first = Date.parse('2026-05-01T00:00:00+04:00');
    const people: string[] = [];
    for (let i = 0; i < 6; i++) people.push(await customer(db, new Date(first + i * 9 * DAY)));
    const made: { id: string; user: string; when: number; charge: number }[] = [];
    const instant = fc.record({ day: fc.nat({ max: 150 }), minute: fc.nat({ max: 1439 }) }).map(({ day, minute }) => first + day * DAY + minute * 60_000);
    const change = fc.oneof(
      fc.record({
        kind: fc.constant('order' as const),
        who: fc.nat({ max: 5 }),
        when: instant,
        charge: fc.integer({ min: 1, max: 20 * M }),
        cost: fc.option(fc.nat({ max: 100 })),
        platform: fc.constantFrom('instagram', 'tiktok', 'youtube'),
        service: fc.constantFrom('s1', 's2', 's3', 's4'),
      }),
      fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), share: fc.integer({ min: 1, max: 100 }), later: fc.nat({ max: 40 }) }),
      fc.record({ kind: fc.constant('status' as const), pick: fc.nat(), status: fc.constantFrom('completed', 'partial', 'in_progress', 'unknown', 'pending') }),
      fc.record({ kind: fc.constant('costBack' as const), pick: fc.nat(), share: fc.nat({ max: 100 }) }),
      fc.record({ kind: fc.constant('moved' as const), pick: fc.nat(), platform: fc.constantFrom('instagram', 'telegram'), service: fc.constantFrom('s1', 's9') }),
      fc.record({ kind: fc.constant('topup' as const), who: fc.nat({ max: 5 }), when: instant, micros: fc.integer({ min: 1, max: 50 * M }) }),
    );
    const period = fc.record({ start: fc.nat({ max: 150 }), length: fc.integer({ min: 1, max: 140 }) });

    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 25 }), fc.array(period, { minLength: 1, maxLength: 3 }), async (changes, periods) => {
        for (const c of changes) {
          const target = 'pick' in c && made.length ? made[c.pick % made.length]! : null;
          if (c.kind === 'order') {
            const user = people[c.who]!;
            const cost = c.cost === null ? null : Math.floor((c.charge * c.cost) / 100);
            made.push({ id: await order(db, user, { charge: c.charge, cost, when: new Date(c.when), platform: c.platform, serviceId: c.service }), user, when: c.when, charge: c.charge });
          } else if (c.kind === 'topup') {
            await entry(db, people[c.who]!, 'topup', c.micros, `t-${c.when}-${c.micros}-${Math.random()}`, new Date(c.when));
          } else if (target && c.kind === 'refund') {
            const amount = Math.max(1, Math.floor((target.charge * c.share) / 100));
            await entry(db, target.user, 'order_refund', amount, `${target.id}:${amount}-${Math.random()}`, new Date(Math.min(target.when + c.later * DAY, Date.now() - 2 * DAY)));
          } else if (target && c.kind === 'status') {
            await db.execute(sql`update orders set status = ${c.status} where id = ${target.id}`);
          } else if (target && c.kind === 'costBack') {
            await db.execute(sql`update orders set cost_refunded_micros = coalesce(cost_micros, 0) * ${c.share} / 100 where id = ${target.id}`);
          } else if (target && c.kind === 'moved') {
            await db.execute(sql`update orders set platform = ${c.platform}, service_id = ${c.service} where id = ${target.id}`);
          }
        }
        for (const q of periods) {
          const from = shopDay(new Date(first + q.start * DAY));
          const to = shopDay(new Date(first + Math.min(q.start + q.length - 1, 160) * DAY));
          await expectSameAsRaw(periodDays({ period: 'custom', from, to })!);
        }
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});

describe('what marks a closed day stale', () => {
  it('a closed day’s charges, refunds and figures-bearing columns; not today’s orders nor an order’s progress', async () => {
    const db = database.db;
    const user = await customer(db, new Date('2025-01-01T00:00:00Z'));
    const old = new Date('2025-02-10T12:00:00+04:00');
    await rollUpLastYear(db);
    await rolledUp(db, { from: '2025-02-01', to: '2025-02-28' }, { months: true });
    expect(await staleDays()).toEqual([]);

    // Today's order, charged, moved along: nothing to mark.
    const today = await order(db, user, { charge: M, cost: 500_000, when: new Date() });
    await db.execute(sql`update orders set status = 'in_progress', cost_micros = 400000 where id = ${today}`);
    expect(await staleDays()).toEqual([]);

    const o = await order(db, user, { charge: 2 * M, cost: M, when: old, platform: 'tiktok' });
    expect(await staleDays()).toEqual(['2025-02-10', '2025-02-10']); // the order and its charge
    await rolledUp(db, { from: '2025-02-01', to: '2025-02-28' }, { months: true });
    expect(await staleDays()).toEqual([]);

    // Progress the figures do not read marks nothing.
    await db.execute(sql`update orders set remains = 10, start_count = 5 where id = ${o}`);
    expect(await staleDays()).toEqual([]);
    await db.execute(sql`update orders set status = 'partial', cost_refunded_micros = 100000 where id = ${o}`);
    expect(await staleDays()).toEqual(['2025-02-10']);

    // A refund dated on another closed day, then the order moved to another platform: the
    // refund's day is marked too, its breakdown row having moved.
    await entry(db, user, 'order_refund', 300_000, `${o}:300000`, new Date('2025-03-02T09:00:00+04:00'));
    await rolledUp(db, { from: '2025-02-01', to: '2025-03-31' }, { months: true });
    await db.execute(sql`update orders set platform = 'youtube' where id = ${o}`);
    expect(await staleDays()).toEqual(['2025-02-10', '2025-02-10', '2025-03-02']);

    const p = periodDays({ period: 'custom', from: '2025-02-01', to: '2025-03-31' })!;
    const platforms = await breakdown(db, p, 'platform');
    expect(platforms.map((r) => [r.key, r.salesMicros, r.orders])).toEqual([['youtube', 1_700_000, 1]]);
    expect(await staleDays()).toEqual([]);
    expect(await periodFigures(db, p, 'month')).toEqual(await periodFigures(db, p, 'month', RAW));
  });

  it('builds once when asked twice at the same time, and a closed month reads as the sum of its days', async () => {
    const db = database.db;
    const user = await customer(db, new Date('2024-12-01T00:00:00Z'));
    for (let d = 1; d <= 31; d += 3) await order(db, user, { charge: d * 1000, cost: d * 500, when: new Date(`2024-12-${String(d).padStart(2, '0')}T10:00:00+04:00`), serviceId: `s${d % 4}` });
    const p = periodDays({ period: 'custom', from: '2024-12-01', to: '2024-12-31' })!;
    const [a, b] = await Promise.all([breakdown(db, p, 'service'), breakdown(db, p, 'service')]);
    expect(a).toEqual(b);
    expect(a).toEqual(await breakdown(db, p, 'service', RAW));
    const [rows] = rowsOf<{ days: number; months: number }>(
      await db.execute(sql`select (select count(*)::int from analytics_built_days where day between '2024-12-01' and '2024-12-31') as days, (select count(*)::int from analytics_built_months where month = '2024-12-01') as months`),
    );
    expect(rows).toEqual({ days: 31, months: 1 });

    // A change to another month's day computes that day and its month again, not December.
    const builtAt = async () => rowsOf<{ at: string }>(await db.execute(sql`select built_at::text as at from analytics_built_months where month = '2024-12-01'`))[0]!.at;
    const december = await builtAt();
    const both = periodDays({ period: 'custom', from: '2024-12-01', to: '2025-01-31' })!;
    await breakdown(db, both, 'service');
    await order(db, user, { charge: 5000, cost: 100, when: new Date('2025-01-15T10:00:00+04:00'), serviceId: 's1' });
    expect(await staleDays()).toContain('2025-01-15');
    expect(await breakdown(db, both, 'service')).toEqual(await breakdown(db, both, 'service', RAW));
    expect(await builtAt()).toBe(december);
  });
});
