import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { historyQuerySchema, orderNumberSchema, type TrackResult } from '../../core/contracts/orders';
import { AppError } from '../../core/errors';
import { delayOf } from '../../core/orderDelay';
import { placeOrderInputSchema } from '../../core/contracts/orderInput';
import type { AppDeps } from '../deps';
import { requireUser, signedInOnly } from '../auth';
import { orders } from '../db/schema';
import { jsonBody, param, query } from '../http/body';
import { clientIp } from '../http/clientIp';
import { createRateLimiter, orderCounter, ordersPerUser, RATE_RULES, rateLimited } from '../http/rateLimit';
import { listOrders, orderHistory, orderOverview, orderStats, placeOrder, type OrdersDeps } from './service';

export function ordersDeps(deps: AppDeps): OrdersDeps {
  if (!deps.providers) throw new AppError('PROVIDER_NO_ANSWER', 'No SMM provider is configured.');
  return { db: deps.database.db, providers: deps.providers, logger: deps.logger, realtime: deps.realtime };
}

const orderNotFound = () => new AppError('ORDER_NOT_FOUND', 'Order not found or invalid order ID');

/** The signed-in customer's orders. */
export function ordersRoutes(deps: AppDeps) {
  const limiter = createRateLimiter(deps.database.db);
  const db = deps.database.db;
  const perUser = ordersPerUser(deps.env.ORDERS_PER_MINUTE);

  return new Hono()
    .post(
      '/orders',
      signedInOnly,
      // A refused attempt (a body that is not an order included) still counts, unless the
      // statement refused it for the limit itself or the balance (short, or owed after a chargeback).
      async (c, next) => {
        await next();
        const code = c.error instanceof AppError ? c.error.code : null;
        if (c.error && code !== 'RATE_LIMITED' && code !== 'INSUFFICIENT_BALANCE' && code !== 'BALANCE_OWED') await limiter.hit(perUser, (await requireUser(c)).id).catch(() => {});
      },
      jsonBody(placeOrderInputSchema),
      async (c) => {
        const user = await requireUser(c);
        // The customer's order counter is taken in the order's own statement (one round trip).
        return c.json(await placeOrder(ordersDeps(deps), user.id, c.req.valid('json'), orderCounter(deps.env.ORDERS_PER_MINUTE, user.id)), 201);
      },
    )
    .get('/orders', signedInOnly, async (c) => {
      const user = await requireUser(c);
      return c.json({ orders: await listOrders(db, user.id) });
    })
    .get('/orders/history', signedInOnly, query(historyQuerySchema), async (c) => {
      const user = await requireUser(c);
      return c.json(await orderHistory(db, user.id, c.req.valid('query')));
    })
    .get('/orders/stats', signedInOnly, async (c) => {
      const user = await requireUser(c);
      return c.json(await orderStats(db, user.id));
    })
    .get('/orders/overview', signedInOnly, async (c) => {
      const user = await requireUser(c);
      return c.json(await orderOverview(db, user.id));
    });
}

/** Public tracking by order number (docs/rules.md#tracking): no personal data, rate-limited per address. */
export function trackingRoutes(deps: AppDeps) {
  return new Hono().get(
    '/:number',
    rateLimited(deps.database.db, RATE_RULES.trackPerIp, clientIp),
    param(z.object({ number: orderNumberSchema }), orderNotFound),
    async (c) => {
      const { number } = c.req.valid('param');
      const [o] = await deps.database.db.select().from(orders).where(eq(orders.number, number)).limit(1);
      if (!o) throw orderNotFound();
      const delivered = o.remains !== null ? Math.max(0, o.quantity - o.remains) : null;
      const result: TrackResult = {
        number: o.number,
        status: o.status,
        serviceName: o.serviceName,
        link: o.link,
        quantity: o.quantity,
        startCount: o.startCount,
        currentCount: o.currentCount,
        delivered,
        totalMicros: o.chargeMicros - o.refundedMicros,
        createdAt: o.createdAt.toISOString(),
        delay: delayOf(o),
      };
      c.header('Cache-Control', 'no-store');
      return c.json(result);
    },
  );
}
