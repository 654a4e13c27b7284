import { and, desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { apiAccessEnabled } from './keys';
import { createApiKeySchema, type ApiKeyList, type OrderActionsList } from '../../core/contracts/reseller';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireUser } from '../auth';
import { orders } from '../db/schema';
import { readJson } from '../http/body';
import { ordersDeps, type OrderRow } from '../orders';
import { actionsOf, cancelAndTell, refillAndTell } from './actions';
import { createKey, listKeys, revokeKey, rotateKey } from './keys';
import { v2Handler } from './v2';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The reseller API (`/api/v2`), the customer's API keys, and refill/cancel of their orders. Mount at `/`. */
export function resellerRoutes(deps: AppDeps) {
  const app = new Hono();
  const db = deps.database.db;

  const v2 = v2Handler(deps);
  app.get('/v2', v2);
  app.post('/v2', v2);

  app.get('/api-keys', async (c) => {
    const user = await requireUser(c);
    const body: ApiKeyList = { keys: await listKeys(db, user.id), enabled: await apiAccessEnabled(db, user.id) };
    return c.json(body);
  });

  app.post('/api-keys', async (c) => {
    const user = await requireUser(c);
    const { name } = createApiKeySchema.parse(await readJson(c));
    return c.json(await createKey(db, user.id, name), 201);
  });

  app.post('/api-keys/:id/rotate', async (c) => {
    const user = await requireUser(c);
    return c.json(await rotateKey(db, user.id, c.req.param('id')), 201);
  });

  app.delete('/api-keys/:id', async (c) => {
    const user = await requireUser(c);
    await revokeKey(db, user.id, c.req.param('id'));
    return c.body(null, 204);
  });

  /** What the customer may do with each recent order (history buttons, "via API" marks). */
  app.get('/orders/actions', async (c) => {
    const user = await requireUser(c);
    const rows = await db.select().from(orders).where(eq(orders.userId, user.id)).orderBy(desc(orders.createdAt)).limit(200);
    const body: OrderActionsList = { orders: await actionsOf(db, rows) };
    return c.json(body);
  });

  const ownOrder = async (userId: string, id: string): Promise<OrderRow> => {
    if (!UUID.test(id)) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
    const [o] = await db.select().from(orders).where(and(eq(orders.id, id), eq(orders.userId, userId)));
    if (!o) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
    return o;
  };

  app.post('/orders/:id/refill', async (c) => {
    const user = await requireUser(c);
    const o = await ownOrder(user.id, c.req.param('id'));
    return c.json(await refillAndTell(ordersDeps(deps), o, 'site'), 201);
  });

  app.post('/orders/:id/cancel', async (c) => {
    const user = await requireUser(c);
    const o = await ownOrder(user.id, c.req.param('id'));
    return c.json(await cancelAndTell(ordersDeps(deps), o, 'site'));
  });

  return app;
}
