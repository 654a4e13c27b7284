import type { CatalogService } from '../../core/catalog';

/** A price tier of a catalogue row: `pricingPer` units cost `price` USD. */
export const tier = (minimum: number, maximum: number, price: string, pricingPer = 1000) => ({ minimum, maximum, price, pricingPer });

/**
 * A row of the shop's catalogue (`catalogServices`) for a test to insert: what a test names, the
 * rest plain (no description, params, refill, cancel or drip-feed; active; ordered from the first
 * tier's minimum in steps of one).
 */
export const catalogRow = (s: Partial<CatalogService> & Pick<CatalogService, 'id' | 'platform' | 'name' | 'type' | 'tiers'>) => ({
  description: null,
  example: null,
  amountMinimum: s.tiers[0]!.minimum,
  amountIncrement: 1,
  params: [],
  refill: false,
  refillDays: null,
  cancel: false,
  dripfeed: false,
  active: true,
  syncedAt: new Date(),
  ...s,
});
