import { z } from 'zod';
import { COUPON_CODE_PATTERN } from '../bonuses';
import { MICROS_PER_CENT } from '../money';
import { PAYMENT_FAILURE_REASONS } from '../paymentFailure';
import { MAX_METHOD_FEE_BP, PAYMENT_CURRENCIES, PAYMENT_METHOD_KINDS } from '../paymentMethods';

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/**
 * A top-up's refund to the card (docs/rules.md#top-up-refunds): asked and waiting for the gateway,
 * done, refused (the balance given back), or partial (the gateway gave back only part of the
 * charge: flagged for the team, the balance keeps the rest).
 */
export const PAYMENT_REFUND_STATUSES = ['pending', 'completed', 'failed', 'partial'] as const;
export type PaymentRefundStatus = (typeof PAYMENT_REFUND_STATUSES)[number];

/** Top-up request: USD with at most 2 decimals (whole cents), 1 to 10 000, in micro-dollars (docs/rules.md#payments). */
export const TOPUP_MIN_MICROS = 1_000_000;
export const TOPUP_MAX_MICROS = 10_000_000_000;
export const TOPUP_QUICK_AMOUNTS = [1, 5, 10, 25, 50, 100] as const;

export { isTopUpReference, TOP_UP_REFERENCE_PREFIX } from './paymentReference';

export const topUpInputSchema = z.strictObject({
  amountMicros: z.number().int().min(TOPUP_MIN_MICROS).max(TOPUP_MAX_MICROS).multipleOf(MICROS_PER_CENT),
  language: z.enum(['az', 'tr', 'en']).default('az'),
  /** The method paid through (an enabled one); Epoint's card payment when not said. */
  method: z.enum(PAYMENT_METHOD_KINDS).default('epoint'),
  /** A coupon code (docs/rules.md#bonuses), compared without case. */
  coupon: z.string().trim().regex(COUPON_CODE_PATTERN).optional(),
});
export type TopUpInput = z.infer<typeof topUpInputSchema>;

export const paymentViewSchema = z.object({
  id: z.string(),
  reference: z.string(),
  type: z.enum(['balance_topup', 'order_payment']),
  amountUsdMicros: z.number().int(),
  /** What the customer is charged, in the minor unit of `currency` (qəpik, kuruş). */
  amountMinor: z.number().int(),
  currency: z.enum(PAYMENT_CURRENCIES),
  /** The method paid through. */
  method: z.enum(PAYMENT_METHOD_KINDS),
  status: z.enum(PAYMENT_STATUSES),
  provider: z.string(),
  transactionId: z.string().nullable(),
  createdAt: z.string(),
  /** When the bank took this completed top-up back (a chargeback, docs/decisions/0019), or null. */
  reversedAt: z.string().nullable(),
  /** What it earned (or will earn once paid) on top of it: the deposit bonus and a coupon's. */
  bonusMicros: z.number().int(),
  couponMicros: z.number().int(),
  /** A refund of this top-up to the card (docs/rules.md#top-up-refunds), or null; when it was done. */
  refundStatus: z.enum(PAYMENT_REFUND_STATUSES).nullable(),
  refundedAt: z.string().nullable(),
});
export type PaymentView = z.infer<typeof paymentViewSchema>;

/** What anyone holding a payment's reference may learn about it (the return pages, signed out too): its state, nothing else. */
export const paymentStatusViewSchema = paymentViewSchema.pick({ reference: true, status: true, transactionId: true }).extend({
  /** Why a failed or cancelled payment did not go through, when the gateway said. */
  reason: z.enum(PAYMENT_FAILURE_REASONS).nullable(),
  /** The gateway's own words, shown when the reason is `other`. */
  gatewayMessage: z.string().nullable(),
});
export type PaymentStatusView = z.infer<typeof paymentStatusViewSchema>;

export const topUpResultSchema = z.object({
  reference: z.string(),
  /** The gateway's payment page; null for a bank transfer, which is paid at the customer's bank. */
  paymentUrl: z.string().nullable(),
  amountMinor: z.number().int(),
  currency: z.enum(PAYMENT_CURRENCIES),
  /** A bank transfer's account details in the customer's language (the reference goes on the transfer); null otherwise. */
  bankDetails: z.string().nullable(),
  /** What the top-up earns on top of it once paid (docs/rules.md#bonuses): the deposit bonus and the coupon's. */
  bonusMicros: z.number().int(),
  couponMicros: z.number().int(),
});

const localizedText = (max: number, min: number) =>
  z.strictObject({ az: z.string().trim().min(min).max(max), tr: z.string().trim().min(min).max(max), en: z.string().trim().min(min).max(max) });

/** A method as the top-up dialog offers it: its name, the currency charged at the rate in force, its bounds and fee (docs/rules.md#payment-methods). */
export const paymentMethodViewSchema = z.object({
  kind: z.enum(PAYMENT_METHOD_KINDS),
  name: z.object({ az: z.string(), tr: z.string(), en: z.string() }),
  currency: z.enum(PAYMENT_CURRENCIES),
  /** `currency` per USD, as decimal text. */
  rate: z.string(),
  minMicros: z.number().int(),
  maxMicros: z.number().int(),
  /** Hundredths of a percent added to what the customer pays. */
  feeBp: z.number().int(),
});
export type PaymentMethodView = z.infer<typeof paymentMethodViewSchema>;

/** A method as the team sets it: every field, checked against the kind's currencies and the top-up bounds. */
export const paymentMethodInputSchema = z
  .strictObject({
    name: localizedText(60, 1),
    details: localizedText(1000, 0),
    currency: z.enum(PAYMENT_CURRENCIES),
    minMicros: z.number().int().min(TOPUP_MIN_MICROS).max(TOPUP_MAX_MICROS).multipleOf(MICROS_PER_CENT),
    maxMicros: z.number().int().min(TOPUP_MIN_MICROS).max(TOPUP_MAX_MICROS).multipleOf(MICROS_PER_CENT),
    feeBp: z.number().int().min(0).max(MAX_METHOD_FEE_BP),
    position: z.number().int().min(0).max(1000),
    enabled: z.boolean(),
  })
  .refine((m) => m.maxMicros >= m.minMicros, { path: ['maxMicros'], message: 'belowMin' });
export type PaymentMethodInput = z.infer<typeof paymentMethodInputSchema>;

/** A method as the team sees it: the stored row, and whether this shop can take money through it. */
export const staffPaymentMethodSchema = paymentMethodInputSchema.safeExtend({
  kind: z.enum(PAYMENT_METHOD_KINDS),
  /** The currencies this kind can charge in. */
  currencies: z.array(z.enum(PAYMENT_CURRENCIES)),
  /** False when no gateway of this kind is configured: customers never see the method. */
  configured: z.boolean(),
});
export type StaffPaymentMethod = z.infer<typeof staffPaymentMethodSchema>;
export type TopUpResult = z.infer<typeof topUpResultSchema>;
