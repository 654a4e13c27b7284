import { and, desc, eq, gte, ilike, like, lt, or, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { adminOrdersQuerySchema, orderRefundSchema } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireAdmin } from '../auth';
import { ledgerEntries, orders, users } from '../db/schema';
import { readJson } from '../http/body';
import { ordersDeps, refundReferencePattern, refundOrder, notifyRefund, submitOrder, toOrderView, applyState } from '../orders';
import { audit } from './audit';

const PAGE = 50;

/** Every order: search, filters, paging, detail, and the admin's actions on one order. */
export function adminOrdersRoutes(deps: AppDeps) {
  const app = new Hono();
  const db = deps.database.db;

  const load = async (id: string) => {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
    const [o] = await db.select().from(orders).where(eq(orders.id, id));
    if (!o) throw new AppError('ORDER_NOT_FOUND', 'Order not found.');
    return o;
  };

  app.get('/', async (c) => {
    const q = adminOrdersQuerySchema.parse(c.req.query());
    const conditions = [];
    if (q.q) {
      const pattern = `%${q.q.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
      conditions.push(or(ilike(orders.number, pattern), ilike(orders.link, pattern), ilike(users.email, pattern)));
    }
    if (q.status) conditions.push(eq(orders.status, q.status as never));
    if (q.platform) conditions.push(eq(orders.platform, q.platform));
    if (q.from) conditions.push(gte(orders.createdAt, new Date(`${q.from}T00:00:00Z`)));
    if (q.to) conditions.push(lt(orders.createdAt, new Date(new Date(`${q.to}T00:00:00Z`).getTime() + 86_400_000)));
    const where = conditions.length ? and(...conditions) : undefined;
    const rows = await db
      .select({ order: orders, email: users.email })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(where)
      .orderBy(desc(orders.createdAt))
      .limit(PAGE)
      .offset((q.page - 1) * PAGE);
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).innerJoin(users, eq(users.id, orders.userId)).where(where);
    return c.json({ total: count?.n ?? 0, page: q.page, pageSize: PAGE, orders: rows.map((r) => ({ ...toOrderView(r.order), userId: r.order.userId, email: r.email })) });
  });

  app.get('/:id', async (c) => {
    const o = await load(c.req.param('id'));
    const [u] = await db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, o.userId));
    const entries = await db
      .select()
      .from(ledgerEntries)
      .where(or(eq(ledgerEntries.reference, o.id), ...refundReferencePattern(o.id).map((p) => like(ledgerEntries.reference, p))))
      .orderBy(ledgerEntries.createdAt);
    return c.json({
      order: { ...toOrderView(o), userId: o.userId, email: u?.email, name: u?.name, providerOrderId: o.providerOrderId, providerStatus: o.providerStatus, params: o.params, viaApi: o.viaApi, apiId: o.apiId, submittedAt: o.submittedAt?.toISOString() ?? null, checkedAt: o.checkedAt?.toISOString() ?? null },
      ledger: entries.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
    });
  });

  app.post('/:id/resync', async (c) => {
    const o = await load(c.req.param('id'));
    if (!o.providerOrderId) throw new AppError('CONFLICT', 'The provider has no id for this order yet.');
    const od = ordersDeps(deps);
    const states = await od.provider.status([o.providerOrderId]);
    const state = states.get(o.providerOrderId);
    if (!state) throw new AppError('PROVIDER_NO_ANSWER', 'The provider did not answer.');
    if ('error' in state) throw new AppError('PROVIDER_REFUSED', state.error);
    await applyState(od, o, state);
    return c.json(toOrderView(await load(o.id)));
  });

  app.post('/:id/refund', async (c) => {
    const actor = await requireAdmin(c);
    const input = orderRefundSchema.parse(await readJson(c));
    const id = (await load(c.req.param('id'))).id;
    const result = await db.transaction(async (tx) => {
      const [o] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
      const left = o!.chargeCents - o!.refundedCents;
      const amount = input.amountCents ?? left;
      if (left <= 0) throw new AppError('VALIDATION_FAILED', 'More than what is left of the charge.', { left });
      // An order of unknown state refunded in full is settled as refunded.
      const status = o!.status === 'unknown' && amount === left ? 'refunded' : o!.status;
      const refunded = await refundOrder(tx, o!, { amountCents: amount, reason: input.reason, set: { status } });
      await audit(tx, actor, 'order.refund', { type: 'order', id }, { amountCents: refunded.refundedCents, reason: input.reason, number: o!.number });
      return refunded;
    });
    await notifyRefund(deps, result);
    return c.json(toOrderView(result.order));
  });

  // An `unknown` order is sent again only when the provider's own records confirm it does not
  // have it; otherwise the provider may be delivering it already.
  app.post('/:id/resubmit', async (c) => {
    const actor = await requireAdmin(c);
    const o = await load(c.req.param('id'));
    if (o.status !== 'unknown') throw new AppError('CONFLICT', 'Only an order of unknown state can be sent again.');
    const od = ordersDeps(deps);
    const found = await od.provider.findOrder({ serviceId: o.serviceId, link: o.link, quantity: o.quantity, since: o.submittedAt ?? o.createdAt });
    if (found === 'unsupported') throw new AppError('CONFLICT', 'The provider cannot confirm whether it has this order.');
    if (found) {
      await db.update(orders).set({ providerOrderId: found.providerOrderId, status: 'pending', noteCode: null, providerMessage: null }).where(eq(orders.id, o.id));
      await audit(db, actor, 'order.attach', { type: 'order', id: o.id }, { providerOrderId: found.providerOrderId });
      return c.json(toOrderView(await load(o.id)));
    }
    const [reset] = await db
      .update(orders)
      .set({ status: 'pending', submittedAt: null, noteCode: null, providerMessage: null, updatedAt: new Date() })
      .where(and(eq(orders.id, o.id), eq(orders.status, 'unknown')))
      .returning();
    if (!reset) throw new AppError('CONFLICT', 'The order changed meanwhile.');
    await audit(db, actor, 'order.resubmit', { type: 'order', id: o.id });
    return c.json(toOrderView(await submitOrder(od, reset)));
  });

  return app;
}
