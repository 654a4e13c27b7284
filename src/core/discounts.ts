import { z } from 'zod';

/**
 * Customer discounts (docs/rules.md#discounts, docs/decisions/0020). A discount is a percent from
 * 0 to DISCOUNT_MAX_PERCENT in steps of 0.01 %, set on a customer or on a customer group. It is
 * stored as a whole number of hundredths of a percent (`discount_bp`: 1250 is 12.5 %) and written
 * as decimal text ("12.5"). The customer's own discount, when set, is the one that counts (0 %
 * too: a customer can be taken out of their group's discount); else their group's; else none.
 * The price itself is taken off by the one pricing rule, src/core/pricing.ts.
 */

/** The largest discount, in percent. */
export const DISCOUNT_MAX_PERCENT = 90;
/** Hundredths of a percent in a percent. */
const STEPS = 100;

/**
 * A discount as typed: "10", "12.5", "0.25", and with the decimal comma of az and tr ("12,5", read
 * as "12.5"); at most 2 decimals, from 0 to DISCOUNT_MAX_PERCENT.
 */
export const discountPercentSchema = z
  .string('VALIDATION_FAILED')
  .transform((v) => v.replace(/^(\d{1,2}),(\d{1,2})$/, '$1.$2'))
  .pipe(
    z
      .string()
      .regex(/^\d{1,2}(?:\.\d{1,2})?$/, 'VALIDATION_FAILED')
      .refine((v) => percentToBp(v) <= DISCOUNT_MAX_PERCENT * STEPS, 'VALIDATION_FAILED'),
  );

/** "12.5" → 1250 (hundredths of a percent), exactly: the text has at most 2 decimals. */
export function percentToBp(percent: string): number {
  const [whole = '0', fraction = ''] = percent.split('.');
  return Number(whole) * STEPS + Number(fraction.padEnd(2, '0'));
}

/** 1250 → "12.5", 1000 → "10", 5 → "0.05". */
export function bpToPercent(bp: number): string {
  const whole = Math.trunc(bp / STEPS);
  const fraction = String(bp % STEPS).padStart(2, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Where a customer's discount comes from. */
export const DISCOUNT_SOURCES = ['customer', 'group'] as const;
export type DiscountSource = (typeof DISCOUNT_SOURCES)[number];

/**
 * The discount a customer's prices take: their own when set (null: not set), else their group's,
 * else none. Hundredths of a percent, with where it came from (null: no discount).
 */
export function effectiveDiscount(own: number | null, group: number | null): { bp: number; source: DiscountSource | null } {
  if (own !== null) return { bp: own, source: own > 0 ? 'customer' : null };
  if (group !== null && group > 0) return { bp: group, source: 'group' };
  return { bp: 0, source: null };
}
