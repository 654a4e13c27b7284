import Big from 'big.js';
import type { CatalogService } from './catalog';
import type { OrderStatus } from './orderStatus';
import type { Fees } from './pricing';

/**
 * Figures of the reseller API (`/api/v2`, the PerfectPanel-style protocol): prices per 1000 as
 * decimal USD strings, statuses spelled as the protocol's clients expect.
 */

/** Most ids one `status`, `refill`, `refill_status` or `cancel` call takes. */
export const V2_MAX_IDS = 100;

/** Decimals of a rate: enough to show cent fractions of cheap services. */
const RATE_DECIMALS = 4;

/**
 * USD per 1000 units as the customer pays them: the tier containing 1000 units (else the first),
 * the service fee included, rounded up to 4 decimals ("0.3500" → "0.35"). The fixed per-order
 * base fee, when the shop sets one, is added to each order's charge, not to the rate. Null when
 * no tier is usable.
 */
export function ratePer1000(tiers: CatalogService['tiers'], fees: Fees): string | null {
  const tier = tiers.find((t) => t.minimum <= 1000 && 1000 <= t.maximum) ?? tiers[0];
  if (!tier || !/^\d+(\.\d+)?$/.test(tier.price) || !(tier.pricingPer > 0)) return null;
  const percent = Number(fees.serviceFeePercent);
  const fee = Number.isFinite(percent) && percent > 0 ? new Big(percent) : new Big(0);
  const rate = new Big(tier.price).times(1000).times(fee.plus(100)).div(100).div(tier.pricingPer).round(RATE_DECIMALS, Big.roundUp);
  return trimDecimals(rate.toFixed(RATE_DECIMALS));
}

/** "1.2300" → "1.23", "5.0000" → "5.00": at least two decimals, no trailing zeros beyond. */
const trimDecimals = (s: string) => s.replace(/(\.\d{2}\d*?)0+$/, '$1');

/** USD cents as the protocol's decimal string: 1234 → "12.34". */
export function centsToUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The protocol's status of an order. */
export function v2Status(status: OrderStatus): string {
  switch (status) {
    case 'pending':
    case 'unknown':
      return 'Pending';
    case 'processing':
      return 'Processing';
    case 'in_progress':
    case 'active':
    case 'running':
      return 'In progress';
    case 'completed':
      return 'Completed';
    case 'partial':
      return 'Partial';
    case 'error':
    case 'stopped':
    case 'refunded':
    case 'cancelled':
      return 'Canceled';
  }
}

/** The protocol's order-form type of a service, from the extra fields it needs. */
export function v2ServiceType(params: CatalogService['params']): string {
  const names = new Set(params.map((p) => p.fieldName));
  if (names.has('comments')) return 'Custom Comments';
  if (names.has('usernames')) return 'Mentions Custom List';
  if (names.has('hashtag') || names.has('hashtags')) return 'Mentions Hashtag';
  if (names.has('media')) return 'Mentions Media Likers';
  if (names.has('answer_number')) return 'Poll';
  if (names.has('username')) return 'Mentions User Followers';
  return 'Default';
}
