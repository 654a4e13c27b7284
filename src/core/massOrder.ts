import { LINK_MAX_LENGTH } from './links';

/**
 * Mass orders: one order per line, `service_id|link|quantity`. The browser and the server read
 * the pasted text with this one function, so a line's number is the same on both sides (the
 * server derives each line's idempotency key from it).
 */

/** At most this many orders in one mass order. */
export const MASS_ORDER_MAX_LINES = 100;
/** The pasted text's longest accepted length. */
export const MASS_ORDER_MAX_TEXT = MASS_ORDER_MAX_LINES * (LINK_MAX_LENGTH + 64);

export type MassOrderLine =
  | { line: number; ok: true; serviceId: string; link: string; quantity: number }
  | { line: number; ok: false; text: string };

const SERVICE_ID = /^[A-Za-z0-9_.-]{1,100}$/;
const QUANTITY = /^\d{1,9}$/;

/**
 * The text's non-blank lines with their 1-based line number in the text. A line is well formed
 * when it has a service id, a link and a whole quantity separated by `|` (a `|` inside the link
 * is kept: the first field is the id and the last the quantity).
 */
export function parseMassOrder(text: string): MassOrderLine[] {
  const out: MassOrderLine[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const trimmed = raw.trim();
    if (!trimmed) return;
    const line = i + 1;
    const parts = trimmed.split('|').map((p) => p.trim());
    if (parts.length < 3) return void out.push({ line, ok: false, text: trimmed });
    const serviceId = parts[0]!;
    const quantity = parts[parts.length - 1]!;
    const link = parts.slice(1, -1).join('|').trim();
    if (!SERVICE_ID.test(serviceId) || !QUANTITY.test(quantity) || !link || link.length > LINK_MAX_LENGTH) {
      return void out.push({ line, ok: false, text: trimmed });
    }
    out.push({ line, ok: true, serviceId, link, quantity: Number(quantity) });
  });
  return out;
}

/**
 * The idempotency key of one line of a batch: a retried batch replays its orders, line by line.
 * It is one of the server's keys (`SERVER_KEY_PREFIXES`): no key a customer sends begins with
 * `mass_`, and the batch key has no `_`, so it is no other order's key either.
 */
export const massLineKey = (batchKey: string, line: number) => `mass_${batchKey}_${line}`;
