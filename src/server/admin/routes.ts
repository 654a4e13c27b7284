import { Hono } from 'hono';
import { adminAuditQuerySchema } from '../../core/contracts/admin';
import { countUsers } from '../auth';
import { countActiveLocalServices } from '../content';
import type { AppDeps } from '../deps';
import { query } from '../http/body';
import { latestOrders, orderCounts, providerBalances } from '../orders';
import { periodDays } from '../../core/analytics';
import { customerBalances, periodTotals, topUpsAllTime } from '../analytics';
import { countFlaggedPayments } from '../payments';
import { getSettings } from '../settings';
import { countWaitingTickets } from '../support';
import { adminAnalyticsRoutes } from './analytics';
import { listAudit } from './audit';
import { adminBonusRoutes } from './bonuses';
import { adminCatalogRoutes } from './catalog';
import { adminContentRoutes } from './content';
import { adminDiscountRoutes } from './discounts';
import { adminOrdersRoutes } from './orders';
import { adminPaymentsRoutes } from './payments';
import { adminProvidersRoutes } from './providers';
import { adminSettingsRoutes } from './settings';
import { adminUsersRoutes } from './users';

/** The admin API under /api/admin; the admin guard in front of it is mounted in api.ts. */
export function adminRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return new Hono()
    // What needs attention and today's figures (docs/rules.md#owner-figures).
    .get('/dashboard', async (c) => {
      const [totalUsers, counts, topUps, activeServices, latest, funds, today, balances, flaggedPayments, waitingTickets, settings] = await Promise.all([
        countUsers(db),
        orderCounts(db),
        topUpsAllTime(db),
        countActiveLocalServices(db),
        latestOrders(db, 5),
        providerBalances(db),
        periodTotals(db, periodDays({ period: 'today' })!),
        customerBalances(db),
        countFlaggedPayments(db),
        countWaitingTickets(db),
        getSettings(db),
      ]);
      return c.json({
        totalUsers,
        totalOrders: counts.total,
        pendingOrders: counts.pending,
        completedOrders: counts.completed,
        delayedOrders: counts.delayed,
        unknownOrders: counts.unknown,
        topUpsQepik: topUps.topUpsQepik,
        topUpsMicros: topUps.topUpsMicros,
        todaySalesMicros: today.salesMicros,
        todayGrossProfitMicros: today.grossProfitMicros,
        ...balances,
        activeServices,
        latestOrders: latest,
        providers: funds.providers,
        providerAlerts: funds.providers.filter((p) => p.low || p.fundsShortSince !== null),
        waitingForFunds: funds.waitingForFunds,
        flaggedPayments,
        waitingTickets,
        /** No service fee and no base fee: every order sells at the provider's price. */
        sellsAtCost: settings.service_fee === 0 && settings.base_fee === 0,
      });
    })

    .get('/audit', query(adminAuditQuerySchema), async (c) => c.json(await listAudit(db, c.req.valid('query'))))

    .route('/users', adminUsersRoutes(deps))
    .route('/orders', adminOrdersRoutes(deps))
    .route('/settings', adminSettingsRoutes(deps))
    .route('/catalog', adminCatalogRoutes(deps))
    .route('/content', adminContentRoutes(deps))
    .route('/providers', adminProvidersRoutes(deps))
    .route('/', adminDiscountRoutes(deps))
    .route('/analytics', adminAnalyticsRoutes(deps))
    .route('/payments', adminPaymentsRoutes(deps))
    .route('/bonuses', adminBonusRoutes(deps));
}

/** The admin API's routes with their inputs and answers, for the browser's typed client. */
export type AdminApiType = ReturnType<typeof adminRoutes>;
