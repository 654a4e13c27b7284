import { z } from 'zod';
import { REFILL_STATUSES } from '../refill';

/** How many keys of the reseller API a customer may hold at once. */
export const MAX_API_KEYS = 5;

/** A key as its owner sees it after creation: never the key itself. */
export const apiKeyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the key, to tell keys apart. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyViewSchema>;

export const apiKeyListSchema = z.object({
  keys: z.array(apiKeyViewSchema),
  /** False when an admin turned the customer's API access off. */
  enabled: z.boolean(),
});
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

export const createApiKeySchema = z.strictObject({ name: z.string().trim().max(60).default('') });

/** A new key: `key` is shown once and cannot be read again. */
export const createdApiKeySchema = z.object({ key: z.string(), view: apiKeyViewSchema });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** An admin turns a customer's API access on or off. */
export const apiAccessInputSchema = z.strictObject({ enabled: z.boolean() });

/** What a customer may do with one order beyond looking at it. */
export const orderActionsSchema = z.object({
  viaApi: z.boolean(),
  /** The order's id in the reseller API. */
  apiId: z.number().int(),
  canRefill: z.boolean(),
  canCancel: z.boolean(),
  /** Until when a refill may be asked for (completed orders of refillable services). */
  refillUntil: z.string().nullable(),
  /** The latest refill request and its state. */
  refill: z.object({ id: z.number().int(), status: z.enum(REFILL_STATUSES), createdAt: z.string() }).nullable(),
  /** A cancel was asked for and not refused: carried out, accepted by the provider, or waiting for the order to be sent. */
  cancelRequested: z.boolean(),
});
export type OrderActions = z.infer<typeof orderActionsSchema>;
export const orderActionsListSchema = z.object({ orders: z.record(z.string(), orderActionsSchema) });
export type OrderActionsList = z.infer<typeof orderActionsListSchema>;
