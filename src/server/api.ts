import { Hono } from 'hono';
import type { AppDeps } from './deps';
import { authRoutes, meRoutes, requireUser } from './auth';
import { devMailboxRoutes } from './mail/routes';
import { catalogRoutes } from './catalog/routes';
import { ordersRoutes, trackingRoutes } from './orders/routes';
import { massOrderRoutes } from './massOrder';
import { walletRoutes } from './wallet';
import { eventsRoutes } from './realtime/routes';
import { supportAdminRoutes, supportRoutes } from './support/routes';
import { paymentsRoutes } from './payments/routes';
import { adminAccess } from './admin/access';
import { adminRoutes } from './admin/routes';
import { publicSettingsRoutes } from './settings/routes';
import { contentRoutes } from './content/routes';
import { resellerRoutes } from './reseller/routes';

/**
 * The storefront's API, one chained value: its type (`ApiType`) is what the browser's typed
 * client (src/web/lib/api.ts) is built from. One line per feature, in the order a reader would
 * look for them.
 */
export function storefrontApi(deps: AppDeps) {
  return new Hono()
    .get('/ping', (c) => c.json({ ok: true }))
    .route('/auth', authRoutes(deps))
    .route('/', meRoutes(deps))
    .route('/catalog', catalogRoutes(deps))
    .route('/', ordersRoutes(deps))
    .route('/', walletRoutes(deps, requireUser))
    .route('/', massOrderRoutes(deps))
    .route('/', resellerRoutes(deps))
    .route('/', eventsRoutes(deps))
    .route('/track', trackingRoutes(deps))
    .route('/', supportRoutes(deps))
    .route('/payments', paymentsRoutes(deps))
    .route('/settings', publicSettingsRoutes(deps))
    .route('/content', contentRoutes(deps));
}

/** The storefront API's routes, inputs and answers, for `hc<ApiType>('/api')` in the browser. */
export type ApiType = ReturnType<typeof storefrontApi>;

/** Every feature's API router, mounted under `/api`: the storefront's, the development mailbox, the admin area's. */
export function mountApi(api: Hono, deps: AppDeps): void {
  // Staff only; each admin route's permission is looked up in admin/access.ts.
  api.use('/admin/*', adminAccess);
  // The development mailbox does not exist in production, whatever else is configured.
  if (deps.env.NODE_ENV !== 'production') api.route('/dev/mailbox', devMailboxRoutes({ db: deps.database.db }));
  api.route('/', storefrontApi(deps));
  api.route('/admin', supportAdminRoutes(deps));
  api.route('/admin', adminRoutes(deps));
}
