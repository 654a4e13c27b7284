import { and, eq, inArray } from 'drizzle-orm';
import { ZodError } from 'zod';
import type { MassOrderInput, MassOrderLineResult, MassOrderResult } from '../../core/contracts/massOrder';
import { AppError } from '../../core/errors';
import { MASS_ORDER_MAX_LINES, massLineKey, parseMassOrder } from '../../core/massOrder';
import { serverOrderInputSchema } from '../../core/contracts/orderInput';
import { orders } from '../db/schema';
import { createRateLimiter, type RateCounter } from '../http/rateLimit';
import { placeOrder, type OrdersDeps } from '../orders';
import { assertNotOwing } from '../wallet';

/**
 * Places a mass order: each well-formed line is its own order through `placeOrder` (same
 * pricing, checks, ledger and pipeline as the order form), in the order of the lines, so when the
 * balance runs out it is the later lines that are refused. Each line's idempotency key is the
 * batch key and its line number: a retried submission of the same text replays the orders
 * already placed and never places a line twice. A refused line does not stop the others.
 *
 * Every line counts as one order on the customer's order counter (`counter`, the same as the
 * form's and the API's), placed or refused alike, as the form's attempts do, except the lines a
 * retried batch placed before. Their slots are taken at once, in one statement, before any line
 * is placed: when fewer are left in the window, the whole batch is refused (RATE_LIMITED) and
 * nothing is placed, charged or taken. A batch longer than the whole limit could never pass and
 * is refused as too long.
 */
export async function placeMassOrder(deps: OrdersDeps, userId: string, { batchKey, text }: MassOrderInput, counter: RateCounter): Promise<MassOrderResult> {
  const lines = parseMassOrder(text);
  if (lines.length === 0) throw new AppError('VALIDATION_FAILED', 'There is no order in the text.', { reason: 'empty' });
  const max = Math.min(MASS_ORDER_MAX_LINES, counter.limit);
  if (lines.length > max) throw new AppError('VALIDATION_FAILED', `At most ${max} orders at once.`, { reason: 'too_many', max });

  // An account that owes the shop (a chargeback, docs/decisions/0019) places none of it, and no slot is taken.
  await assertNotOwing(deps.db, userId);

  const keys = lines.map((entry) => massLineKey(batchKey, entry.line));
  const placedBefore = new Set(
    (await deps.db.select({ key: orders.idempotencyKey }).from(orders).where(and(eq(orders.userId, userId), inArray(orders.idempotencyKey, keys)))).map((o) => o.key),
  );
  await createRateLimiter(deps.db).takeSlots(counter, keys.filter((key) => !placedBefore.has(key)).length);

  const results: MassOrderLineResult[] = [];
  for (const [i, entry] of lines.entries()) {
    if (!entry.ok) {
      results.push({ line: entry.line, ok: false, error: { code: 'VALIDATION_FAILED', details: { reason: 'format' } } });
      continue;
    }
    try {
      // Each line is checked with the order contract, under the key the server made for it; a line it refuses is VALIDATION_FAILED.
      const input = serverOrderInputSchema.parse({
        serviceId: entry.serviceId,
        link: entry.link,
        quantity: entry.quantity,
        params: {},
        idempotencyKey: keys[i],
      });
      // The line's slot was taken with the batch's.
      const order = await placeOrder(deps, userId, input, null);
      results.push({ line: entry.line, ok: true, order });
    } catch (err) {
      if (err instanceof AppError) results.push({ line: entry.line, ok: false, error: { code: err.code, ...(err.details ? { details: err.details } : {}) } });
      else if (err instanceof ZodError) results.push({ line: entry.line, ok: false, error: { code: 'VALIDATION_FAILED' } });
      // Anything else is the server's failure: the whole request fails, and its retry replays.
      else throw err;
    }
  }
  const placed = results.filter((r) => r.ok);
  return { lines: results, placed: placed.length, chargedMicros: placed.reduce((sum, r) => sum + r.order.chargeMicros, 0) };
}
