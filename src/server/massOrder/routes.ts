import { Hono } from 'hono';
import { massOrderInputSchema } from '../../core/contracts/massOrder';
import type { AppDeps } from '../deps';
import { requireUser, signedInOnly } from '../auth';
import { jsonBody } from '../http/body';
import { createRateLimiter, orderCounter, RATE_RULES } from '../http/rateLimit';
import { ordersDeps } from '../orders';
import { placeMassOrder } from './service';

/** POST /api/orders/mass: the signed-in customer's mass order. Mount at `/`. */
export function massOrderRoutes(deps: AppDeps) {
  const limiter = createRateLimiter(deps.database.db);
  // A body that is not a mass order is refused before it counts against the customer.
  return new Hono().post('/orders/mass', signedInOnly, jsonBody(massOrderInputSchema), async (c) => {
    const user = await requireUser(c);
    await limiter.consume(RATE_RULES.massOrdersPerUser, user.id);
    return c.json(await placeMassOrder(ordersDeps(deps), user.id, c.req.valid('json'), orderCounter(deps.env.ORDERS_PER_MINUTE, user.id)));
  });
}
