import { z } from 'zod';
import { LINK_MAX_LENGTH } from '../links';
import { DRIP_MAX_INTERVAL, DRIP_MAX_RUNS, DRIP_MIN_INTERVAL, DRIP_MIN_RUNS, isServerKey, ORDER_PARAM_MAX_LENGTH, ORDER_PARAMS_MAX_KEYS } from '../orderRules';

/**
 * The body of "place an order" (docs/rules.md#orders): the contract the server parses before any
 * rule of ../orderRules.ts runs. Apart from the rules so that the order form loads zod only when
 * it sends (docs/decisions/0028-the-order-page-as-an-island.md).
 */

/** The characters and length of an idempotency key. */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * A key the customer chooses (a UUID in practice) that makes retries of one click place one
 * order: 8–100 letters, digits, `_` or `-`, never one the server makes for its own orders.
 */
export const customerIdempotencyKeySchema = z
  .string()
  .regex(IDEMPOTENCY_KEY)
  .refine((key) => !isServerKey(key), { message: 'reserved for the server' });

const orderInputSchema = <K extends z.ZodType<string, string>>(idempotencyKey: K) =>
  z
    .strictObject({
      serviceId: z.string().trim().min(1).max(100),
      link: z.string().trim().max(LINK_MAX_LENGTH),
      quantity: z.int(),
      params: z
        .record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/), z.string().max(ORDER_PARAM_MAX_LENGTH))
        .refine((p) => Object.keys(p).length <= ORDER_PARAMS_MAX_KEYS, { message: 'too many params' })
        .default({}),
      idempotencyKey,
      /**
       * The total the customer was shown, in USD micro-dollars. When given and the server's price differs, the
       * order is refused with PRICE_CHANGED and the new total: nobody pays what they were not shown.
       */
      expectedTotalMicros: z.int().min(0).max(10_000_000_000_000).optional(),
      /**
       * Drip-feed: `runs` orders of `quantity` each, one every `interval` minutes, charged together
       * up front. Both or neither; only for services marked `dripfeed`.
       */
      runs: z.int().min(DRIP_MIN_RUNS).max(DRIP_MAX_RUNS).optional(),
      interval: z.int().min(DRIP_MIN_INTERVAL).max(DRIP_MAX_INTERVAL).optional(),
    })
    .refine((o) => (o.runs === undefined) === (o.interval === undefined), { message: 'runs and interval go together', path: ['interval'] });

/** Body of "place an order", as the customer sends it. Price and balance are never part of it: the server computes them. */
export const placeOrderInputSchema = orderInputSchema(customerIdempotencyKeySchema);
export type PlaceOrderInput = z.infer<typeof placeOrderInputSchema>;

/** The same order as the server places it for its own callers (mass-order lines, the reseller API), under a key it made. */
export const serverOrderInputSchema = orderInputSchema(z.string().regex(IDEMPOTENCY_KEY));
