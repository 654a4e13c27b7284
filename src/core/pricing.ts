import type { CatalogService, PriceTier } from './catalog';
import { microsToDecimal } from './money';
import { quantityBounds } from './orderRules';
import { isCommentService } from './platforms';

/**
 * Order prices (docs/rules.md#money), in USD micro-dollars. Tier prices are USD decimal strings
 * for `pricingPer` units. A customer's price per 1000 units (the service fee included) is the
 * service's rate, rounded up to 5 decimals, the reseller protocol's precision: it is what the
 * site shows and what the API answers as `rate`, and every order is charged by it, so a charge is
 * rate × quantity / 1000 (rounded up to the micro) plus the base fee. Everything else is exact
 * arithmetic on fractions of BigInt, each rounding a ceiling; a customer is never undercharged
 * and a non-zero price costs at least one micro-dollar.
 */

/**
 * The storefront's fee settings: a percentage on top and a fixed USD fee per order; and, for a
 * signed-in customer, their discount (a percent, 0–90, src/core/discounts.ts) taken off the rate
 * and the base fee. Without one (or "0") the price is the list price.
 */
export interface Fees {
  serviceFeePercent: string | number;
  baseFee: string | number;
  discountPercent?: string | number;
}

/** Decimals of a rate (USD per 1000 units). */
export const RATE_DECIMALS = 5;
/** Micro-dollars in the last decimal of a rate. */
const MICROS_PER_RATE_STEP = 10 ** (6 - RATE_DECIMALS);

/** An exact fraction num / den (den > 0): every amount below is one until it is rounded, once. */
interface Exact {
  num: bigint;
  den: bigint;
}
const exact = (num: bigint | number, den: bigint | number = 1n): Exact => ({ num: BigInt(num), den: BigInt(den) });
const ZERO = exact(0);
const times = (...factors: Exact[]): Exact => factors.reduce((a, b) => ({ num: a.num * b.num, den: a.den * b.den }));
const plus = (a: Exact, b: Exact): Exact => ({ num: a.num * b.den + b.num * a.den, den: a.den * b.den });
/** a / b for b > 0. */
const over = (a: Exact, b: Exact): Exact => ({ num: a.num * b.den, den: a.den * b.num });
/** -1, 0 or 1 as a is below, equal to or above b. */
const compare = (a: Exact, b: Exact): number => {
  const d = a.num * b.den - b.num * a.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};
/** The smallest whole number not below a non-negative fraction: an exact ceiling. */
const ceil = (a: Exact): bigint => (a.num + a.den - 1n) / a.den;

/** Plain decimal text, signed, with an exponent only where a number's own text has one ("1e-7"). */
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/**
 * A finite number (read through its shortest decimal text, as written: 0.1 is 1/10) or plain
 * decimal text ("0.35", " 12 "); anything else is null.
 */
function toDecimal(value: unknown): Exact | null {
  const match =
    typeof value === 'number' ? (Number.isFinite(value) ? NUMBER_TEXT.exec(String(value)) : null) : typeof value === 'string' ? DECIMAL.exec(value.trim()) : null;
  if (!match) return null;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const shift = Number(exponent) - fraction.length;
  const digits = BigInt(`${sign}${whole}${fraction}`);
  return shift >= 0 ? exact(digits * 10n ** BigInt(shift)) : exact(digits, 10n ** BigInt(-shift));
}

/** A fee setting; one that is not numeric or is negative counts as 0 (docs/rules.md#money). */
function feeValue(value: unknown): Exact {
  const fee = toDecimal(value);
  return fee && compare(fee, ZERO) > 0 ? fee : ZERO;
}

/** The largest discount a price takes (src/core/discounts.ts bounds what is stored); more counts as this. */
const MAX_DISCOUNT = exact(90);
const HUNDRED = exact(100);

/** A discount: not numeric or negative counts as 0, above MAX_DISCOUNT as MAX_DISCOUNT. */
function discountValue(value: unknown): Exact {
  const d = feeValue(value);
  return compare(d, MAX_DISCOUNT) > 0 ? MAX_DISCOUNT : d;
}

/**
 * A list amount in micro-dollars with the customer's discount off, rounded up to a multiple of
 * `step` micro-dollars (10 for a rate of 5 decimals, 1 for the base fee): the list rate 0.21272
 * at 10 % is 0.191448 → 0.19145. No discount leaves it as it is.
 */
function discounted(listMicros: bigint, fees: Fees, step: number): bigint {
  const d = discountValue(fees.discountPercent);
  if (d.num === 0n) return listMicros;
  // amount × (100 − d) / 100, in whole steps, with the one rounding last.
  const off = plus(HUNDRED, times(d, exact(-1)));
  return ceil(over(times(exact(listMicros), off), exact(100 * step))) * BigInt(step);
}

