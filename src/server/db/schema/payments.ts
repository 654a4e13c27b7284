import { sql } from 'drizzle-orm';
import { bigint, boolean, check, customType, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import type { Localized } from './admin';
import { PAYMENT_CURRENCIES, PAYMENT_METHOD_KINDS } from '../../../core/paymentMethods';
import { coupons, depositBonusRules } from './bonuses';

import { PAYMENT_REFUND_STATUSES, PAYMENT_STATUSES } from '../../../core/contracts/payments';

export { PAYMENT_STATUSES, type PaymentStatus } from '../../../core/contracts/payments';

/**
 * The ways to top up (docs/rules.md#payment-methods), one row per kind, edited by the team:
 * names in the three languages, the currency charged, bounds of the USD credited, a fee in
 * hundredths of a percent added to the charge, the place on the top-up dialog, and whether
 * customers see it. Gateway secrets stay in the environment; `details` holds what a bank
 * transfer shows (the account, per language).
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    kind: text('kind', { enum: PAYMENT_METHOD_KINDS }).primaryKey(),
    name: jsonb('name').$type<Localized>().notNull(),
    details: jsonb('details').$type<Localized>().notNull().default({ az: '', tr: '', en: '' }),
    currency: text('currency', { enum: PAYMENT_CURRENCIES }).notNull(),
    minMicros: bigint('min_micros', { mode: 'number' }).notNull(),
    maxMicros: bigint('max_micros', { mode: 'number' }).notNull(),
    feeBp: integer('fee_bp').notNull().default(0),
    position: integer('position').notNull().default(0),
    enabled: boolean('enabled').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payment_methods_bounds', sql`${t.minMicros} > 0 and ${t.maxMicros} >= ${t.minMicros}`),
    check('payment_methods_fee', sql`${t.feeBp} >= 0 and ${t.feeBp} <= 2000`),
  ],
);

/**
 * Payments (docs/rules.md#payments). The row is written before the gateway is
 * called; `settle()` is the only place that changes its status to completed and credits the
 * balance. `flagged` marks a payment whose gateway data did not match: never credited, shown to
 * admins.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Our reference, sent to the gateway as its order id: `balance-…` for top-ups. */
    reference: text('reference').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    type: text('type', { enum: ['balance_topup', 'order_payment'] }).notNull().default('balance_topup'),
    amountUsdMicros: bigint('amount_usd_micros', { mode: 'number' }).notNull(),
    /** What the customer is charged, in the minor unit of `currency` (AZN qəpik, TRY kuruş), the method's fee included. */
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    /** `currency` per USD used for this payment, as a decimal string. */
    rate: text('rate').notNull(),
    currency: text('currency', { enum: PAYMENT_CURRENCIES }).notNull().default('AZN'),
    /** The method paid through (`payment_methods.kind`); `provider` names the gateway that answered for it. */
    method: text('method', { enum: PAYMENT_METHOD_KINDS })
      .notNull()
      .default('epoint')
      .references(() => paymentMethods.kind, { onDelete: 'restrict' }),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('pending'),
    provider: text('provider').notNull(),
    transactionId: text('transaction_id'),
    gatewayMessage: text('gateway_message'),
    /** The gateway's result code of a settled payment ("000" approved; the bank's decline code otherwise). */
    gatewayCode: text('gateway_code'),
    flagged: boolean('flagged').notNull().default(false),
    flagReason: text('flag_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /**
     * A completed top-up the bank took back (a chargeback, docs/decisions/0019): when, by which
     * staff member, and why. Its status stays `completed`; the `chargeback` ledger entry
     * (reference = the payment's id) takes the money back.
     */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    reversedBy: text('reversed_by').references(() => users.id, { onDelete: 'restrict' }),
    reversalReason: text('reversal_reason'),
    /** While set and in the future, a reconciliation run is asking the gateway about this payment; other runs skip it. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /**
     * A bank transfer's review (docs/rules.md#bank-transfers): who of the team approved or
     * rejected it, when, and the reason given for a rejection.
     */
    reviewedBy: text('reviewed_by').references(() => users.id, { onDelete: 'restrict' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewNote: text('review_note'),
    /**
     * What the top-up earns on top of it (docs/rules.md#bonuses), fixed when it starts and credited
     * with it: the deposit bonus rule's share and the coupon's, each its own ledger entry
     * (`deposit_bonus`, `coupon_bonus`, reference = the payment's id). A payment naming a coupon is
     * one of its uses unless it failed or was cancelled.
     */
    bonusRuleId: integer('bonus_rule_id').references(() => depositBonusRules.id, { onDelete: 'restrict' }),
    bonusMicros: bigint('bonus_micros', { mode: 'number' }).notNull().default(0),
    couponId: integer('coupon_id').references(() => coupons.id, { onDelete: 'restrict' }),
    couponMicros: bigint('coupon_micros', { mode: 'number' }).notNull().default(0),
    /**
     * A completed top-up given back to the card by the team (docs/rules.md#top-up-refunds): the
     * balance is debited first (`topup_refund` and, for what it earned, `bonus_reversal`), then the
     * gateway is asked; `pending` until it answers, `failed` (and the balance given back) when it
     * refuses, `partial` (flagged; `refunded_minor` says how much of the charge went back, when the
     * gateway says) when the card got only part of it back.
     */
    refundStatus: text('refund_status', { enum: PAYMENT_REFUND_STATUSES }),
    refundReason: text('refund_reason'),
    refundedBy: text('refunded_by').references(() => users.id, { onDelete: 'restrict' }),
    refundRequestedAt: timestamp('refund_requested_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundError: text('refund_error'),
    /** A `partial` refund: what the gateway reports given back to the card, in the minor unit of `currency` (null: it did not say). */
    refundedMinor: bigint('refunded_minor', { mode: 'number' }),
  },
  (t) => [
    index('payments_user_created_idx').on(t.userId, t.createdAt),
    index('payments_status_idx').on(t.status, t.createdAt),
    index('payments_transaction_idx').on(t.transactionId),
    index('payments_coupon_idx').on(t.couponId, t.userId),
    check('payments_bonuses', sql`${t.bonusMicros} >= 0 and ${t.couponMicros} >= 0 and (${t.bonusRuleId} is null) = (${t.bonusMicros} = 0) and (${t.couponId} is not null or ${t.couponMicros} = 0)`),
    check('payments_refund', sql`(${t.refundStatus} is null) = (${t.refundRequestedAt} is null) and (${t.refundStatus} is null) = (${t.refundedBy} is null) and (${t.refundStatus} is null or ${t.status} = 'completed')`),
    check('payments_refunded_minor', sql`${t.refundedMinor} is null or (${t.refundStatus} = 'partial' and ${t.refundedMinor} > 0 and ${t.refundedMinor} < ${t.amountMinor})`),
    check('payments_amounts_positive', sql`${t.amountUsdMicros} > 0 and ${t.amountMinor} > 0`),
    check('payments_reversal_complete', sql`(${t.reversedAt} is null) = (${t.reversedBy} is null) and (${t.reversedAt} is null) = (${t.reversalReason} is null) and (${t.reversedAt} is null or ${t.status} = 'completed')`),
  ],
);

/** Raw bytes (PostgreSQL `bytea`), read and written as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The receipt a customer uploaded for a bank transfer (docs/rules.md#bank-transfers): one per
 * payment, its type as read from its content (PNG, JPEG, WebP or PDF), kept in the database,
 * never served from the site's files; only the team reads it.
 */
export const paymentReceipts = pgTable('payment_receipts', {
  paymentId: uuid('payment_id')
    .primaryKey()
    .references(() => payments.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  data: bytea('data').notNull(),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
});
