import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { COUPON_KINDS } from '../../../core/bonuses';
import { PAYMENT_METHOD_KINDS } from '../../../core/paymentMethods';

/**
 * Deposit bonus rules (docs/rules.md#bonuses): a share of a top-up (hundredths of a percent) given
 * on top of it, through one method or any (`method` null), from `min_micros`, at most `cap_micros`
 * per top-up (null: no cap), between `starts_at` and `ends_at` (either open). A top-up earns by the
 * one rule that gives it most; what it earns is kept on the payment when it starts.
 */
export const depositBonusRules = pgTable(
  'deposit_bonus_rules',
  {
    id: serial('id').primaryKey(),
    /** What the team calls it (a campaign's name). */
    name: text('name').notNull(),
    method: text('method', { enum: PAYMENT_METHOD_KINDS }),
    minMicros: bigint('min_micros', { mode: 'number' }).notNull(),
    percentBp: integer('percent_bp').notNull(),
    capMicros: bigint('cap_micros', { mode: 'number' }),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('deposit_bonus_rules_terms', sql`${t.minMicros} >= 0 and ${t.percentBp} between 1 and 10000 and (${t.capMicros} is null or ${t.capMicros} > 0)`),
    check('deposit_bonus_rules_period', sql`${t.startsAt} is null or ${t.endsAt} is null or ${t.startsAt} < ${t.endsAt}`),
  ],
);

/**
 * Coupon codes (docs/rules.md#bonuses): entered on the top-up dialog, each gives a fixed amount or
 * a share of the top-up (capped), from `min_top_up_micros`, until `expires_at`, at most
 * `per_customer` times per customer and `total_uses` times in all (null: no limit). A use is a
 * payment that names the coupon and has not failed; the count is taken under the coupon row's lock,
 * so parallel top-ups never use it more often than allowed. Codes are kept upper-case and unique.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    kind: text('kind', { enum: COUPON_KINDS }).notNull(),
    amountMicros: bigint('amount_micros', { mode: 'number' }),
    percentBp: integer('percent_bp'),
    capMicros: bigint('cap_micros', { mode: 'number' }),
    minTopUpMicros: bigint('min_top_up_micros', { mode: 'number' }).notNull().default(0),
    perCustomer: integer('per_customer').notNull().default(1),
    totalUses: integer('total_uses'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('coupons_code_unique').on(t.code),
    check('coupons_code_upper', sql`${t.code} = upper(${t.code})`),
    check(
      'coupons_terms',
      sql`(${t.kind} = 'amount' and ${t.amountMicros} > 0 and ${t.percentBp} is null and ${t.capMicros} is null) or (${t.kind} = 'percent' and ${t.amountMicros} is null and ${t.percentBp} between 1 and 10000 and (${t.capMicros} is null or ${t.capMicros} > 0))`,
    ),
    check('coupons_uses', sql`${t.perCustomer} >= 1 and (${t.totalUses} is null or ${t.totalUses} >= 1) and ${t.minTopUpMicros} >= 0`),
  ],
);
