import { and, desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { apiAccessEnabled } from './keys';
import { createApiKeySchema, type ApiKeyList, type OrderActionsList } from '../../core/contracts/reseller';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireUser, signedInOnly } from '../auth';
import { orders } from '../db/schema';
import { jsonBody, param } from '../http/body';
import { ordersDeps, type OrderRow } from '../orders';
import { actionsOf, cancelAndTell, refillAndTell } from './actions';
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
      // Clients that end the address with a slash reach the same API.
      .get('/v2/', v2)
      .post('/v2/', v2)
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
        return c.json(await refillAndTell(ordersDeps(deps), await ownOrder(user.id, c.req.valid('param').id), 'site'), 201);
      })
      .post('/orders/:id/cancel', signedInOnly, orderParam, async (c) => {
        const user = await requireUser(c);
        return c.json(await cancelAndTell(ordersDeps(deps), await ownOrder(user.id, c.req.valid('param').id), 'site'));
      })
  );
}
