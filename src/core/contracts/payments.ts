import { z } from 'zod';
import { MICROS_PER_CENT } from '../money';
import { PAYMENT_FAILURE_REASONS } from '../paymentFailure';

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Top-up request: USD with at most 2 decimals (whole cents), 1 to 10 000, in micro-dollars (docs/rules.md#payments). */
export const TOPUP_MIN_MICROS = 1_000_000;
export const TOPUP_MAX_MICROS = 10_000_000_000;
export const TOPUP_QUICK_AMOUNTS = [1, 5, 10, 25, 50, 100] as const;

export { isTopUpReference, TOP_UP_REFERENCE_PREFIX } from './paymentReference';

export const topUpInputSchema = z.strictObject({
  amountMicros: z.number().int().min(TOPUP_MIN_MICROS).max(TOPUP_MAX_MICROS).multipleOf(MICROS_PER_CENT),
  language: z.enum(['az', 'tr', 'en']).default('az'),
});
export type TopUpInput = z.infer<typeof topUpInputSchema>;

export const paymentViewSchema = z.object({
  id: z.string(),
  reference: z.string(),
  type: z.enum(['balance_topup', 'order_payment']),
  amountUsdMicros: z.number().int(),
  amountQepik: z.number().int(),
  status: z.enum(PAYMENT_STATUSES),
  provider: z.string(),
  transactionId: z.string().nullable(),
  createdAt: z.string(),
  /** When the bank took this completed top-up back (a chargeback, docs/decisions/0019), or null. */
  reversedAt: z.string().nullable(),
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

export const topUpResultSchema = z.object({ reference: z.string(), paymentUrl: z.string(), amountQepik: z.number().int() });
export type TopUpResult = z.infer<typeof topUpResultSchema>;
