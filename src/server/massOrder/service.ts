import { ZodError } from 'zod';
import type { MassOrderInput, MassOrderLineResult, MassOrderResult } from '../../core/contracts/massOrder';
import { AppError } from '../../core/errors';
import { MASS_ORDER_MAX_LINES, massLineKey, parseMassOrder } from '../../core/massOrder';
import { serverOrderInputSchema } from '../../core/orderRules';
import { placeOrder, type OrdersDeps } from '../orders';

/**
 * Places a mass order: each well-formed line is its own order through `placeOrder` (same
 * pricing, checks, ledger and pipeline as the order form), in the order of the lines, so when the
 * balance runs out it is the later lines that are refused. Each line's idempotency key is the
 * batch key and its line number: a retried submission of the same text replays the orders
 * already placed and never places a line twice. A refused line does not stop the others.
 */
export async function placeMassOrder(deps: OrdersDeps, userId: string, { batchKey, text }: MassOrderInput): Promise<MassOrderResult> {
  const lines = parseMassOrder(text);
  if (lines.length === 0) throw new AppError('VALIDATION_FAILED', 'There is no order in the text.', { reason: 'empty' });
  if (lines.length > MASS_ORDER_MAX_LINES) {
    throw new AppError('VALIDATION_FAILED', `At most ${MASS_ORDER_MAX_LINES} orders at once.`, { reason: 'too_many', max: MASS_ORDER_MAX_LINES });
  }

  const results: MassOrderLineResult[] = [];
  for (const entry of lines) {
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
        idempotencyKey: massLineKey(batchKey, entry.line),
      });
      const order = await placeOrder(deps, userId, input);
      results.push({ line: entry.line, ok: true, order });
    } catch (err) {
      if (err instanceof AppError) results.push({ line: entry.line, ok: false, error: { code: err.code, ...(err.details ? { details: err.details } : {}) } });
      else if (err instanceof ZodError) results.push({ line: entry.line, ok: false, error: { code: 'VALIDATION_FAILED' } });
      // Anything else is the server's failure: the whole request fails, and its retry replays.
      else throw err;
    }
  }
  const placed = results.filter((r) => r.ok);
  return { lines: results, placed: placed.length, chargedCents: placed.reduce((sum, r) => sum + r.order.chargeCents, 0) };
}
