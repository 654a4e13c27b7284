import { z } from 'zod';
import { BONUS_MAX_BP, COUPON_CODE_PATTERN, COUPON_KINDS } from '../bonuses';
import { MICROS_PER_CENT } from '../money';
import { PAYMENT_METHOD_KINDS } from '../paymentMethods';
import { TOPUP_MAX_MICROS, TOPUP_MIN_MICROS } from './payments';

/** A coupon code as the team or a customer types it (compared without case). */
export const couponCodeSchema = z.string().trim().regex(COUPON_CODE_PATTERN);

const usd = (min: number) => z.number().int().min(min).max(TOPUP_MAX_MICROS).multipleOf(MICROS_PER_CENT);
const share = z.number().int().min(1).max(BONUS_MAX_BP);
/** A moment as ISO text (with its offset), or null for an open end. */
const moment = z.iso.datetime({ offset: true }).nullable();

/** A deposit bonus rule as the team sets it (docs/rules.md#bonuses). */
export const bonusRuleInputSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(80),
    /** Null: every method. */
    method: z.enum(PAYMENT_METHOD_KINDS).nullable(),
    minMicros: usd(0),
    percentBp: share,
    capMicros: usd(MICROS_PER_CENT).nullable(),
    startsAt: moment,
    endsAt: moment,
    enabled: z.boolean(),
  })
  .refine((r) => r.startsAt === null || r.endsAt === null || Date.parse(r.startsAt) < Date.parse(r.endsAt), { path: ['endsAt'], message: 'beforeStart' });
export type BonusRuleInput = z.infer<typeof bonusRuleInputSchema>;

/** A rule as customers see it on the top-up dialog: the terms that decide what a top-up earns. */
export const bonusRuleViewSchema = z.object({
  id: z.number().int(),
  method: z.enum(PAYMENT_METHOD_KINDS).nullable(),
  minMicros: z.number().int(),
  percentBp: z.number().int(),
  capMicros: z.number().int().nullable(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
});
export type BonusRuleView = z.infer<typeof bonusRuleViewSchema>;

/** A rule as the team sees it: every field, and how much it has given on completed top-ups. */
export const staffBonusRuleSchema = bonusRuleViewSchema.extend({
  name: z.string(),
  enabled: z.boolean(),
  /** Completed top-ups that earned by it, and what they earned. */
  uses: z.number().int(),
  givenMicros: z.number().int(),
});
export type StaffBonusRule = z.infer<typeof staffBonusRuleSchema>;

/** A coupon as the team sets it: a fixed amount, or a share (capped) of the top-up. */
export const couponInputSchema = z
  .strictObject({
    code: couponCodeSchema,
    kind: z.enum(COUPON_KINDS),
    amountMicros: usd(MICROS_PER_CENT).nullable(),
    percentBp: share.nullable(),
    capMicros: usd(MICROS_PER_CENT).nullable(),
    minTopUpMicros: usd(0),
    perCustomer: z.number().int().min(1).max(1000),
    /** Null: no limit in total. */
    totalUses: z.number().int().min(1).max(1_000_000).nullable(),
    expiresAt: moment,
    enabled: z.boolean(),
  })
  .refine((c) => (c.kind === 'amount' ? c.amountMicros !== null : c.amountMicros === null), { path: ['amountMicros'], message: 'kind' })
  .refine((c) => (c.kind === 'percent' ? c.percentBp !== null : c.percentBp === null && c.capMicros === null), { path: ['percentBp'], message: 'kind' });
export type CouponInput = z.infer<typeof couponInputSchema>;

/** A coupon as the team sees it: its terms, and its uses (payments naming it that did not fail). */
export const staffCouponSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  amountMicros: z.number().int().nullable(),
  percentBp: z.number().int().nullable(),
  capMicros: z.number().int().nullable(),
  minTopUpMicros: z.number().int(),
  perCustomer: z.number().int(),
  totalUses: z.number().int().nullable(),
  expiresAt: z.string().nullable(),
  enabled: z.boolean(),
  uses: z.number().int(),
  givenMicros: z.number().int(),
});
export type StaffCoupon = z.infer<typeof staffCouponSchema>;

/** The team's bonuses page: every rule and every coupon. */
export const staffBonusesSchema = z.object({ rules: z.array(staffBonusRuleSchema), coupons: z.array(staffCouponSchema) });
export type StaffBonuses = z.infer<typeof staffBonusesSchema>;

/** The customer asks what a coupon gives on a top-up before paying. */
export const couponCheckInputSchema = z.strictObject({
  code: couponCodeSchema,
  amountMicros: usd(TOPUP_MIN_MICROS),
});
export type CouponCheckInput = z.infer<typeof couponCheckInputSchema>;
export const couponCheckSchema = z.object({ code: z.string(), bonusMicros: z.number().int() });
export type CouponCheck = z.infer<typeof couponCheckSchema>;
