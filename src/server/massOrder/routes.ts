import { Hono } from 'hono';
import { massOrderInputSchema } from '../../core/contracts/massOrder';
import type { AppDeps } from '../deps';
import { createRateLimiter, requireUser, type RateRule } from '../auth';
import { readJson } from '../http/body';
import { ordersDeps } from '../orders';
import { placeMassOrder } from './service';

/** Mass orders per customer and minute (each may hold up to MASS_ORDER_MAX_LINES orders). */
const MASS_PER_USER: RateRule = { name: 'orders:mass:user', limit: 10, windowSeconds: 60 };

/** POST /api/orders/mass: the signed-in customer's mass order. Mount at `/`. */
export function massOrderRoutes(deps: AppDeps) {
  const app = new Hono();
  const limiter = createRateLimiter(deps.database.db);

  app.post('/orders/mass', async (c) => {
    const user = await requireUser(c);
    // A body that is not a mass order is refused before it counts against the customer.
    const input = massOrderInputSchema.parse(await readJson(c));
    await limiter.consume(MASS_PER_USER, user.id);
    return c.json(await placeMassOrder(ordersDeps(deps), user.id, input));
  });

  return app;
}
