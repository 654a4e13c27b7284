import { Hono } from 'hono';
import { adminOrdersQuerySchema, orderIdParamsSchema, orderRefundSchema } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { staffActor } from '../auth';
import { jsonBody, param, query } from '../http/body';
import { notifyOrder, notifyRefund, orderById, orderDetail, ordersDeps, prepareResubmit, refundByStaff, resyncOrder, searchOrders, submitOrder, toOrderView } from '../orders';
import { actionsOf, cancelAndTell, refillAndTell } from '../reseller';
import { audit } from './audit';

const orderParam = param(orderIdParamsSchema, () => new AppError('ORDER_NOT_FOUND', 'Order not found.'));

/** Every order: search, filters, paging, detail, and the admin's actions on one order. */
export function adminOrdersRoutes(deps: AppDeps) {
  const db = deps.database.db;
  const load = (id: string) => orderById(db, id);

  return (
    new Hono()
      .get('/', query(adminOrdersQuerySchema), async (c) => c.json(await searchOrders(db, c.req.valid('query'))))

      // With what the order allows now (refill, cancel), by the customer's own rule (reseller/actions.ts).
      .get('/:id', orderParam, async (c) => {
        const o = await load(c.req.valid('param').id);
        const [detail, actions] = await Promise.all([orderDetail(db, o), actionsOf(db, [o])]);
        return c.json({ ...detail, actions: actions[o.id]! });
      })

      // A resync may change the order's status and refund it: the team's action is audited.
      .post('/:id/resync', orderParam, async (c) => {
        const actor = staffActor(c);
        const o = await load(c.req.valid('param').id);
        const after = await resyncOrder(ordersDeps(deps), o);
        await audit(db, actor, 'order.resync', { type: 'order', id: o.id }, { number: o.number, from: o.status, to: after.status });
        return c.json(toOrderView(after));
      })

      .post('/:id/refund', jsonBody(orderRefundSchema), orderParam, async (c) => {
        const actor = staffActor(c);
        const input = c.req.valid('json');
        const id = (await load(c.req.valid('param').id)).id;
        const result = await db.transaction(async (tx) => {
          const refunded = await refundByStaff(tx, id, input);
          await audit(tx, actor, 'order.refund', { type: 'order', id }, { amountMicros: refunded.refundedMicros, reason: input.reason, number: refunded.order.number });
          return refunded;
        });
        await notifyRefund(deps, result);
        for (const run of result.runs) await notifyOrder(deps, run);
        return c.json(toOrderView(result.order));
      })

      .post('/:id/resubmit', orderParam, async (c) => {
        const actor = staffActor(c);
        const o = await load(c.req.valid('param').id);
        const od = ordersDeps(deps);
        const step = await prepareResubmit(od, o);
        if ('attached' in step) {
          await audit(db, actor, 'order.attach', { type: 'order', id: o.id }, { providerOrderId: step.providerOrderId });
          return c.json(toOrderView(step.attached));
        }
        await audit(db, actor, 'order.resubmit', { type: 'order', id: o.id });
        return c.json(toOrderView(await submitOrder(od, step.reset)));
      })

      // Refill and cancel by the team, under the same rules as the customer's (reseller/actions.ts).
      .post('/:id/refill', orderParam, async (c) => {
        const actor = staffActor(c);
        const o = await load(c.req.valid('param').id);
        const result = await refillAndTell(ordersDeps(deps), o, 'admin');
        await audit(db, actor, 'order.refill', { type: 'order', id: o.id }, { number: o.number, refill: result.refill.id });
        return c.json(result, 201);
      })
      .post('/:id/cancel', orderParam, async (c) => {
        const actor = staffActor(c);
        const o = await load(c.req.valid('param').id);
        const result = await cancelAndTell(ordersDeps(deps), o, 'admin');
        await audit(db, actor, 'order.cancel', { type: 'order', id: o.id }, { number: o.number, status: result.status });
        return c.json(result);
      })
  );
}
