import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors';
import { pathLanguage, requestLanguage } from '../../core/i18n';

/** What the maintenance guards ask: whether maintenance_mode is on, and whether the caller's roles pass it. */
export interface MaintenanceChecks {
  isOn: () => Promise<boolean>;
  mayPass: (c: Context) => Promise<boolean>;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * API paths that keep working in maintenance: signing in and out, the gateway's callbacks, and
 * the reseller API, which refuses its own writes in its protocol's form (src/server/reseller/v2.ts).
 */
const API_OPEN_PREFIXES = ['/api/auth/', '/api/auth-extra/', '/api/payments/callback', '/api/v2'];

/** With maintenance_mode on, API writes answer MAINTENANCE (503) unless a role with `maintenance:pass` makes them. */
export function maintenanceApi(checks: MaintenanceChecks): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || API_OPEN_PREFIXES.some((p) => c.req.path.startsWith(p))) return next();
    if (!(await checks.isOn())) return next();
    if (await checks.mayPass(c)) return next();
    throw new AppError('MAINTENANCE', 'The site is under maintenance. Please try again later.');
  };
}

/** Pages that stay reachable in maintenance: signing in, password recovery, the admin area, the mailbox. */
const PAGE_OPEN = /^\/(?:(?:az|tr|en)\/)?(?:maintenance|auth|reset-password|password-recovery|admin|dev)(?:\/|$)/;
const NOT_PAGES = /^\/(?:api|assets)\/|^\/(?:healthz|favicon\.svg|robots\.txt|sitemap[^/]*\.xml)$/;

/**
 * With maintenance_mode on, visitors and customers asking for a page are sent to the maintenance
 * page in their language; roles with `maintenance:pass` browse as usual. Mounted in front of the web renderer.
 */
export function maintenancePages(checks: MaintenanceChecks): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET' || NOT_PAGES.test(c.req.path) || PAGE_OPEN.test(c.req.path)) return next();
    if (!(await checks.isOn())) return next();
    if (await checks.mayPass(c)) return next();
    const lang = pathLanguage(c.req.path) ?? requestLanguage(c.req.header('cookie'), c.req.header('accept-language'));
    c.header('Cache-Control', 'no-store');
    return c.redirect(`/${lang}/maintenance`, 302);
  };
}
