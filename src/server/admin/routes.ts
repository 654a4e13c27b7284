import { desc, eq, inArray, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { adminPaymentsQuerySchema } from '../../core/contracts/admin';
import { statusesOfCounter } from '../../core/orderStatus';
import type { AppDeps } from '../deps';
import { localServices, orders, payments, users } from '../db/schema';
import { query } from '../http/body';
import { listAudit } from './audit';
import { adminCatalogRoutes } from './catalog';
import { adminContentRoutes } from './content';
import { adminOrdersRoutes } from './orders';
import { adminSettingsRoutes } from './settings';
import { adminUsersRoutes } from './users';

/** The admin API under /api/admin; the admin guard in front of it is mounted in api.ts. */
export function adminRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return new Hono()
    .get('/dashboard', async (c) => {
      const [u] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      const [o] = await db
        .select({
          total: sql<number>`count(*)::int`,
          pending: sql<number>`count(*) filter (where ${inArray(orders.status, statusesOfCounter('active'))})::int`,
          completed: sql<number>`count(*) filter (where ${inArray(orders.status, statusesOfCounter('completed'))})::int`,
        })
        .from(orders);
      const [r] = await db.select({ q: sql<string>`coalesce(sum(${payments.amountQepik}), 0)::text` }).from(payments).where(eq(payments.status, 'completed'));
      const [s] = await db.select({ n: sql<number>`count(*)::int` }).from(localServices).where(eq(localServices.active, true));
      const latest = await db
        .select({ id: orders.id, number: orders.number, serviceName: orders.serviceName, createdAt: orders.createdAt, chargeCents: orders.chargeCents, status: orders.status })
        .from(orders)
        .orderBy(desc(orders.createdAt))
        .limit(5);
      return c.json({
        totalUsers: u?.n ?? 0,
        totalOrders: o?.total ?? 0,
        pendingOrders: o?.pending ?? 0,
        completedOrders: o?.completed ?? 0,
        revenueQepik: Number(r?.q ?? 0),
        activeServices: s?.n ?? 0,
        latestOrders: latest.map((l) => ({ ...l, createdAt: l.createdAt.toISOString() })),
      });
    })

    .get('/audit', async (c) => {
      const rows = await listAudit(db);
      return c.json({ entries: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) });
    })

    .get('/payments', query(adminPaymentsQuerySchema), async (c) => {
      const { flagged: flaggedOnly } = c.req.valid('query');
      const rows = await db
        .select({ payment: payments, email: users.email })
        .from(payments)
        .innerJoin(users, eq(users.id, payments.userId))
        .where(flaggedOnly ? eq(payments.flagged, true) : inArray(payments.status, ['pending', 'completed', 'failed', 'cancelled']))
        .orderBy(desc(payments.createdAt))
        .limit(200);
      return c.json({ payments: rows.map((r) => ({ ...r.payment, email: r.email, createdAt: r.payment.createdAt.toISOString() })) });
    })

    .route('/users', adminUsersRoutes(deps))
    .route('/orders', adminOrdersRoutes(deps))
    .route('/settings', adminSettingsRoutes(deps))
    .route('/catalog', adminCatalogRoutes(deps))
    .route('/content', adminContentRoutes(deps));
}

/** The admin API's routes with their inputs and answers, for the browser's typed client. */
export type AdminApiType = ReturnType<typeof adminRoutes>;
