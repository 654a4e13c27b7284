import { Hono } from 'hono';
import { countUsers } from '../auth';
import { countActiveLocalServices } from '../content';
import type { AppDeps } from '../deps';
import { latestOrders, orderCounts, providerAlerts } from '../orders';
import { completedRevenueQepik } from '../payments';
import { listAudit } from './audit';
import { adminCatalogRoutes } from './catalog';
import { adminContentRoutes } from './content';
import { adminOrdersRoutes } from './orders';
import { adminPaymentsRoutes } from './payments';
import { adminProvidersRoutes } from './providers';
import { adminSettingsRoutes } from './settings';
import { adminUsersRoutes } from './users';

/** The admin API under /api/admin; the admin guard in front of it is mounted in api.ts. */
export function adminRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return new Hono()
    .get('/dashboard', async (c) => {
      const [totalUsers, counts, revenueQepik, activeServices, latest, alerts] = await Promise.all([
        countUsers(db),
        orderCounts(db),
        completedRevenueQepik(db),
        countActiveLocalServices(db),
        latestOrders(db, 5),
        providerAlerts(db),
      ]);
      return c.json({
        totalUsers,
        totalOrders: counts.total,
        pendingOrders: counts.pending,
        completedOrders: counts.completed,
        delayedOrders: counts.delayed,
        revenueQepik,
        activeServices,
        latestOrders: latest,
        providerAlerts: alerts.providers,
        waitingForFunds: alerts.waitingForFunds,
      });
    })

    .get('/audit', async (c) => {
      const rows = await listAudit(db);
      return c.json({ entries: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) });
    })

    .route('/users', adminUsersRoutes(deps))
    .route('/orders', adminOrdersRoutes(deps))
    .route('/settings', adminSettingsRoutes(deps))
    .route('/catalog', adminCatalogRoutes(deps))
    .route('/content', adminContentRoutes(deps))
    .route('/providers', adminProvidersRoutes(deps))
    .route('/payments', adminPaymentsRoutes(deps));
}

/** The admin API's routes with their inputs and answers, for the browser's typed client. */
export type AdminApiType = ReturnType<typeof adminRoutes>;
