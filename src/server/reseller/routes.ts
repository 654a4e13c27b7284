import { and, desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { apiAccessEnabled } from './keys';
import { createApiKeySchema, type ApiKeyList, type OrderActionsList } from '../../core/contracts/reseller';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireAdmin, requireUser } from '../auth';
import { orders } from '../db/schema';
import { readJson } from '../http/body';
import { audit } from '../admin';
import { ordersDeps } from '../orders';
import { toOrderView, type OrderRow } from '../orders';
import { actionsOf, requestCancel, requestRefill, type ActionSource } from './actions';
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
    return c.json(await refill(deps, await ownOrder(user.id, c.req.param('id')), 'site'), 201);
  });

  app.post('/orders/:id/cancel', async (c) => {
    const user = await requireUser(c);
    return c.json(await cancel(deps, await ownOrder(user.id, c.req.param('id')), 'site'));
  });

  return app;
}

async function refill(deps: AppDeps, o: OrderRow, source: ActionSource) {
  const r = await requestRefill(ordersDeps(deps), o, source);
  await deps.realtime?.publish(o.userId, { type: 'order', orderId: o.id, number: o.number, status: o.status }).catch(() => {});
  return { refill: { id: r.id, status: r.status, createdAt: r.createdAt.toISOString() } };
}

async function cancel(deps: AppDeps, o: OrderRow, source: ActionSource) {
  const after = await requestCancel(ordersDeps(deps), o, source);
  await deps.realtime?.publish(o.userId, { type: 'order', orderId: o.id, number: o.number, status: after.status }).catch(() => {});
  return toOrderView(after);
}

/** An admin's refill and cancel of any order. Mount at `/admin/orders`. */
export function adminOrderActionsRoutes(deps: AppDeps) {
  const app = new Hono();
  const db = deps.database.db;
  const load = async (id: string) => {
    if (!UUID.test(id)) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
    const [o] = await db.select().from(orders).where(eq(orders.id, id));
    if (!o) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
    return o;
  };
  app.post('/:id/refill', async (c) => {
    const actor = await requireAdmin(c);
    const o = await load(c.req.param('id'));
    const result = await refill(deps, o, 'admin');
    await audit(db, actor, 'order.refill', { type: 'order', id: o.id }, { number: o.number, refill: result.refill.id });
    return c.json(result, 201);
  });
  app.post('/:id/cancel', async (c) => {
    const actor = await requireAdmin(c);
    const o = await load(c.req.param('id'));
    const result = await cancel(deps, o, 'admin');
    await audit(db, actor, 'order.cancel', { type: 'order', id: o.id }, { number: o.number, status: result.status });
    return c.json(result);
  });
  return app;
}
