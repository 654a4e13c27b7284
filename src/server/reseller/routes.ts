import { and, desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { apiAccessEnabled } from './keys';
import { createApiKeySchema, type ApiKeyList, type OrderActionsList } from '../../core/contracts/reseller';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireAdmin, requireUser, signedInOnly } from '../auth';
import { orders } from '../db/schema';
import { jsonBody, param } from '../http/body';
import { audit } from '../admin';
import { ordersDeps } from '../orders';
import { toOrderView, type OrderRow } from '../orders';
import { actionsOf, requestCancel, requestRefill, type ActionSource } from './actions';
import { createKey, listKeys, revokeKey, rotateKey } from './keys';
import { v2Handler } from './v2';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const orderNotFound = () => new AppError('ORDER_NOT_FOUND', 'Order not found.');

/** The reseller API (`/api/v2`), the customer's API keys, and refill/cancel of their orders. Mount at `/`. */
export function resellerRoutes(deps: AppDeps) {
  const db = deps.database.db;
  const v2 = v2Handler(deps);
  const keyParam = param(z.object({ id: z.string() }));
  const orderParam = param(z.object({ id: z.string().regex(UUID) }), orderNotFound);

  const ownOrder = async (userId: string, id: string): Promise<OrderRow> => {
    const [o] = await db.select().from(orders).where(and(eq(orders.id, id), eq(orders.userId, userId)));
    if (!o) throw orderNotFound();
    return o;
  };

  return (
    new Hono()
      // The reseller protocol reads its own form-encoded or query parameters (v2.ts).
      .get('/v2', v2)
      .post('/v2', v2)
      .get('/api-keys', signedInOnly, async (c) => {
        const user = await requireUser(c);
        const body: ApiKeyList = { keys: await listKeys(db, user.id), enabled: await apiAccessEnabled(db, user.id) };
        return c.json(body);
      })
      .post('/api-keys', signedInOnly, jsonBody(createApiKeySchema), async (c) => {
        const user = await requireUser(c);
        return c.json(await createKey(db, user.id, c.req.valid('json').name), 201);
      })
      .post('/api-keys/:id/rotate', signedInOnly, keyParam, async (c) => {
        const user = await requireUser(c);
        return c.json(await rotateKey(db, user.id, c.req.valid('param').id), 201);
      })
      .delete('/api-keys/:id', signedInOnly, keyParam, async (c) => {
        const user = await requireUser(c);
        await revokeKey(db, user.id, c.req.valid('param').id);
        return c.body(null, 204);
      })
      /** What the customer may do with each recent order (history buttons, "via API" marks). */
      .get('/orders/actions', signedInOnly, async (c) => {
        const user = await requireUser(c);
        const rows = await db.select().from(orders).where(eq(orders.userId, user.id)).orderBy(desc(orders.createdAt)).limit(200);
        const body: OrderActionsList = { orders: await actionsOf(db, rows) };
        return c.json(body);
      })
      .post('/orders/:id/refill', signedInOnly, orderParam, async (c) => {
        const user = await requireUser(c);
        return c.json(await refill(deps, await ownOrder(user.id, c.req.valid('param').id), 'site'), 201);
      })
      .post('/orders/:id/cancel', signedInOnly, orderParam, async (c) => {
        const user = await requireUser(c);
        return c.json(await cancel(deps, await ownOrder(user.id, c.req.valid('param').id), 'site'));
      })
  );
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
