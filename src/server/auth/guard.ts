import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors';
import { can, type Permission } from '../../core/permissions';
import { secondFactorRequired } from '../../core/secondFactor';
import { COOKIE_PREFIX } from '../../core/contracts/account';
import { cachesOf, forget } from '../cache';
import type { Db } from '../db/client';
import type { Auth } from './auth';
import { rolesOf, type AuthUser } from './service';

export type { AuthUser } from './service';

/** What the identity middleware puts on every API request. */
export interface Identity {
  auth: Auth;
  db: Db;
  /** Production: the admin area asks the team for a second factor (core/secondFactor.ts). */
  production: boolean;
}

declare module 'hono' {
  interface ContextVariableMap {
    identity: Identity;
    /** The session's user once looked up in this request (null: anonymous). */
    authUser: AuthUser | null;
    /** The team member the admin gate let through for this request (`admitStaff`). */
    staff: AuthUser;
  }
}

const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${COOKIE_PREFIX}\\.session_token=([^;]+)`);

/** The session cookie's value (the signed token), if the request carries one. */
function sessionCookie(header: string | undefined): string | null {
  if (!header) return null;
  const m = SESSION_COOKIE.exec(header);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

/** The session token of the request's cookie (the part before its signature), if it carries one. */
export function sessionTokenOf(c: Context): string | null {
  return sessionCookie(c.req.header('cookie'))?.split('.')[0] || null;
}

/**
 * The balances a request through this instance may have changed, forgotten here once it is
 * answered (its transactions committed) rather than when the database's notice arrives
 * (migration 0036), so the answer's next page shows them: a customer's write, their own; a team
 * member's write (a credit, a refund, a chargeback of someone else), everyone's; and the card
 * payments' routes, which credit a top-up on the gateway's callback or on a return page's check
 * (without a session, or with the customer's), the caller's or everyone's.
 */
function forgetBalancesWritten(c: Context, db: Db): void {
  const caches = cachesOf(db);
  if (!caches) return;
  const payments = c.req.path.startsWith('/api/payments/');
  if (!payments && (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS')) return;
  // Looked up by the route if it needed the caller; a route that did not changed no balance of theirs.
  const user = c.get('authUser');
  if (user && user.roles.every((r) => r === 'user')) forget(caches, `balance:${user.id}`);
  else if (user || payments) forget(caches, 'balance');
}

/** Makes the session lookup available to every route under it. Mounted once on `/api`. */
export function identityMiddleware(identity: Identity): MiddlewareHandler {
  return async (c, next) => {
    c.set('identity', identity);
    // Account writes (sign-out, password change …) may end this session: this instance forgets
    // it before and after, without waiting for the change notice.
    const account = c.req.path.startsWith('/api/auth/') && c.req.method !== 'GET';
    const forgetOwn = () => {
      const cookie = sessionCookie(c.req.header('cookie'));
      if (cookie) cachesOf(identity.db)?.identities.delete(cookie.split('.')[0]!);
    };
    if (account) forgetOwn();
    await next();
    if (account) forgetOwn();
    forgetBalancesWritten(c, identity.db);
  };
}

/** The signed-in user, or null. Looked up once per request, roles included. */
export async function optionalUser(c: Context): Promise<AuthUser | null> {
  const cached = c.get('authUser');
  if (cached !== undefined) return cached;
  const identity = c.get('identity');
  if (!identity) throw new Error('optionalUser: identityMiddleware is not mounted');
  // A session verified with this exact signed cookie is kept by this instance for a short time
  // and forgotten when the session, the user's roles, name or e-mail change (see cache.ts).
  const caches = cachesOf(identity.db);
  const cookie = caches ? sessionCookie(c.req.header('cookie')) : null;
  const token = cookie?.split('.')[0];
  const hit = token ? caches!.identities.get(token) : undefined;
  if (hit && hit.cookie === cookie) {
    const user = hit.value as AuthUser;
    c.set('authUser', user);
    return user;
  }
  const generation = caches?.generation;
  const session = await identity.auth.api.getSession({ headers: c.req.raw.headers });
  const user = session
    ? {
        id: session.user.id,
        email: session.user.email,
        name: session.user.name,
        roles: await rolesOf(identity.db, session.user.id),
        twoFactorEnabled: session.user.twoFactorEnabled === true,
      }
    : null;
  if (user && session && token && caches && caches.generation === generation) {
    caches.identities.set(token, { cookie: cookie!, userId: user.id, value: user }, new Date(session.session.expiresAt).getTime() - Date.now());
  }
  c.set('authUser', user);
  return user;
}

/** The signed-in user; UNAUTHENTICATED (401) otherwise. */
export async function requireUser(c: Context): Promise<AuthUser> {
  const user = await optionalUser(c);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in to continue.');
  return user;
}

/** A signed-in user whose roles grant the permission; UNAUTHENTICATED (401) or FORBIDDEN (403) otherwise. */
export async function requirePermission(c: Context, permission: Permission): Promise<AuthUser> {
  const user = await requireUser(c);
  if (!can(user.roles, permission)) throw new AppError('FORBIDDEN', 'Your role does not allow this.');
  return user;
}

/**
 * The admin gate's check of one route (admin/access.ts): a signed-in user whose roles grant the
 * route's permission, kept on the request as the acting team member (`staffActor`). In
 * production a team member without a second factor is refused with TWO_FACTOR_REQUIRED (403)
 * until they set one up (docs/rules.md#second-factor).
 */
export async function admitStaff(c: Context, permission: Permission): Promise<AuthUser> {
  const user = await requirePermission(c, permission);
  if (secondFactorRequired(c.get('identity').production, user.roles) && !user.twoFactorEnabled) {
    throw new AppError('TWO_FACTOR_REQUIRED', 'Set up a second factor to use the admin area.');
  }
  c.set('staff', user);
  return user;
}

/**
 * Who acts in a team route, for the audit log: the member the admin gate admitted. It checks no
 * role — the gate decided, from the permission table — and throws FORBIDDEN when no gate admitted
 * anyone (a router mounted without it), so such a route refuses rather than runs for anyone.
 */
export function staffActor(c: Context): AuthUser {
  const user = c.get('staff');
  if (!user) throw new AppError('FORBIDDEN', 'Your role does not allow this.');
  return user;
}

/** Middleware forms, for mounting in front of a whole router. */
export const signedInOnly: MiddlewareHandler = async (c, next) => {
  await requireUser(c);
  await next();
};
export const permitted =
  (permission: Permission): MiddlewareHandler =>
  async (c, next) => {
    await requirePermission(c, permission);
    await next();
  };
