import { parseUsdToMicros } from './money';

/**
 * What an order cost (docs/rules.md#what-an-order-cost): the shop's own reckoning of its cost
 * beside the charge its provider reports, and what the order earned. Every amount is integer
 * micro-dollars (docs/decisions/0015).
 *
 * - The shop's cost is recorded when the order is routed (`cost_micros`, at that provider's
 *   price, rounded up to the micro) and what the provider gave back of it with each refund
 *   (`cost_refunded_micros`).
 * - A provider reports its charge after what it gave back (SMM v2 `charge`, QQTube `total_cost`
 *   less `refund_total`), so it is compared with the cost less what was given back. SMM v2
 *   panels charge in 5 decimals: a difference of up to one such step (10 micros) is rounding;
 *   beyond it the order is flagged. A QQTube-style provider charges in 4 decimals, rounded up
 *   (`CHARGE_DECIMALS`): one step is 100 micros there. An order the provider gave part of back (a partial) was rounded
 *   twice there, its charge and its refund, so it may differ by up to two steps. A drip-feed
 *   sent whole (`upstream_drip`) costs one run's cost times the runs, each rounded up to the
 *   micro, so it may differ by a micro more for each run beyond the first.
 * - Only a charge in USD is read (a provider that names no currency counts in USD).
 */

/** One step of the 5 decimals SMM v2 panels charge in, in micro-dollars: a difference up to it is rounding. */
export const CHARGE_STEP_MICROS = 10;

/** The decimals a provider of each protocol charges in; any other (or none known): 5. */
export const CHARGE_DECIMALS: Readonly<Record<string, number>> = { 'smm-v2': 5, qqtube: 4 };

/** One step of the decimals a provider of `protocol` charges in, in micro-dollars. */
export function chargeStepMicros(protocol: string | null | undefined): number {
  return 10 ** (6 - (CHARGE_DECIMALS[protocol ?? ''] ?? 5));
}

/** The money of an order this rule reads. */
export interface OrderCost {
  chargeMicros: number;
  refundedMicros: number;
  /** Null: not known (orders from before costs were recorded). */
  costMicros: number | null;
  costRefundedMicros: number;
  /** Null: the provider has reported none (or none in USD). */
  providerChargeMicros: number | null;
  /** A drip-feed sent whole to its provider, and its runs (its cost is one run's times the runs). */
  upstreamDrip?: boolean;
  runs?: number | null;
  /** The protocol of the provider that holds the order (`CHARGE_DECIMALS`). */
  protocol?: string | null;
}

/** The order's cost less what the provider gave back of it; null when the cost is not known. */
export function netCostMicros(o: Pick<OrderCost, 'costMicros' | 'costRefundedMicros'>): number | null {
  return o.costMicros === null ? null : o.costMicros - o.costRefundedMicros;
}

/**
 * How far a reported charge may be from the cost by rounding alone: one step of the decimals
 * the provider charges in (`chargeStepMicros`), two when the provider gave part of the cost back (its refund is rounded too; nothing or all given
 * back leaves one rounding, or none); for a drip-feed sent whole, a micro more per run beyond
 * the first (the cost was rounded up run by run).
 */
export function roundingAllowanceMicros(o: Pick<OrderCost, 'costMicros' | 'costRefundedMicros' | 'upstreamDrip' | 'runs' | 'protocol'>): number {
  const partlyBack = o.costMicros !== null && o.costRefundedMicros > 0 && o.costRefundedMicros < o.costMicros;
  const runByRun = o.upstreamDrip && o.runs ? o.runs - 1 : 0;
  return (partlyBack ? 2 : 1) * chargeStepMicros(o.protocol) + runByRun;
}

/**
 * The provider's reported charge against the shop's cost less what was given back:
 * `differenceMicros` = reported − ours (positive: the provider charged more), `flagged` when it
 * is beyond rounding (`roundingAllowanceMicros`) either way. Null when either side is not known.
 */
export function costDifference(o: Pick<OrderCost, 'costMicros' | 'costRefundedMicros' | 'providerChargeMicros' | 'upstreamDrip' | 'runs' | 'protocol'>): { differenceMicros: number; flagged: boolean } | null {
  const ours = netCostMicros(o);
  if (ours === null || o.providerChargeMicros === null) return null;
  const differenceMicros = o.providerChargeMicros - ours;
  return { differenceMicros, flagged: Math.abs(differenceMicros) > roundingAllowanceMicros(o) };
}

/**
 * What the order earned: the customer's charge less their refunds, less the cost and plus what
 * the provider gave back of it (charge − refunded − cost + costRefunded). Null when the cost is
 * not known. Negative when the order lost money (a goodwill refund, a cost above the price).
 */
export function marginMicros(o: Pick<OrderCost, 'chargeMicros' | 'refundedMicros' | 'costMicros' | 'costRefundedMicros'>): number | null {
  const cost = netCostMicros(o);
  return cost === null ? null : o.chargeMicros - o.refundedMicros - cost;
}

/** Why a reported charge was not read: a currency other than USD, or text that is not an amount. */
export type ChargeUnread = 'currency' | 'unparsable';

/**
 * A provider's reported charge in micro-dollars, read exactly (`parseUsdToMicros`: at most 6
 * decimals, no sign, no exponent). `null` when it reported none; `{ unread }` when it cannot be
 * compared (not USD, or not an amount), which leaves the stored charge as it was.
 */
export function reportedChargeMicros(state: { charge: string | null; currency: string | null }): number | null | { unread: ChargeUnread } {
  if (state.charge === null) return null;
  const currency = (state.currency ?? 'USD').trim().toUpperCase();
  if (currency !== 'USD') return { unread: 'currency' };
  const micros = parseUsdToMicros(state.charge);
  return micros === null ? { unread: 'unparsable' } : micros;
}
