import type { MiddlewareHandler } from 'hono';
import type { AppDeps } from '../deps';
import { createMailer, type Mailer } from '../mail';
import { createAuth, type Auth } from './auth';
import { identityMiddleware, type Identity } from './guard';
import { maintenanceApi, maintenancePages } from './maintenance';
import { originCheck, siteOrigins } from './origin';
import { createRateLimiter, type RateLimiter } from './rateLimit';
import { accountRoutes, authHandlerRoutes } from './routes';

export { adminOnly, optionalUser, requireAdmin, requirePermission, requireUser, signedInOnly, type AuthUser } from './guard';
export { clientIp } from './clientIp';
export { addRole, assertUserExists, removeRole } from './users';
export { createRateLimiter, RATE_RULES, type RateRule } from './rateLimit';

/** The card gateway posts here server to server: no cookies, no Origin of ours. */
export const PAYMENT_CALLBACK_PATH = '/api/payments/callback';

interface Accounts {
  auth: Auth;
  limiter: RateLimiter;
  mailer: Mailer;
  identity: Identity;
}

const built = new WeakMap<AppDeps, Accounts>();

/**
 * One better-auth instance, rate limiter and mailer per app, built on first use (the public URL
 * may only be known once the server listens).
 */
export function accounts(deps: AppDeps): Accounts {
  let found = built.get(deps);
  if (!found) {
    const db = deps.database.db;
    const mailer = deps.mailer ?? createMailer({ smtpUrl: deps.env.SMTP_URL, from: deps.env.MAIL_FROM, db });
    const auth = createAuth({
      db,
      secret: deps.authSecret,
      publicUrl: deps.publicUrl,
      origins: siteOrigins(deps.publicUrl, !!deps.env.PUBLIC_URL),
      production: deps.env.NODE_ENV === 'production',
      mailer,
      logger: deps.logger,
    });
    found = { auth, limiter: createRateLimiter(db), mailer, identity: { auth, db } };
    built.set(deps, found);
  }
  return found;
}

/** In front of every API route: who is calling, whether the request came from our pages, maintenance. */
export function apiGuards(deps: AppDeps): MiddlewareHandler[] {
  return [
    async (c, next) => identityMiddleware(accounts(deps).identity)(c, next),
    async (c, next) => originCheck({ origins: siteOrigins(deps.publicUrl, !!deps.env.PUBLIC_URL), serverToServer: [PAYMENT_CALLBACK_PATH] })(c, next),
    maintenanceApi(deps.database.db),
  ];
}

/** In front of the web renderer: the maintenance page for visitors and customers. */
export function pageGuards(deps: AppDeps): MiddlewareHandler {
  return async (c, next) => maintenancePages(accounts(deps).identity)(c, next);
}

const parts = (deps: AppDeps) => () => ({ ...accounts(deps), db: deps.database.db });

/** `/api/auth/*` (better-auth) — mount at `/auth`. */
export const authRoutes = (deps: AppDeps) => authHandlerRoutes(parts(deps));
/** `/api/me` and `/api/auth-extra/*` — mount at `/`. */
export const meRoutes = (deps: AppDeps) => accountRoutes(parts(deps));
