import { shareOfMicros } from './money';
import type { PaymentMethodKind } from './paymentMethods';

/**
 * Deposit bonuses and coupons (docs/rules.md#bonuses): what a top-up earns on top of the balance it
 * buys. A bonus rule gives a share of a top-up through a method (or any method) from an amount, up
 * to a cap, while its period lasts; a coupon code gives a fixed amount or a share, with uses per
 * customer and in total and an expiry. Both are fixed when the top-up starts (the customer sees
 * them before paying) and credited with the top-up, each as its own ledger entry.
 */

/** The largest share a rule or coupon may give: 100 % (in hundredths of a percent). */
export const BONUS_MAX_BP = 10_000;

/** A coupon code as typed: letters, digits, `-` and `_`, 3–32 characters, compared without case. */
export const COUPON_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{2,31}$/;

/** How a code is kept and compared: trimmed and upper-cased. */
export const normaliseCouponCode = (code: string): string => code.trim().toUpperCase();

export const COUPON_KINDS = ['amount', 'percent'] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

/** What of a bonus rule decides what it gives (the `deposit_bonus_rules` row has these). */
export interface BonusRuleTerms {
  id: number;
  /** The method it is for; null: every method. */
  method: PaymentMethodKind | null;
  /** The smallest top-up it applies to. */
  minMicros: number;
  percentBp: number;
  /** The most it gives on one top-up; null: no cap. */
  capMicros: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
  enabled: boolean;
}

/** What a rule gives on a top-up of `amountMicros`: its share, rounded down to the micro, at most its cap. */
export function ruleBonusMicros(rule: Pick<BonusRuleTerms, 'percentBp' | 'capMicros'>, amountMicros: number): number {
  const share = shareOfMicros(amountMicros, rule.percentBp);
  return rule.capMicros === null ? share : Math.min(share, rule.capMicros);
}

/** Whether a period (either end open) holds the moment `at`: from its start, until before its end. */
const within = (startsAt: Date | null, endsAt: Date | null, at: Date) => (startsAt === null || startsAt <= at) && (endsAt === null || at < endsAt);

/**
 * The rule a top-up earns by (rules do not add up): among the enabled rules in their period, for
 * its method or for every method, whose smallest amount it reaches, the one that gives most — the
 * oldest of equals. Null when none applies or the best gives nothing.
 */
export function bestBonusRule(
  rules: readonly BonusRuleTerms[],
  topUp: { method: PaymentMethodKind; amountMicros: number; at: Date },
): { ruleId: number; bonusMicros: number } | null {
  let best: { ruleId: number; bonusMicros: number } | null = null;
  for (const rule of [...rules].sort((a, b) => a.id - b.id)) {
    if (!rule.enabled || (rule.method !== null && rule.method !== topUp.method) || topUp.amountMicros < rule.minMicros) continue;
    if (!within(rule.startsAt, rule.endsAt, topUp.at)) continue;
    const bonusMicros = ruleBonusMicros(rule, topUp.amountMicros);
    if (bonusMicros > 0 && (best === null || bonusMicros > best.bonusMicros)) best = { ruleId: rule.id, bonusMicros };
  }
  return best;
}

/** What of a coupon decides what it gives and when (the `coupons` row has these). */
export interface CouponTerms {
  kind: CouponKind;
  /** What an `amount` coupon gives. */
  amountMicros: number | null;
  /** What a `percent` coupon gives, in hundredths of a percent of the top-up. */
  percentBp: number | null;
  /** The most a `percent` coupon gives on one top-up; null: no cap. */
  capMicros: number | null;
  /** The smallest top-up it may be used with. */
  minTopUpMicros: number;
  expiresAt: Date | null;
  enabled: boolean;
}

/** Why a coupon cannot be used (each its own error code, COUPON_…). */
export type CouponRefusal = 'COUPON_NOT_FOUND' | 'COUPON_EXPIRED' | 'COUPON_BELOW_MINIMUM';

/**
 * What a coupon gives on a top-up of `amountMicros` at `at`, or why it cannot be used then (its
 * uses are counted by the server, which alone sees them).
 */
export function couponBonus(coupon: CouponTerms, amountMicros: number, at: Date): { bonusMicros: number } | { refusal: CouponRefusal } {
  if (!coupon.enabled) return { refusal: 'COUPON_NOT_FOUND' };
  if (coupon.expiresAt !== null && at >= coupon.expiresAt) return { refusal: 'COUPON_EXPIRED' };
  if (amountMicros < coupon.minTopUpMicros) return { refusal: 'COUPON_BELOW_MINIMUM' };
  if (coupon.kind === 'amount') return { bonusMicros: coupon.amountMicros ?? 0 };
  const share = shareOfMicros(amountMicros, coupon.percentBp ?? 0);
  return { bonusMicros: coupon.capMicros === null ? share : Math.min(share, coupon.capMicros) };
}
