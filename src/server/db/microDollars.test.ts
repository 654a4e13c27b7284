import type { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refundOrder } from '../orders/refunds';
import { MIGRATIONS, migrationsFolderBefore, pgliteBefore } from '../testing/migrations';
import { verifyLedger } from '../wallet/ledger';
import type { Db, Tx } from './client';
import { orders } from './schema';

/*
 * Migration 0019 on a copy of a shop with money in it (docs/decisions/0015-micro-dollars.md):
 * balances, ledger entries, orders (a drip-feed parent and its runs, partial and full refunds, an
 * order refunded before refunds were cumulative), payments and the audit log are migrated up to
 * 0017 in cents, then to the end: every amount is renamed and multiplied by 10 000 exactly, the
 * books still balance, and the application goes on refunding in the new unit.
 */

const TAG = '0019_micro_dollars';
const migrationsBefore = migrationsFolderBefore();

const ID = {
  plain: '00000000-0000-4000-8000-000000000001',
  partial: '00000000-0000-4000-8000-000000000002',
  failed: '00000000-0000-4000-8000-000000000003',
  legacy: '00000000-0000-4000-8000-000000000004',
  drip: '00000000-0000-4000-8000-000000000005',
  run1: '00000000-0000-4000-8000-000000000006',
  run2: '00000000-0000-4000-8000-000000000007',
};

type Row = Record<string, unknown>;
const rows = async (client: PGlite, query: string) => (await client.query<Row>(query)).rows;

