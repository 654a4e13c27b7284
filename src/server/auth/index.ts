import type { Context, MiddlewareHandler } from 'hono';
import { CALLBACK_PATHS } from '../../core/paymentMethods';
import { can } from '../../core/permissions';
import type { AppDeps } from '../deps';
import { createMailer, type Mailer } from '../mail';
import { maintenanceApi, maintenancePages, type MaintenanceChecks } from '../http/maintenance';
import { originCheck, siteOrigins } from '../http/origin';
import { createRateLimiter, type RateLimiter } from '../http/rateLimit';
import { getSettings } from '../settings';
import { createAuth, type Auth } from './auth';
import { identityMiddleware, optionalUser, type AuthUser, type Identity } from './guard';
import type { Me } from '../../core/contracts/account';
import { accountRoutes, authHandlerRoutes, meOf } from './routes';

export { admitStaff, optionalUser, requirePermission, requireUser, sessionTokenOf, signedInOnly, staffActor, type AuthUser } from './guard';
export { liveSessions, rolesOfUsers } from './service';
export { languageOfAccount, recentSignIns, twoFactorEnabledAmong } from './signIns';
export { removeSecondFactor } from './secondFactor';
export { addRole, assertUserExists, countUsers, removeRole, searchUsers } from './users';

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
    found = { auth, limiter: createRateLimiter(db), mailer, identity: { auth, db, production: deps.env.NODE_ENV === 'production' } };
    built.set(deps, found);
  }
  return found;
}

/** In front of every API route: who is calling, whether the request came from our pages, maintenance. */
export function apiGuards(deps: AppDeps): MiddlewareHandler[] {
  // Built on the first request (the public URL may only be known once the server listens), and
  // again only if that URL changes, not on every request.
  let identity: MiddlewareHandler | undefined;
  let origin: { url: string; check: MiddlewareHandler } | undefined;
  return [
    async (c, next) => (identity ??= identityMiddleware(accounts(deps).identity))(c, next),
    async (c, next) => {
      if (origin?.url !== deps.publicUrl) {
        origin = { url: deps.publicUrl, check: originCheck({ origins: siteOrigins(deps.publicUrl, !!deps.env.PUBLIC_URL), serverToServer: CALLBACK_PATHS }) };
      }
      return origin.check(c, next);
    },
    maintenanceApi(maintenanceChecks(deps)),
  ];
}

/** Maintenance mode is a setting; roles granted `maintenance:pass` pass it (the identity is looked up on first need). */
function maintenanceChecks(deps: AppDeps): MaintenanceChecks {
  return {
    isOn: async () => (await getSettings(deps.database.db)).maintenance_mode,
    mayPass: async (c) => {
      if (!c.get('identity')) c.set('identity', accounts(deps).identity);
      return can((await optionalUser(c))?.roles ?? [], 'maintenance:pass');
    },
  };
}

/**
 * Who a page request is for, read without calling the API: the roles of the session behind its
 * cookie (cached like the API's own lookup), and on demand the person as `GET /api/me` answers
 * them; null without a valid session.
 */
export function pageVisitor(deps: AppDeps): (c: Context) => Promise<{ roles: AuthUser['roles']; me: () => Promise<Me> } | null> {
  return async (c) => {
    if (!c.get('identity')) c.set('identity', accounts(deps).identity);
    const user = await optionalUser(c);
    return user ? { roles: user.roles, me: () => meOf(deps.database.db, deps.env.NODE_ENV === 'production', user) } : null;
  };
}

/** In front of the web renderer: the maintenance page for visitors and customers. */
export function pageGuards(deps: AppDeps): MiddlewareHandler {
  return maintenancePages(maintenanceChecks(deps));
}

const parts = (deps: AppDeps) => () => ({ ...accounts(deps), db: deps.database.db, production: deps.env.NODE_ENV === 'production' });

/** `/api/auth/*` (better-auth) — mount at `/auth`. */
export const authRoutes = (deps: AppDeps) => authHandlerRoutes(parts(deps));
/** `/api/me` and `/api/auth-extra/*` — mount at `/`. */
export const meRoutes = (deps: AppDeps) => accountRoutes(parts(deps));
