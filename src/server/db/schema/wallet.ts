import { bigint, index, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from './auth';

/** What a balance change is about (docs/rules.md#wallet). */
export const LEDGER_KINDS = [
  'signup_bonus',
  'topup',
  'order_charge',
  'order_refund',
  'admin_adjustment',
  'chargeback',
  // What a top-up earns (docs/rules.md#bonuses), reference = the payment's id.
  'deposit_bonus',
  'coupon_bonus',
  // A top-up given back to the card (docs/rules.md#top-up-refunds): the amount, what it earned,
  // and — when the gateway refused — both given back to the balance; reference = the payment's id.
  'topup_refund',
  'bonus_reversal',
  'topup_refund_failed',
  // A refund that gave only part of the charge back to the card: the balance gets back the share of
  // the top-up's amount the card did not (docs/rules.md#top-up-refunds); reference = the payment's id.
  'topup_refund_partial',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * Every change of a user's balance, in USD micro-dollars (positive credits, negative debits). The pair
 * (kind, reference) is unique, so each credit or charge happens once however often it is retried;
 * `users.balance_micros` is the cached sum and changes in the same transaction as its entry.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountMicros: bigint('amount_micros', { mode: 'number' }).notNull(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    /** What the entry is about (user id, payment id, order id …); unique per kind. */
    reference: text('reference').notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('ledger_kind_reference_unique').on(t.kind, t.reference),
    index('ledger_user_idx').on(t.userId, t.createdAt),
    // A period's sales, refunds and top-ups (src/server/analytics/figures.ts).
    index('ledger_created_idx').on(t.createdAt),
  ],
);
