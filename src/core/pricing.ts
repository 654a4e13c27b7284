import Big from 'big.js';
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
 * big.js arithmetic; a customer is never undercharged and a non-zero price costs at least one
 * micro-dollar.
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

/** big.js constructor whose division rounds up to a whole number: an exact ceiling. */
const Ceil = /* @__PURE__ */ (() => {
  const ceil = Big();
  ceil.DP = 0;
  ceil.RM = Big.roundUp;
  return ceil;
})();

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A finite number or plain decimal text ("0.35", " 12 "); anything else is null. */
function toDecimal(value: unknown): Big | null {
  if (typeof value === 'number') return Number.isFinite(value) ? new Big(value) : null;
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return new Big(value.trim());
  return null;
}

/** A fee setting; one that is not numeric or is negative counts as 0 (docs/rules.md#money). */
function feeValue(value: unknown): Big {
  const fee = toDecimal(value);
  return fee && fee.gt(0) ? fee : new Big(0);
}

/** The largest discount a price takes (src/core/discounts.ts bounds what is stored); more counts as this. */
const MAX_DISCOUNT = 90;

/** A discount: not numeric or negative counts as 0, above MAX_DISCOUNT as MAX_DISCOUNT. */
function discountValue(value: unknown): Big {
  const d = feeValue(value);
  return d.gt(MAX_DISCOUNT) ? new Big(MAX_DISCOUNT) : d;
}

/**
 * A list amount in micro-dollars with the customer's discount off, rounded up to a multiple of
 * `step` micro-dollars (10 for a rate of 5 decimals, 1 for the base fee): the list rate 0.21272
 * at 10 % is 0.191448 → 0.19145. No discount leaves it as it is.
 */
function discounted(listMicros: Big, fees: Fees, step: number): Big {
  const d = discountValue(fees.discountPercent);
  if (d.eq(0)) return listMicros;
  // amount × (100 − d) / 100, in whole steps, with the one division last.
  return new Ceil(listMicros).times(new Big(100).minus(d)).div(100 * step).times(step);
}

/** Price and pricingPer of a tier when both are usable: price ≥ 0, pricingPer > 0. */
function tierPrice(tier: PriceTier): { price: Big; per: number } | null {
  const price = toDecimal(tier.price);
  const per = tier.pricingPer;
  if (!price || price.lt(0) || typeof per !== 'number' || !Number.isFinite(per) || per <= 0) return null;
  return { price, per };
}

/** A whole number of micro-dollars as a safe integer, or RangeError. */
function safeMicros(micros: Big, what: string): number {
  if (micros.gt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${what} beyond the safe integer range`);
  return micros.toNumber();
}

/**
 * The customer's rate of a tier: USD per 1000 units, the service fee included, rounded up to
 * RATE_DECIMALS decimals, in micro-dollars (so a multiple of 10): price 0.2 per 1000 with a 6.36 %
 * fee is 0.21272 → 212 720. A customer's discount is then taken off this list rate and the result
 * rounded up to RATE_DECIMALS again (0.21272 at 10 % → 0.19145), so every charge is still
 * rate × quantity / 1000 by the rate the customer is shown (docs/decisions/0020).
 * Null when the tier's price or pricingPer is unusable.
 */
function tierRateMicros(tier: PriceTier, fees: Fees): Big | null {
  const usable = tierPrice(tier);
  if (!usable) return null;
  const percent = feeValue(fees.serviceFeePercent);
  // rate × 10^5 = price × 1000 / per × (100 + percent) / 100 × 10^5, with the one division last.
  const steps = new Ceil(usable.price).times(percent.plus(100)).times(10 ** (RATE_DECIMALS + 1)).div(usable.per);
  return discounted(steps.times(MICROS_PER_RATE_STEP), fees, MICROS_PER_RATE_STEP);
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
  const rate = tier && tierRateMicros(tier, fees);
  return rate ? safeMicros(rate, 'rate') : null;
}

/**
 * The base fee of an order with the service fee on it, rounded up to the micro: 0.25 USD at 10 % →
 * 275 000; a customer's discount comes off that, rounded up to the micro again (10 % → 247 500).
 */
export function baseFeeMicros(fees: Fees): number {
  const percent = feeValue(fees.serviceFeePercent);
  // base × (100 + percent) / 100 × 10^6
  const list = new Ceil(feeValue(fees.baseFee)).times(percent.plus(100)).times(10_000).div(1);
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
  const rate = tier && tierRateMicros(tier, fees);
  if (!rate) return { micros: 0 };
  const units = new Ceil(rate).times(quantity).div(1000);
  return { micros: safeMicros(units.plus(baseFeeMicros(fees)), 'order price') };
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
  const micros = safeMicros(new Ceil(rate).times(per).div(1000), 'price');
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
  return safeMicros(new Ceil(usable.price).times(quantity).times(1_000_000).div(usable.per), 'cost');
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
    if (!price || price.lt(0) || !(t.pricingPer > 0)) return { ...t };
    const scaled = price.times(percent.plus(100)).div(100).plus(fixed.times(t.pricingPer).div(1000));
    // Rounded up to a whole number of 10^-8 (the Ceil constructor's division), then back to USD
    // with plain Big: a division by the rounding-up constructor would round to a whole dollar.
    const units = new Ceil(scaled.times(10 ** TIER_DECIMALS)).div(1);
    const text = new Big(units).div(10 ** TIER_DECIMALS).toFixed(TIER_DECIMALS).replace(/\.?0+$/, '');
    return { ...t, price: text === '' ? '0' : text };
  });
}