/** Price and pricingPer of a tier when both are usable: price ≥ 0, pricingPer > 0. */
function tierPrice(tier: PriceTier): { price: Exact; per: Exact } | null {
  const price = toDecimal(tier.price);
  const per = typeof tier.pricingPer === 'number' && tier.pricingPer > 0 ? toDecimal(tier.pricingPer) : null;
  if (!price || compare(price, ZERO) < 0 || !per) return null;
  return { price, per };
}

/** A whole number of micro-dollars as a safe integer, or RangeError. */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
function safeMicros(micros: bigint, what: string): number {
  if (micros > MAX_SAFE) throw new RangeError(`${what} beyond the safe integer range`);
  return Number(micros);
}

/**
 * The customer's rate of a tier: USD per 1000 units, the service fee included, rounded up to
 * RATE_DECIMALS decimals, in micro-dollars (so a multiple of 10): price 0.2 per 1000 with a 6.36 %
 * fee is 0.21272 → 212 720. A customer's discount is then taken off this list rate and the result
 * rounded up to RATE_DECIMALS again (0.21272 at 10 % → 0.19145), so every charge is still
 * rate × quantity / 1000 by the rate the customer is shown (docs/decisions/0020).
 * Null when the tier's price or pricingPer is unusable.
 */
function tierRateMicros(tier: PriceTier, fees: Fees): bigint | null {
  const usable = tierPrice(tier);
  if (!usable) return null;
  const percent = feeValue(fees.serviceFeePercent);
  // rate × 10^5 = price × 1000 / per × (100 + percent) / 100 × 10^5, rounded up once.
  const steps = ceil(over(times(usable.price, plus(percent, HUNDRED), exact(10 ** (RATE_DECIMALS + 1))), usable.per));
  return discounted(steps * BigInt(MICROS_PER_RATE_STEP), fees, MICROS_PER_RATE_STEP);
}

/** The tier an order of `quantity` units is priced by: the first with minimum ≤ quantity ≤ maximum. */
const tierOf = (tiers: readonly PriceTier[], quantity: number) => tiers.find((t) => t.minimum <= quantity && quantity <= t.maximum);

/**
 * What a shown rate is read from: the service's tiers and, when known, its minimum and step, which
 * with the tiers bound the quantities it can be ordered in (`quantityBounds`, src/core/orderRules.ts).
 */
export interface RatedService {
  tiers: readonly PriceTier[];
  amountMinimum?: number;
  amountIncrement?: number;
}

/**
 * The quantity a shown price stands for: `per` units (1000, or 10 for comments) when the service
 * can be ordered in that quantity, else the orderable quantity nearest below it (the minimum when
 * `per` is below it, the largest one reachable in steps when above the maximum). So the rate shown
 * is always one an order can be charged by: a service orderable up to 400 never shows the rate of
 * its tier from 500.
 */
export function displayQuantity(service: RatedService, per: number): number {
  const { min, max, step } = quantityBounds({ tiers: service.tiers as PriceTier[], amountMinimum: service.amountMinimum ?? 0, amountIncrement: service.amountIncrement ?? 0 });
  if (per <= min || max < min) return min;
  return min + Math.floor((Math.min(per, max) - min) / step) * step;
}

/**
 * The rate shown for a service and answered by the reseller API: of the tier an order of
 * `displayQuantity(service, per)` units is charged by (per = 1000 by default), else of the first
 * tier; micro-dollars per 1000 units. Null when no usable tier exists. Throws RangeError beyond the
 * safe integer range.
 */
export function ratePer1000Micros(service: RatedService, fees: Fees, per = DISPLAY_PER): number | null {
  const { tiers } = service;
  const tier = tierOf(tiers, displayQuantity(service, per)) ?? tiers[0];
  const rate = tier ? tierRateMicros(tier, fees) : null;
  return rate === null ? null : safeMicros(rate, 'rate');
}

/**
 * The base fee of an order with the service fee on it, rounded up to the micro: 0.25 USD at 10 % →
 * 275 000; a customer's discount comes off that, rounded up to the micro again (10 % → 247 500).
 */
export function baseFeeMicros(fees: Fees): number {
  const percent = feeValue(fees.serviceFeePercent);
  // base × (100 + percent) / 100 × 10^6
  const list = ceil(times(feeValue(fees.baseFee), plus(percent, HUNDRED), exact(10_000)));
  return safeMicros(discounted(list, fees, 1), 'base fee');
}

