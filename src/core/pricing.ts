import Big from 'big.js';
import type { CatalogService, PriceTier } from './catalog';
import { isCommentService } from './platforms';

/**
 * Order prices (docs/rules.md#money). Tier prices are USD decimal strings for `pricingPer`
 * units. Everything is computed exactly with big.js and rounded up only once, at the end, so a
 * customer is never undercharged and a non-zero price costs at least one cent.
 */

/** The storefront's fee settings: a percentage on top and a fixed USD fee per order. */
export interface Fees {
  serviceFeePercent: string | number;
  baseFee: string | number;
}

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

/** Price and pricingPer of a tier when both are usable: price ≥ 0, pricingPer > 0. */
function tierRate(tier: PriceTier): { price: Big; per: number } | null {
  const price = toDecimal(tier.price);
  const per = tier.pricingPer;
  if (!price || price.lt(0) || typeof per !== 'number' || !Number.isFinite(per) || per <= 0) return null;
  return { price, per };
}

/**
 * The price of an order in USD cents:
 *   cost = price / pricingPer × quantity + baseFee;  final = cost + cost × serviceFee% / 100,
 * using the first tier with minimum ≤ quantity ≤ maximum, rounded up to the cent.
 * 0 when there are no tiers, the quantity is not a positive integer, no tier matches, or the
 * tier's pricingPer or price is unusable. Throws RangeError beyond the safe integer range.
 */
export function priceOrder(tiers: readonly PriceTier[], quantity: number, fees: Fees): { cents: number } {
  if (!Number.isSafeInteger(quantity) || quantity <= 0) return { cents: 0 };
  const tier = tiers.find((t) => t.minimum <= quantity && quantity <= t.maximum);
  const rate = tier && tierRate(tier);
  if (!rate) return { cents: 0 };
  const base = feeValue(fees.baseFee);
  const percent = feeValue(fees.serviceFeePercent);
  // cents = (price × q / per + base) × (100 + percent), with the single division last.
  const cents = new Ceil(rate.price)
    .times(quantity)
    .plus(base.times(rate.per))
    .times(percent.plus(100))
    .div(rate.per);
  if (cents.gt(Number.MAX_SAFE_INTEGER)) throw new RangeError('order price beyond the safe integer range');
  return { cents: cents.toNumber() };
}

/** Display quantities: prices are shown per 1000 units, comment services per 10 (docs/rules.md#money). */
export const DISPLAY_PER = 1000;
export const COMMENT_DISPLAY_PER = 10;
/** Decimals of a displayed unit price: enough to show a cent fraction for very cheap services. */
export const DISPLAY_DECIMALS = 4;

/**
 * The price shown beside a service: USD for `per` units (1000, or 10 for comment services),
 * service fee included, base fee excluded (it is a per-order fee shown in the price details).
 * Uses the tier that contains `per`, else the first tier. `usd` is rounded up to 4 decimals and
 * keeps at least 2: "0.35", "0.0035", "1.234", "12.00". Null when no usable tier exists.
 */
export function pricePerUnitDisplay(
  service: Pick<CatalogService, 'tiers' | 'type' | 'name'>,
  fees: Fees,
): { per: number; usd: string } | null {
  const per = isCommentService(service) ? COMMENT_DISPLAY_PER : DISPLAY_PER;
  const tier = service.tiers.find((t) => t.minimum <= per && per <= t.maximum) ?? service.tiers[0];
  const rate = tier && tierRate(tier);
  if (!rate) return null;
  const percent = feeValue(fees.serviceFeePercent);
  // usd × 10^4 = price × per × (100 + percent) × 100 / pricingPer, rounded up.
  const scaled = new Ceil(rate.price).times(per).times(percent.plus(100)).times(100).div(rate.per);
  const usd = new Big(scaled).div(10 ** DISPLAY_DECIMALS).toFixed(DISPLAY_DECIMALS);
  return { per, usd: usd.replace(/(\.\d{2}\d*?)0+$/, '$1') };
}
