import { z } from 'zod';
import { priceTierSchema, serviceParamSchema } from '../catalog';

/**
 * A service's usual times and completion rate over its last finished orders (docs/rules.md#service-figures):
 * medians in whole minutes from placement, the rate in whole percent; null where too few orders
 * tell it yet. Absent from a service with too few finished orders for any of them.
 */
export const serviceFiguresSchema = z.object({
  startMinutes: z.number().int().nonnegative().nullable(),
  completeMinutes: z.number().int().nonnegative().nullable(),
  completionRate: z.number().int().min(0).max(100).nullable(),
});
export type ServiceFigures = z.infer<typeof serviceFiguresSchema>;

/** One entry of the public service list: compact, everything the order form needs to price. */
export const publicServiceSchema = z.object({
  id: z.string(),
  platform: z.string(),
  /** Display name in the requested language (custom name when one matches). */
  name: z.string(),
  type: z.string(),
  group: z.enum(['likes', 'followers', 'views', 'shares', 'comments', 'other']),
  min: z.number().int(),
  max: z.number().int(),
  step: z.number().int(),
  tiers: z.array(priceTierSchema),
  /** Price for `displayPer` units in USD with the service fee, e.g. "0.35". */
  displayPrice: z.string().nullable(),
  displayPer: z.number().int(),
  hasParams: z.boolean(),
  /** Some param is required: cannot be ordered without extra details (`needsParams`, src/core/orderRules.ts). */
  needsParams: z.boolean().optional(),
  /** May be ordered as a drip-feed (runs × quantity at an interval). */
  dripfeed: z.boolean().optional(),
  /** A completed order may be refilled, for `refillDays` after it completed (null: the default period; docs/rules.md#refill). */
  refill: z.boolean().optional(),
  refillDays: z.number().int().positive().nullable().optional(),
  /** A running order may be cancelled (what was not delivered is refunded). */
  cancel: z.boolean().optional(),
  /** Usual start and completion times and completion rate, when enough orders tell them. */
  figures: serviceFiguresSchema.optional(),
});
export type PublicService = z.infer<typeof publicServiceSchema>;

export const serviceListSchema = z.object({
  services: z.array(publicServiceSchema),
  fees: z.object({ serviceFeePercent: z.number(), baseFee: z.number() }),
});
export type ServiceList = z.infer<typeof serviceListSchema>;

/**
 * An extra param as the order form shows it: label, hint, placeholder and option names in the
 * requested language (src/core/paramTexts.ts), with the messages of its issues when its kind is
 * known. `kind` is the key admins word it by.
 */
export const localizedParamSchema = serviceParamSchema.extend({
  kind: z.string().optional(),
  requiredMessage: z.string().optional(),
  invalidMessage: z.string().optional(),
});
export type LocalizedParam = z.infer<typeof localizedParamSchema>;

/** One service in full: the list entry plus description, example and extra params. */
export const serviceDetailSchema = publicServiceSchema.extend({
  description: z.string().nullable(),
  example: z.string().nullable(),
  params: z.array(localizedParamSchema),
});
export type ServiceDetail = z.infer<typeof serviceDetailSchema>;