/**
 * The price of an order in USD micro-dollars, by the first tier with minimum ≤ quantity ≤ maximum:
 *   charge = ceil_micro(rate × quantity / 1000) + base fee (baseFeeMicros)
 * where rate is the tier's price per 1000 units with the service fee, rounded up to 5 decimals,
 * less the customer's discount, rounded up to 5 decimals again.
 * 0 when there are no tiers, the quantity is not a positive integer, no tier matches, or the
 * tier's pricingPer or price is unusable. Throws RangeError beyond the safe integer range.
 */
export function priceOrder(tiers: readonly PriceTier[], quantity: number, fees: Fees): { micros: number } {
  if (!Number.isSafeInteger(quantity) || quantity <= 0) return { micros: 0 };
  const tier = tierOf(tiers, quantity);
  const rate = tier ? tierRateMicros(tier, fees) : null;
  if (rate === null) return { micros: 0 };
  const units = ceil(exact(rate * BigInt(quantity), 1000));
  return { micros: safeMicros(units + BigInt(baseFeeMicros(fees)), 'order price') };
}

/** Display quantities: prices are shown per 1000 units, comment services per 10 (docs/rules.md#money). */
export const DISPLAY_PER = 1000;
export const COMMENT_DISPLAY_PER = 10;

/**
 * The price shown beside a service: USD for `per` units (1000, or 10 for comment services), the
 * service fee included, the base fee excluded (it is a per-order fee shown in the price details):
 * what `per` units cost by the rate an order can be charged by (`ratePer1000Micros`: the tier of
 * the orderable quantity nearest `per`, else the first tier), rounded up to the micro. `usd` is written with at least 2 decimals and the others it has: "0.35",
 * "0.21272", "0.001234" (a rate per 10), "12.00". Null when no usable tier exists.
 */
export function pricePerUnitDisplay(
  service: RatedService & Pick<CatalogService, 'type' | 'name'>,
  fees: Fees,
): { per: number; micros: number; usd: string } | null {
  const per = isCommentService(service) ? COMMENT_DISPLAY_PER : DISPLAY_PER;
  const rate = ratePer1000Micros(service, fees, per);
  if (rate === null) return null;
  const micros = safeMicros(ceil(exact(BigInt(rate) * BigInt(per), 1000)), 'price');
  return { per, micros, usd: microsToDecimal(micros) };
}

/**
 * What an order of `quantity` units costs at a provider's price (its tiers, no fees): the tier's
 * price × quantity / pricingPer, rounded up to the micro-dollar (never under-counted). 0 when no
 * tier is usable. Throws RangeError beyond the safe integer range.
 */
export function costOfOrderMicros(tiers: readonly PriceTier[], quantity: number): number {
  if (!Number.isSafeInteger(quantity) || quantity <= 0) return 0;
  const tier = tierOf(tiers, quantity);
  const usable = tier && tierPrice(tier);
  if (!usable) return 0;
  return safeMicros(ceil(over(times(usable.price, exact(quantity), exact(1_000_000)), usable.per)), 'cost');
}

/** Decimals a selling tier's price is written with (the catalogue's decimal strings allow 8). */
const TIER_DECIMALS = 8;

/**
 * A service's selling tiers from its provider's tiers and the service's markup: each price
 * becomes price × (100 + percent) / 100 + fixedPer1000 × pricingPer / 1000, rounded up to
 * TIER_DECIMALS decimals. Bounds and pricingPer are kept. A markup of 0 gives the same prices.
 */
export function markedUpTiers(tiers: readonly PriceTier[], markup: { percent: string | number; fixedPer1000: string | number }): PriceTier[] {
  const percent = feeValue(markup.percent);
  const fixed = feeValue(markup.fixedPer1000);
  return tiers.map((t) => {
    const price = toDecimal(t.price);
    const per = t.pricingPer > 0 ? toDecimal(t.pricingPer) : null;
    if (!price || compare(price, ZERO) < 0 || !per) return { ...t };
    const scaled = plus(over(times(price, plus(percent, HUNDRED)), HUNDRED), over(times(fixed, per), exact(1000)));
    // Rounded up to a whole number of 10^-8, then written in USD with all 8 decimals, less trailing zeros.
    const units = ceil(times(scaled, exact(10 ** TIER_DECIMALS)));
    const scale = 10n ** BigInt(TIER_DECIMALS);
    const text = `${units / scale}.${String(units % scale).padStart(TIER_DECIMALS, '0')}`.replace(/\.?0+$/, '');
    return { ...t, price: text === '' ? '0' : text };
  });
}
