import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, pgliteBefore } from '../testing/migrations';

/*
 * Migration 0016 turns the sentences orders carried before notes were codes into their codes
 * (docs/rules.md#statuses): an existing database is migrated up to 0015, given orders with the
 * old sentences, then migrated to the end.
 */

const OLD: [string | null, string | null, string | null][] = [
  ['Sifariş verilmədi. Yenidən cəhd edin.', 'provider_refused', null],
  ['API cavab vermədi. Yenidən cəhd edin.', 'provider_no_answer', null],
  ['Provider cannot confirm this order; an admin will check it.', 'provider_cannot_confirm', null],
  ['Sifariş ID alınmadı. Yenidən cəhd edin.', 'provider_never_received', null],
  ['Cancelled before any run was sent.', 'cancelled_before_runs', null],
  ['Cancelled before it was sent to the provider.', 'cancelled_before_sending', null],
  ['Not enough funds on balance', 'other', 'Not enough funds on balance'],
  ['', null, null],
  [null, null, null],
];

describe('migration order_note_codes', () => {
  it('gives old orders the code of their sentence and keeps any other text as the message', async () => {
    const client = await pgliteBefore('0016_order_note_codes');
    try {
      const db = drizzle({ client });
      await client.query(`insert into users (id, name, email) values ('u1', 'Aysel', 'aysel@example.com')`);
      for (const [i, [comment]] of OLD.entries()) {
        await client.query(
          `insert into orders (number, user_id, service_id, service_name, platform, service_type, link, link_key, quantity, charge_cents, idempotency_key, request_hash, status, comment)
           values ($1, 'u1', '1', 'Followers', 'instagram', 'Followers', $2, $2, 10, 100, $1, 'h', 'completed', $3)`,
          [`AR-${String(i).padStart(10, '0')}`, `https://instagram.com/p/${i}`, comment],
        );
      }

      await migrate(db, { migrationsFolder: MIGRATIONS });

      const rows = await client.query<{ number: string; note_code: string | null; provider_message: string | null }>(
        'select number, note_code, provider_message from orders order by number',
      );
      expect(rows.rows.map((r) => [r.note_code, r.provider_message])).toEqual(OLD.map(([, code, message]) => [code, message]));
      const columns = await client.query<{ column_name: string }>(`select column_name from information_schema.columns where table_name = 'orders' and column_name = 'comment'`);
      expect(columns.rows).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
