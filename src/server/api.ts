import type { Hono } from 'hono';
import type { AppDeps } from './deps';
import { authRoutes, meRoutes } from './auth';
import { devMailboxRoutes } from './mail/routes';
import { catalogRoutes } from './catalog/routes';
import { ordersRoutes, trackingRoutes } from './orders/routes';
import { massOrderRoutes } from './massOrder';
import { eventsRoutes } from './realtime/routes';
import { supportAdminRoutes, supportRoutes } from './support/routes';
import { paymentsRoutes } from './payments/routes';
import { adminAccess } from './admin/access';
import { adminRoutes } from './admin/routes';
import { publicSettingsRoutes } from './admin/settings';
import { contentRoutes } from './content/routes';
import { resellerRoutes } from './reseller/routes';

/**
 * Every feature's API router is mounted here, under `/api`. Keep it a flat list: one line per
 * feature, in the order a reader would look for them.
 */
export function mountApi(api: Hono, deps: AppDeps): void {
  api.get('/ping', (c) => c.json({ ok: true }));
  // Staff only; each admin route's permission is looked up in admin/access.ts.
  api.use('/admin/*', adminAccess);
  api.route('/auth', authRoutes(deps));
  api.route('/', meRoutes(deps));
  // The development mailbox does not exist in production, whatever else is configured.
  if (deps.env.NODE_ENV !== 'production') api.route('/dev/mailbox', devMailboxRoutes({ db: deps.database.db }));
  api.route('/catalog', catalogRoutes(deps));
  api.route('/', ordersRoutes(deps));
  api.route('/', massOrderRoutes(deps));
  api.route('/', resellerRoutes(deps));
  api.route('/', eventsRoutes(deps));
  api.route('/track', trackingRoutes(deps));
  api.route('/', supportRoutes(deps));
  api.route('/admin', supportAdminRoutes(deps));
  api.route('/payments', paymentsRoutes(deps));
  api.route('/settings', publicSettingsRoutes(deps));
  api.route('/content', contentRoutes(deps));
  api.route('/admin', adminRoutes(deps));
}
