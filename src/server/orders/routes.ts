import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { orderNumberSchema, type TrackResult } from '../../core/contracts/orders';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { clientIp, requireUser, createRateLimiter, type RateRule } from '../auth';
import { orders, users } from '../db/schema';
import { listOrders, orderStats, placeOrder, type OrdersDeps } from './service';
import { readJson } from '../http/body';

const TRACK_PER_IP: RateRule = { name: 'track:ip', limit: 30, windowSeconds: 60 };

export function ordersDeps(deps: AppDeps): OrdersDeps {
  if (!deps.provider) throw new AppError('PROVIDER_NO_ANSWER', 'No SMM provider is configured.');
  return { db: deps.database.db, provider: deps.provider, logger: deps.logger, realtime: deps.realtime };
}

/** The signed-in customer's orders and wallet balance. */
export function ordersRoutes(deps: AppDeps) {
  const app = new Hono();
  const limiter = createRateLimiter(deps.database.db);
  const db = deps.database.db;
  const PLACE_PER_USER: RateRule = { name: 'orders:user', limit: deps.env.ORDERS_PER_MINUTE, windowSeconds: 60 };

  app.post('/orders', async (c) => {
    const user = await requireUser(c);
    // The per-customer counter is taken in the order's own statement (one round trip).
    const rate = { key: `${PLACE_PER_USER.name}:${user.id.toLowerCase()}`, limit: PLACE_PER_USER.limit, windowSeconds: PLACE_PER_USER.windowSeconds };
    try {
      const body = await readJson(c);
      return c.json(await placeOrder(ordersDeps(deps), user.id, body, rate), 201);
    } catch (err) {
      // Refused before (or with) a rolled-back statement: the attempt still counts.
      const code = err instanceof AppError ? err.code : null;
      if (code !== 'RATE_LIMITED' && code !== 'INSUFFICIENT_BALANCE') await limiter.hit(PLACE_PER_USER, user.id).catch(() => {});
      throw err;
    }
  });

  app.get('/orders', async (c) => {
    const user = await requireUser(c);
    return c.json({ orders: await listOrders(db, user.id) });
  });

  app.get('/orders/stats', async (c) => {
    const user = await requireUser(c);
    return c.json(await orderStats(db, user.id));
  });

  app.get('/wallet', async (c) => {
    const user = await requireUser(c);
    const [row] = await db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, user.id));
    return c.json({ balanceCents: row?.balanceCents ?? 0 });
  });

  return app;
}

/** Public tracking by order number (docs/rules.md#tracking): no personal data, rate-limited per address. */
export function trackingRoutes(deps: AppDeps) {
  const app = new Hono();
  const limiter = createRateLimiter(deps.database.db);
  app.get('/:number', async (c) => {
    await limiter.consume(TRACK_PER_IP, clientIp(c));
    const parsed = orderNumberSchema.safeParse(c.req.param('number'));
    if (!parsed.success) throw new AppError('ORDER_NOT_FOUND', 'Order not found or invalid order ID');
    const [o] = await deps.database.db.select().from(orders).where(eq(orders.number, parsed.data)).limit(1);
    if (!o) throw new AppError('ORDER_NOT_FOUND', 'Order not found or invalid order ID');
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
      totalCents: o.chargeCents - o.refundedCents,
      createdAt: o.createdAt.toISOString(),
    };
    c.header('Cache-Control', 'no-store');
    return c.json(result);
  });
  return app;
}
