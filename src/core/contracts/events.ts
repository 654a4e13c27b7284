import { z } from 'zod';
import { orderNoteSchema } from '../orderNotes';
import { ORDER_STATUSES } from '../orderStatus';

/** Events pushed to a signed-in customer's open pages over Server-Sent Events. */
export const userEventSchema = z.discriminatedUnion('type', [
  /** An order moved; `note` says why when it failed (docs/rules.md#statuses). */
  z.object({ type: z.literal('order'), orderId: z.string(), number: z.string(), status: z.enum(ORDER_STATUSES), note: orderNoteSchema.optional() }),
  z.object({ type: z.literal('balance'), balanceMicros: z.number().int(), deltaMicros: z.number().int() }),
  z.object({ type: z.literal('payment'), paymentId: z.string(), status: z.string() }),
  z.object({ type: z.literal('ticket'), ticketId: z.string() }),
  /** To each admin: a ticket was opened, answered or changed (the support inbox refreshes). */
  z.object({ type: z.literal('admin_ticket'), ticketId: z.string() }),
  /** To everyone: the site settings changed (fees, contacts, names); open pages read them again. */
  z.object({ type: z.literal('settings') }),
  /** To everyone: the catalogue changed (synced, renamed, reworded); open pages read it again. */
  z.object({ type: z.literal('catalog') }),
  /** To everyone: blog posts or FAQ entries changed. */
  z.object({ type: z.literal('content') }),
  /** To a customer: their discount or group changed (docs/rules.md#discounts); open pages read `/api/me` again. */
  z.object({ type: z.literal('pricing') }),
]);
export type UserEvent = z.infer<typeof userEventSchema>;
