import { z } from 'zod';
import { DISCOUNT_SOURCES, discountPercentSchema } from '../discounts';
import { orderIdSchema } from './orders';

/** Customer discounts and groups (docs/rules.md#discounts): the team's inputs and the answers. */

/** A customer group as the team writes it: a name and its discount ("10", "12.5"). */
export const customerGroupInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(60),
  discountPercent: discountPercentSchema,
});
export type CustomerGroupInput = z.infer<typeof customerGroupInputSchema>;

export const customerGroupParamsSchema = z.strictObject({ id: orderIdSchema });

/** A customer group as the team sees it, with how many customers it has. */
export const customerGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  discountPercent: z.string(),
  customers: z.number().int(),
});
export type CustomerGroup = z.infer<typeof customerGroupSchema>;

/**
 * A customer's pricing as the team sets it: their own discount (null: not set, their group's
 * counts; "0": none whatever the group's) and their group (null: none).
 */
export const customerPricingInputSchema = z.strictObject({
  discountPercent: discountPercentSchema.nullable(),
  groupId: orderIdSchema.nullable(),
});
export type CustomerPricingInput = z.infer<typeof customerPricingInputSchema>;

/** A customer's pricing as the team's user list shows it. */
export const customerPricingSchema = z.object({
  discountPercent: z.string().nullable(),
  groupId: z.string().nullable(),
});
export type CustomerPricing = z.infer<typeof customerPricingSchema>;

/**
 * The discount a signed-in customer's prices take (in `GET /api/me`): the percent ("10", "12.5"),
 * where it comes from, and the group's name when it is the group's. Null: list prices.
 */
export const myDiscountSchema = z
  .object({
    percent: z.string(),
    source: z.enum(DISCOUNT_SOURCES),
    groupName: z.string().nullable(),
  })
  .nullable();
export type MyDiscount = z.infer<typeof myDiscountSchema>;
