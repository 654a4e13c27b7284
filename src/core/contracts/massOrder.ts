import { z } from 'zod';
import { MASS_ORDER_MAX_TEXT } from '../massOrder';
import { orderViewSchema } from './orders';

/** Body of "place a mass order": the pasted text and the key of this submission. */
export const massOrderInputSchema = z.strictObject({
  /** Client-chosen (a UUID in practice); the same key and text place each line at most once. */
  batchKey: z.string().regex(/^[A-Za-z0-9-]{8,64}$/),
  text: z.string().max(MASS_ORDER_MAX_TEXT),
});
export type MassOrderInput = z.infer<typeof massOrderInputSchema>;

/** One line's outcome: its order, or the stable code (and details) of its refusal. */
export const massOrderLineResultSchema = z.discriminatedUnion('ok', [
  z.object({ line: z.int(), ok: z.literal(true), order: orderViewSchema }),
  z.object({
    line: z.int(),
    ok: z.literal(false),
    error: z.object({ code: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
  }),
]);
export type MassOrderLineResult = z.infer<typeof massOrderLineResultSchema>;

export const massOrderResultSchema = z.object({
  lines: z.array(massOrderLineResultSchema),
  placed: z.int(),
  chargedMicros: z.int(),
});
export type MassOrderResult = z.infer<typeof massOrderResultSchema>;
