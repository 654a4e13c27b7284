import { z } from 'zod';

/**
 * Why an order failed or waits, as a code the browser words in the reader's language
 * (docs/rules.md#statuses). Beside it an order keeps the provider's own message, untranslated,
 * when the provider gave one. `other` is a note written before notes were codes: its text is
 * kept as the message and shown as it is.
 */
export const ORDER_NOTE_CODES = [
  /** The provider refused the order when it was sent; the message is the provider's reason, if any. */
  'provider_refused',
  /** Sending got no answer: the order waits for reconciliation (status `unknown`). */
  'provider_no_answer',
  /** The provider cannot list its orders, so an admin settles the unanswered order. */
  'provider_cannot_confirm',
  /** The provider's records never showed the order: refunded. */
  'provider_never_received',
  /** The provider answered a status check for this order with an error (the message). */
  'provider_status_error',
  /** Every provider of the service is out of money: the order waits, charged, until one can take it (docs/rules.md#provider-funds). */
  'awaiting_provider_funds',
  /** No provider had the money to take it within the set time: refunded. */
  'provider_no_funds',
  /** A drip-feed cancelled before its first run was written. */
  'cancelled_before_runs',
  /** Cancelled before it was sent to the provider. */
  'cancelled_before_sending',
  'other',
] as const;
export type OrderNoteCode = (typeof ORDER_NOTE_CODES)[number];

export const orderNoteSchema = z.object({
  code: z.enum(ORDER_NOTE_CODES),
  /** The provider's message as it sent it, or null. */
  message: z.string().nullable(),
});
export type OrderNote = z.infer<typeof orderNoteSchema>;
