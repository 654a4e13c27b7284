import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrationsFolderBefore, pgliteBefore } from '../testing/migrations';
import { signUpBonusReference } from '../auth/service';
import { API_ID_MAX, API_ID_MIN } from './schema';

/*
 * Migration 0017 on a database that has orders and sign-up bonuses: the orders' reseller ids stay
 * as they were and later orders draw theirs at random (docs/decisions/0014-reseller-order-ids.md);
 * the first bonus of each mailbox is keyed by the mailbox (docs/rules.md#accounts), as the
 * application keys new ones, so no account of a mailbox already credited is credited again.
 */

const TAG = '0017_signup_mailbox_random_api_ids';
const migrationsBefore = migrationsFolderBefore();

const insertOrder = (client: PGlite, i: number) =>
  client.query(
    `insert into orders (number, user_id, service_id, service_name, platform, service_type, link, link_key, quantity, charge_cents, idempotency_key, request_hash, status)
     values ($1, 'u1', '1', 'Followers', 'instagram', 'Followers', $2, $2, 10, 100, $1, 'h', 'completed')`,
    [`AR-${String(i).padStart(10, '0')}`, `https://instagram.com/p/${i}`],
  );

describe(`migration ${TAG}`, () => {
  it('keeps the reseller ids orders had, and draws the ids of later orders at random', async () => {
    const client = await pgliteBefore(TAG);
    try {
      const db = drizzle({ client });
      await client.query(`insert into users (id, name, email) values ('u1', 'Aysel', 'aysel@example.com')`);
      for (let i = 0; i < 5; i += 1) await insertOrder(client, i);
      const ids = async () => (await client.query<{ number: string; api_id: string }>('select number, api_id from orders order by number')).rows.map((r) => [r.number, Number(r.api_id)]);
      const old = await ids();
      expect(old.map(([, id]) => id)).toEqual([100001, 100002, 100003, 100004, 100005]);

      // Up to this migration only: later orders are written as the schema of its time has them.
      await migrate(db, { migrationsFolder: migrationsBefore('0019_micro_dollars') });

      expect(await ids()).toEqual(old);
      for (let i = 5; i < 15; i += 1) await insertOrder(client, i);
      const drawn = (await ids()).slice(5).map(([, id]) => id as number);
      expect(new Set(drawn).size).toBe(10);
      for (const id of drawn) expect(id >= API_ID_MIN && id <= API_ID_MAX).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('keys the first sign-up bonus of each mailbox by the mailbox, as the application does, and leaves the others as they were', async () => {
    const farm = ['farm+1@gmail.com', 'farm+2@gmail.com', 'f.arm@gmail.com', 'FARM+3@googlemail.com', 'f.arm@example.com', 'farm@example.com', 'farm+x@example.com'];
    // Addresses of the shapes sign-up accepts, many of them of the same few mailboxes.
    const generated = fc.sample(
      fc
        .tuple(
          fc.constantFrom('ali', 'Ali', 'a.li', 'veli', 'v.e.l.i', 'x_y-z', 'q9'),
          fc.constantFrom('', '+1', '+promo', '+a.b', '+', '++x'),
          fc.constantFrom('gmail.com', 'GMAIL.com', 'googlemail.com', 'example.com', 'mail.ru', 'gmail.com.tr'),
        )
        .map(([local, tag, domain]) => `${local}${tag}@${domain}`),
      { numRuns: 300, seed: 17 },
    );
    const emails = [...new Set([...farm, ...generated])];
    const client = await pgliteBefore(TAG);
    try {
      const db = drizzle({ client });
      for (const [i, email] of emails.entries()) {
        await client.query(`insert into users (id, name, email, balance_cents) values ($1, 'Farm', $2, 150)`, [`u${i}`, email]);
        await client.query(`insert into ledger_entries (user_id, amount_cents, kind, reference) values ($1, 150, 'signup_bonus', $1)`, [`u${i}`]);
      }
      await client.query(`insert into ledger_entries (user_id, amount_cents, kind, reference) values ('u0', 500, 'topup', 'u1')`);

      await migrate(db, { migrationsFolder: MIGRATIONS });

      const rows = (await client.query<{ user_id: string; kind: string; reference: string }>('select user_id, kind, reference from ledger_entries order by id')).rows;
      const seen = new Set<string>();
      const expected = emails.map((email, i) => {
        const reference = signUpBonusReference(email);
        if (seen.has(reference)) return { user_id: `u${i}`, kind: 'signup_bonus', reference: `u${i}` };
        seen.add(reference);
        return { user_id: `u${i}`, kind: 'signup_bonus', reference };
      });
      expect(rows).toEqual([...expected, { user_id: 'u0', kind: 'topup', reference: 'u1' }]);
      expect(rows.slice(0, farm.length).map((r) => r.reference)).toEqual(['signup:farm@gmail.com', 'u1', 'u2', 'u3', 'signup:f.arm@example.com', 'signup:farm@example.com', 'u6']);
      expect(seen.size).toBeGreaterThan(20);
    } finally {
      await client.close();
    }
  });
});
