import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors';
import { can, type Permission } from '../../core/permissions';
import type { Db } from '../db/client';
import type { Auth } from './auth';
import { rolesOf, type AuthUser } from './service';

export type { AuthUser } from './service';

/** What the identity middleware puts on every API request. */
export interface Identity {
  auth: Auth;
  db: Db;
}

declare module 'hono' {
  interface ContextVariableMap {
    identity: Identity;
    /** The session's user once looked up in this request (null: anonymous). */
    authUser: AuthUser | null;
  }
}

/** Makes the session lookup available to every route under it. Mounted once on `/api`. */
export function identityMiddleware(identity: Identity): MiddlewareHandler {
  return async (c, next) => {
    c.set('identity', identity);
    await next();
  };
}

/** The signed-in user, or null. Looked up once per request, roles included. */
export async function optionalUser(c: Context): Promise<AuthUser | null> {
  const cached = c.get('authUser');
  if (cached !== undefined) return cached;
  const identity = c.get('identity');
  if (!identity) throw new Error('optionalUser: identityMiddleware is not mounted');
  const session = await identity.auth.api.getSession({ headers: c.req.raw.headers });
  const user = session
    ? { id: session.user.id, email: session.user.email, name: session.user.name, roles: await rolesOf(identity.db, session.user.id) }
    : null;
  c.set('authUser', user);
  return user;
}

/** The signed-in user; UNAUTHENTICATED (401) otherwise. */
export async function requireUser(c: Context): Promise<AuthUser> {
  const user = await optionalUser(c);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in to continue.');
  return user;
}

/** A signed-in admin; UNAUTHENTICATED (401) or FORBIDDEN (403) otherwise. */
export async function requireAdmin(c: Context): Promise<AuthUser> {
  const user = await requireUser(c);
  if (!user.roles.includes('admin')) throw new AppError('FORBIDDEN', 'Admin rights are needed.');
  return user;
}

/** A signed-in user whose roles grant the permission; UNAUTHENTICATED (401) or FORBIDDEN (403) otherwise. */
export async function requirePermission(c: Context, permission: Permission): Promise<AuthUser> {
  const user = await requireUser(c);
  if (!can(user.roles, permission)) throw new AppError('FORBIDDEN', 'Your role does not allow this.');
  return user;
}

/** Middleware forms, for mounting in front of a whole router. */
export const signedInOnly: MiddlewareHandler = async (c, next) => {
  await requireUser(c);
  await next();
};
export const adminOnly: MiddlewareHandler = async (c, next) => {
  await requireAdmin(c);
  await next();
};
export const permitted =
  (permission: Permission): MiddlewareHandler =>
  async (c, next) => {
    await requirePermission(c, permission);
    await next();
  };
