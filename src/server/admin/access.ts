import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors';
import type { Permission } from '../../core/permissions';
import { admitStaff, requirePermission } from '../auth';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where the team's API is mounted. */
export const ADMIN_API = '/api/admin';

/**
 * The permission each route under /api/admin needs (paths relative to it, `:name` is one path
 * segment). Role → permissions is decided in core/permissions.ts; this table only names what a
 * route does, and the handlers check nothing more (they read who acts with `staffActor`). Every
 * route must be listed: one that is not is closed (NOT_FOUND to the team, admins included), and
 * the route test (admin/access.test.ts) fails.
 */
export const ADMIN_ROUTE_PERMISSIONS: readonly (readonly [Method, string, Permission])[] = [
  // Support: the moderator's work.
  ['GET', '/support/tickets', 'support:answer'],
  ['GET', '/support/tickets/:id', 'support:answer'],
  ['POST', '/support/tickets/:id/messages', 'support:answer'],
  ['PATCH', '/support/tickets/:id', 'support:answer'],
  ['GET', '/consultations', 'support:answer'],
  ['PATCH', '/consultations/:id', 'support:answer'],
  ['GET', '/contact-messages', 'support:answer'],
  ['GET', '/contact-messages/:id', 'support:answer'],
  ['POST', '/contact-messages/:id/replied', 'support:answer'],
  ['DELETE', '/contact-messages/:id', 'support:delete'],
  // Orders and users: read by support staff, changed by admins.
  ['GET', '/orders', 'orders:read'],
  ['GET', '/orders/:id', 'orders:read'],
  ['POST', '/orders/:id/resync', 'orders:manage'],
  ['POST', '/orders/:id/refund', 'orders:manage'],
  ['POST', '/orders/:id/resubmit', 'orders:manage'],
  ['POST', '/orders/:id/refill', 'orders:manage'],
  ['POST', '/orders/:id/cancel', 'orders:manage'],
  ['GET', '/users', 'users:read'],
  ['POST', '/users/:id/roles', 'users:roles'],
  ['DELETE', '/users/:id/roles/:role', 'users:roles'],
  ['POST', '/users/:id/balance', 'balances:write'],
  ['PUT', '/users/:id/api-access', 'users:roles'],
  // Money, settings, catalogue and content.
  ['GET', '/dashboard', 'dashboard:read'],
  ['GET', '/payments', 'payments:read'],
  ['GET', '/payments/methods', 'settings:manage'],
  ['PUT', '/payments/methods/:kind', 'settings:manage'],
  ['GET', '/audit', 'audit:read'],
  ['GET', '/settings', 'settings:manage'],
  ['PUT', '/settings', 'settings:manage'],
  ['GET', '/settings/stats', 'settings:manage'],
  ['GET', '/catalog/services', 'catalog:manage'],
  ['POST', '/catalog/services', 'catalog:manage'],
  ['PUT', '/catalog/services/:id', 'catalog:manage'],
  ['DELETE', '/catalog/services/:id', 'catalog:manage'],
  ['GET', '/catalog/api-services', 'catalog:manage'],
  ['POST', '/catalog/api-services/refresh', 'catalog:manage'],
  ['GET', '/catalog/service-names', 'catalog:manage'],
  ['POST', '/catalog/service-names', 'catalog:manage'],
  ['PUT', '/catalog/service-names/:name', 'catalog:manage'],
  ['DELETE', '/catalog/service-names/:name', 'catalog:manage'],
  ['GET', '/catalog/param-texts', 'catalog:manage'],
  ['PUT', '/catalog/param-texts', 'catalog:manage'],
  ['DELETE', '/catalog/param-texts/:kind/:lang', 'catalog:manage'],
  ['GET', '/content/blog', 'content:manage'],
  ['POST', '/content/blog', 'content:manage'],
  ['PUT', '/content/blog/:id', 'content:manage'],
  ['DELETE', '/content/blog/:id', 'content:manage'],
  ['GET', '/content/faq', 'content:manage'],
  ['POST', '/content/faq', 'content:manage'],
  ['PUT', '/content/faq/:id', 'content:manage'],
  ['DELETE', '/content/faq/:id', 'content:manage'],
  ['GET', '/providers', 'providers:manage'],
  ['POST', '/providers', 'providers:manage'],
  ['PUT', '/providers/:id', 'providers:manage'],
  ['POST', '/providers/:id/test', 'providers:manage'],
  ['GET', '/providers/:id/services', 'providers:manage'],
  ['POST', '/providers/:id/catalogue', 'providers:manage'],
  // Provider catalogues: what changed there, importing with a markup, each service's sources.
  ['GET', '/catalog/changes', 'providers:manage'],
  ['POST', '/catalog/changes/:id', 'providers:manage'],
  ['POST', '/catalog/import/preview', 'providers:manage'],
  ['POST', '/catalog/import', 'providers:manage'],
  ['GET', '/catalog/services/:id/sources', 'providers:manage'],
  ['PUT', '/catalog/services/:id/sources', 'providers:manage'],
  // Second factor: a user's recent sign-ins, and removing a lost one.
  ['GET', '/users/:id/sign-ins', 'users:read'],
  ['POST', '/users/:id/second-factor/reset', 'users:reset-second-factor'],
  // Customer discounts and groups: seen by support staff, set by admins.
  ['GET', '/customer-groups', 'users:read'],
  ['POST', '/customer-groups', 'prices:manage'],
  ['PUT', '/customer-groups/:id', 'prices:manage'],
  ['DELETE', '/customer-groups/:id', 'prices:manage'],
  ['PUT', '/users/:id/pricing', 'prices:manage'],
  // The owner's figures (docs/rules.md#owner-figures).
  ['GET', '/analytics', 'analytics:read'],
  ['GET', '/analytics/breakdown', 'analytics:read'],
  ['GET', '/analytics/export', 'analytics:read'],
  // Payments: the export of the list, and chargebacks (docs/decisions/0019).
  ['GET', '/payments/export', 'payments:read'],
  ['POST', '/payments/:id/reversal', 'payments:manage'],
  ['POST', '/payments/:id/refund', 'payments:manage'],
  ['GET', '/payments/:id/receipt', 'payments:read'],
  ['POST', '/payments/:id/review', 'payments:manage'],
  // Deposit bonus rules and coupons (docs/rules.md#bonuses): seen with the payments, set with the prices.
  ['GET', '/bonuses', 'payments:read'],
  ['POST', '/bonuses/rules', 'prices:manage'],
  ['PUT', '/bonuses/rules/:id', 'prices:manage'],
  ['POST', '/bonuses/coupons', 'prices:manage'],
  ['PUT', '/bonuses/coupons/:id', 'prices:manage'],
];

const compiled = ADMIN_ROUTE_PERMISSIONS.map(([method, path, permission]) => ({
  method,
  pattern: new RegExp(`^${path.replace(/:\w+/g, '[^/]+')}$`),
  permission,
}));

/** The permission a request under /api/admin needs; undefined when the route is not listed. */
export function permissionFor(method: string, path: string): Permission | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  const rest = path.startsWith(ADMIN_API) ? path.slice(ADMIN_API.length) : path;
  return compiled.find((r) => r.method === m && r.pattern.test(rest))?.permission;
}

/**
 * In front of /api/admin/*: anonymous callers get 401 and customers 403 on every path (no route
 * enumeration); staff get through to the routes their role allows, and the route reads who they
 * are with `staffActor`.
 */
export const adminAccess: MiddlewareHandler = async (c, next) => {
  await requirePermission(c, 'staff:enter');
  const permission = permissionFor(c.req.method, c.req.path);
  if (!permission) throw new AppError('NOT_FOUND', 'Not found.');
  await admitStaff(c, permission);
  await next();
};