/** An order as the schema of 0017 (or of 0008, for `legacy`) has it; amounts in cents. */
async function insertOrder(client: PGlite, o: { id: string; n: number; charge: number; refunded: number; status: string; quantity?: number; extra?: Row }) {
  const row: Row = {
    id: o.id,
    number: `AR-${String(o.n).padStart(10, '0')}`,
    user_id: 'u1',
    service_id: '1',
    service_name: 'Followers',
    platform: 'instagram',
    service_type: 'Followers',
    link: `https://instagram.com/p/${o.n}`,
    link_key: `instagram.com/p/${o.n}`,
    quantity: o.quantity ?? 1000,
    charge_cents: o.charge,
    refunded_cents: o.refunded,
    status: o.status,
    idempotency_key: `k-${o.n}`,
    request_hash: 'h',
    ...o.extra,
  };
  const columns = Object.keys(row);
  await client.query(`insert into orders (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
}

const entry = (client: PGlite, amount: number, kind: string, reference: string, user = 'u1') =>
  client.query(`insert into ledger_entries (user_id, amount_cents, kind, reference) values ($1, $2, $3, $4)`, [user, amount, kind, reference]);

/** A shop at migration 0017: one customer with every kind of money movement, balance = ledger. */
async function shopInCents(client: PGlite): Promise<void> {
  const db = drizzle({ client });
  // An order refunded before refunds were cumulative (the client is at the migration before 0009): failed, its charge not (yet) given back.
  await client.query(`insert into users (id, name, email) values ('u1', 'Aysel', 'aysel@example.com'), ('u2', 'Orxan', 'orxan@example.com')`);
  await insertOrder(client, { id: ID.legacy, n: 4, charge: 500, refunded: 0, status: 'error' });
  await entry(client, -500, 'order_charge', ID.legacy);

  await migrate(db, { migrationsFolder: migrationsBefore(TAG) });
  await client.query(`insert into payments (reference, user_id, amount_usd_cents, amount_qepik, rate, status, provider) values ('balance-1', 'u1', 2500, 4250, '1.7', 'completed', 'epoint'), ('balance-2', 'u1', 1010, 1717, '1.7', 'pending', 'epoint')`);
  const [paid] = await rows(client, `select id from payments where reference = 'balance-1'`);
  await entry(client, 2500, 'topup', String(paid!.id));
  await entry(client, 150, 'signup_bonus', 'signup:aysel@example.com');
  await entry(client, -33, 'admin_adjustment', 'adj-1');
  await client.query(`insert into audit_log (actor_id, actor_email, action, target_type, target_id, details) values
    ('admin', 'admin@example.com', 'balance.adjust', 'user', 'u1', '{"amountCents": -33, "reason": "correction"}'),
    ('admin', 'admin@example.com', 'order.refund', 'order', '${ID.plain}', '{"amountCents": 12, "reason": "late", "number": "AR-0000000001"}'),
    ('admin', 'admin@example.com', 'settings.update', 'settings', null, '{"base_fee": {"from": 0, "to": 0.25}}')`);
  // Completed, with a staff refund of the time before refunds were cumulative.
  await insertOrder(client, { id: ID.plain, n: 1, charge: 212, refunded: 12, status: 'completed' });
  await entry(client, -212, 'order_charge', ID.plain);
  await entry(client, 12, 'order_refund', `admin-refund:${ID.plain}:0`);
  // Partial: 2058 × 300 / 1000 = 617 back.
  await insertOrder(client, { id: ID.partial, n: 2, charge: 2058, refunded: 617, status: 'partial', extra: { remains: 300 } });
  await entry(client, -2058, 'order_charge', ID.partial);
  await entry(client, 617, 'order_refund', `${ID.partial}:617`);
  // Refused by the provider: all of it back, in a step written before totals were named.
  await insertOrder(client, { id: ID.failed, n: 3, charge: 99, refunded: 99, status: 'error' });
  await entry(client, -99, 'order_charge', ID.failed);
  await entry(client, 99, 'order_refund', ID.failed);
  // A drip-feed of 3 runs of 100 charged 300 up front: two runs written (one completed, one
  // cancelled), the schedule stopped and the run never written refunded on the parent.
  await insertOrder(client, { id: ID.drip, n: 5, charge: 300, refunded: 100, status: 'partial', quantity: 300, extra: { runs: 3, interval_minutes: 10, runs_sent: 2, remains: 200 } });
  await entry(client, -300, 'order_charge', ID.drip);
  await entry(client, 100, 'order_refund', `${ID.drip}:100`);
  await insertOrder(client, { id: ID.run1, n: 6, charge: 100, refunded: 0, status: 'completed', quantity: 100, extra: { parent_id: ID.drip, idempotency_key: `drip:${ID.drip}:1` } });
  await insertOrder(client, { id: ID.run2, n: 7, charge: 100, refunded: 100, status: 'cancelled', quantity: 100, extra: { parent_id: ID.drip, idempotency_key: `drip:${ID.drip}:2` } });
  await entry(client, 100, 'order_refund', `${ID.run2}:100`);
  const [{ sum }] = (await rows(client, `select sum(amount_cents)::bigint as sum from ledger_entries where user_id = 'u1'`)) as [{ sum: string }];
  await client.query(`update users set balance_cents = $1 where id = 'u1'`, [sum]);
  // The largest balance the application can still read once it is in micro-dollars.
  await client.query(`update users set balance_cents = 900719925474 where id = 'u2'`);
  await entry(client, 900719925474, 'topup', 'big', 'u2');
}

/** Every amount of the shop, keyed by its row: [table, key, column, value]. */
async function amounts(client: PGlite, unit: 'cents' | 'micros') {
  const out: [string, string, string, string][] = [];
  for (const r of await rows(client, `select id, balance_${unit}::text as v from users order by id`)) out.push(['users', String(r.id), 'balance', String(r.v)]);
  for (const r of await rows(client, `select id, kind, amount_${unit}::text as v from ledger_entries order by id`)) out.push(['ledger', `${String(r.id)} ${String(r.kind)}`, 'amount', String(r.v)]);
  for (const r of await rows(client, `select number, charge_${unit}::text as c, refunded_${unit}::text as r from orders order by number`)) {
    out.push(['orders', String(r.number), 'charge', String(r.c)], ['orders', String(r.number), 'refunded', String(r.r)]);
  }
  for (const r of await rows(client, `select reference, amount_usd_${unit}::text as v from payments order by reference`)) out.push(['payments', String(r.reference), 'amount_usd', String(r.v)]);
  return out;
}

describe(`migration ${TAG}`, () => {
  it('renames every USD amount and multiplies it by 10 000 exactly; the books still balance and refunds go on in micro-dollars', async () => {
    const client = await pgliteBefore('0009_refunds_settled');
    try {
      await shopInCents(client);
      const before = await amounts(client, 'cents');
      const references = await rows(client, `select id, reference from ledger_entries order by id`);

      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });

      expect(await amounts(client, 'micros')).toEqual(before.map(([t, k, c, v]) => [t, k, c, String(BigInt(v) * 10_000n)]));
      expect(await rows(client, `select column_name from information_schema.columns where column_name like '%cents%'`)).toEqual([]);
      const [big] = await rows(client, `select balance_micros::text as b from users where id = 'u2'`);
      expect(Number(big!.b)).toBe(9_007_199_254_740_000);
      expect(Number.isSafeInteger(Number(big!.b))).toBe(true);

      // A refund's reference names the total after it, now in micro-dollars; others are as they were.
      const renamed = new Map([
        [`admin-refund:${ID.plain}:0`, `admin-refund:${ID.plain}:0`],
        [`${ID.partial}:617`, `${ID.partial}:6170000`],
        [`${ID.drip}:100`, `${ID.drip}:1000000`],
        [`${ID.run2}:100`, `${ID.run2}:1000000`],
      ]);
      expect(await rows(client, `select id, reference from ledger_entries order by id`)).toEqual(references.map((r) => ({ ...r, reference: renamed.get(String(r.reference)) ?? r.reference })));

      expect((await rows(client, `select action, details from audit_log order by id`)).map((r) => [r.action, r.details])).toEqual([
        ['balance.adjust', { amountMicros: -330_000, reason: 'correction' }],
        ['order.refund', { amountMicros: 120_000, reason: 'late', number: 'AR-0000000001' }],
        ['settings.update', { base_fee: { from: 0, to: 0.25 } }],
      ]);

      // The constraints and the index read the new columns; the one for rows of before stays not validated.
      // (The balance's own check became users_balance_within_chargebacks later, in the chargebacks' migration.)
      const constraints = await rows(client, `select conname, convalidated, pg_get_constraintdef(oid) as def from pg_constraint where conname in ('users_balance_within_chargebacks', 'orders_charge_positive', 'orders_refund_bounded', 'orders_refund_settled', 'payments_amounts_positive') order by conname`);
      expect(constraints.map((c) => [c.conname, c.convalidated])).toEqual([
        ['orders_charge_positive', true],
        ['orders_refund_bounded', true],
        ['orders_refund_settled', false],
        ['payments_amounts_positive', true],
        ['users_balance_within_chargebacks', true],
      ]);
      for (const c of constraints) expect(String(c.def)).toMatch(/_micros/);
      const [index] = await rows(client, `select indexdef from pg_indexes where indexname = 'orders_refund_owed_idx'`);
      expect(String(index!.indexdef)).toContain('refunded_micros < charge_micros');
      await expect(client.query(`update orders set refunded_micros = charge_micros + 1 where id = '${ID.plain}'`)).rejects.toThrow(/orders_refund_bounded/);
      await expect(client.query(`update users set balance_micros = -1 where id = 'u1'`)).rejects.toThrow(/users_balance_within_chargebacks/);

      const db = drizzle({ client }) as unknown as Db;
      expect(await verifyLedger(db)).toEqual([]);
      // The failed order of before still owes its charge, and reconciliation refunds it in micro-dollars.
      const owed = await rows(client, `select id from orders where status in ('error', 'stopped', 'refunded', 'cancelled') and refunded_micros < charge_micros`);
      expect(owed.map((r) => r.id)).toEqual([ID.legacy]);
      const [legacy] = await db.select().from(orders).where(eq(orders.id, ID.legacy));
      const refunded = await db.transaction((tx) => refundOrder(tx as Tx, legacy!, { reason: 'reconciliation', set: { status: 'error' } }));
      expect([refunded.refundedMicros, refunded.order.refundedMicros]).toEqual([5_000_000, 5_000_000]);
      expect(await rows(client, `select amount_micros::int as a from ledger_entries where reference = '${ID.legacy}:5000000'`)).toEqual([{ a: 5_000_000 }]);
      // And the partial order's next step is named by its total in micro-dollars, past every step of before.
      const [partial] = await db.select().from(orders).where(eq(orders.id, ID.partial));
      await db.transaction((tx) => refundOrder(tx as Tx, partial!, { reason: 'cancelled', set: { status: 'cancelled' } }));
      expect(await rows(client, `select reference, amount_micros::int as a from ledger_entries where reference like '${ID.partial}:%' order by id`)).toEqual([
        { reference: `${ID.partial}:6170000`, a: 6_170_000 },
        { reference: `${ID.partial}:20580000`, a: 14_410_000 },
      ]);
      expect(await verifyLedger(db)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('converts any amount in cents exactly, and stops without changing anything when one would pass 2^53 - 1 in micro-dollars', async () => {
    const client = await pgliteBefore(TAG);
    try {
      const db = drizzle({ client });
      const cents = fc.sample(fc.integer({ min: 1, max: 900_719_925_474 }), { numRuns: 200, seed: 18 });
      await client.query(`insert into users (id, name, email) values ('u1', 'Aysel', 'aysel@example.com')`);
      for (const [i, amount] of cents.entries()) await entry(client, amount, 'topup', `t-${i}`);
      await client.query(`insert into users (id, name, email, balance_cents) values ('u2', 'Orxan', 'orxan@example.com', 900719925475)`);

      await expect(migrate(db, { migrationsFolder: MIGRATIONS })).rejects.toThrow();
      expect((await rows(client, `select column_name from information_schema.columns where table_name = 'users' and column_name like 'balance_%'`)).map((r) => r.column_name)).toEqual(['balance_cents']);
      expect((await rows(client, `select amount_cents::text as a from ledger_entries order by id`)).map((r) => Number(r.a))).toEqual(cents);

      await client.query(`update users set balance_cents = 900719925474 where id = 'u2'`);
      await migrate(db, { migrationsFolder: MIGRATIONS });
      expect((await rows(client, `select amount_micros::text as a from ledger_entries order by id`)).map((r) => Number(r.a))).toEqual(cents.map((c) => c * 10_000));
    } finally {
      await client.close();
    }
  });
});
