import { z } from 'zod';

/**
 * The storefront's own shape of a provider service. Provider adapters translate their wire
 * format into this; the database stores it; the browser receives it. Prices are decimal strings
 * in USD, never floats.
 */
export const KNOWN_PLATFORMS = [
  'instagram',
  'tiktok',
  'youtube',
  'facebook',
  'linkedin',
  'twitter',
  'telegram',
] as const;

/** Decimal string such as "0.35" or "12" (non-negative, up to 8 decimals). */
export const decimalString = z.string().regex(/^\d+(\.\d{1,8})?$/);

export const priceTierSchema = z.object({
  minimum: z.number().int().nonnegative(),
  maximum: z.number().int().positive(),
  /** USD for `pricingPer` units, as a decimal string. */
  price: decimalString,
  pricingPer: z.number().int().positive(),
});
export type PriceTier = z.infer<typeof priceTierSchema>;

export const serviceParamSchema = z.object({
  fieldName: z.string().min(1),
  fieldLabel: z.string(),
  fieldType: z.enum(['dropdown', 'textarea', 'text']),
  placeholder: z.string().default(''),
  description: z.string().default(''),
  required: z.boolean().default(false),
  options: z.array(z.object({ name: z.string(), value: z.string() })).default([]),
});
export type ServiceParam = z.infer<typeof serviceParamSchema>;

export const catalogServiceSchema = z.object({
  /** The provider's service id, as a string. */
  id: z.string().min(1),
  /** Lower-case platform name; may be empty when the provider gives none. */
  platform: z.string(),
  name: z.string(),
  /** The provider's type name (e.g. "Followers", "Likes"); see `serviceGroup` for the six groups. */
  type: z.string(),
  description: z.string().nullable(),
  example: z.string().nullable(),
  amountMinimum: z.number().int().positive(),
  amountIncrement: z.number().int().positive(),
  tiers: z.array(priceTierSchema),
  params: z.array(serviceParamSchema),
  refill: z.boolean().default(false),
  /** Days after the order in which a refill may be asked for (src/core/refill.ts); null: none named. */
  refillDays: z.number().int().positive().nullable().default(null),
  cancel: z.boolean().default(false),
  /** May be ordered as a drip-feed: several runs of the same quantity, one every interval. */
  dripfeed: z.boolean().default(false),
});
export type CatalogService = z.infer<typeof catalogServiceSchema>;

/**
 * What a catalogue read can find changed at a provider (docs/decisions/0017): a service it did
 * not list before, one it stopped listing, its price, its minimum or maximum.
 */
export const PROVIDER_SERVICE_CHANGE_KINDS = ['new', 'removed', 'price', 'limits'] as const;
export type ProviderServiceChangeKind = (typeof PROVIDER_SERVICE_CHANGE_KINDS)[number];

/** A provider service's terms as a change shows them: its name, price tiers and bounds. */
export const providerServiceTermsSchema = z.object({
  name: z.string(),
  platform: z.string(),
  type: z.string(),
  amountMinimum: z.number().int(),
  amountIncrement: z.number().int(),
  tiers: z.array(priceTierSchema),
});
export type ProviderServiceTerms = z.infer<typeof providerServiceTermsSchema>;

/** Percent: a plain decimal from 0 to 1000 with up to 4 decimals ("25", "12.5"). */
const markupPercent = z.string().trim().regex(/^\d{1,4}(\.\d{1,4})?$/).refine((v) => Number(v) <= 1000, 'at most 1000');
/** USD per 1000 units: a plain decimal with up to 6 decimals. */
const markupFixed = z.string().trim().regex(/^\d{1,6}(\.\d{1,6})?$/);

/**
 * A markup on a provider's price (src/core/pricing.ts `markedUpTiers`): a percent on top and/or a
 * fixed USD amount per 1000 units.
 */
export const markupSchema = z.strictObject({ percent: markupPercent.default('0'), fixedPer1000: markupFixed.default('0') });
export type Markup = z.infer<typeof markupSchema>;
