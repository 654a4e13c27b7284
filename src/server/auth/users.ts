import { and, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { Db, Tx } from '../db/client';
import { userRoles, users, type Role } from '../db/schema';

/** NOT_FOUND unless the account exists. */
export async function assertUserExists(tx: Db | Tx, userId: string): Promise<void> {
  const [u] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!u) throw new AppError('NOT_FOUND', 'User not found.');
}

/** Gives a user a role (docs/rules.md#admin): NOT_FOUND for no such user, ROLE_EXISTS when they have it. */
export async function addRole(tx: Tx, userId: string, role: Role): Promise<void> {
  await assertUserExists(tx, userId);
  const added = await tx.insert(userRoles).values({ userId, role }).onConflictDoNothing().returning();
  if (!added.length) throw new AppError('ROLE_EXISTS', 'The user already has this role.');
}

/**
 * Takes a role from a user: NOT_FOUND when they do not have it; LAST_ADMIN when it is the admin
 * role of the only admin.
 */
export async function removeRole(tx: Tx, userId: string, role: Role): Promise<void> {
  if (role === 'admin') {
    // Serialize admin removals so two admins cannot remove each other at once.
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    const [n] = await tx.select({ n: sql<number>`count(*)::int` }).from(userRoles).where(eq(userRoles.role, 'admin'));
    const [has] = await tx.select().from(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.role, 'admin')));
    if (has && (n?.n ?? 0) <= 1) throw new AppError('LAST_ADMIN', 'The last admin cannot lose the admin role.');
  }
  const removed = await tx.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.role, role))).returning();
  if (!removed.length) throw new AppError('NOT_FOUND', 'The user does not have this role.');
}

/** How many accounts there are. */
export async function countUsers(db: Db): Promise<number> {
  const [u] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return u?.n ?? 0;
}

/**
 * The team's user search: accounts whose e-mail or name holds `q` (every account when empty),
 * newest first (200), each with its roles; and how many accounts there are in all.
 */
export async function searchUsers(db: Db, q: string) {
  const pattern = `%${q.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, balanceMicros: users.balanceMicros, createdAt: users.createdAt })
    .from(users)
    .where(q ? or(ilike(users.email, pattern), ilike(users.name, pattern)) : undefined)
    .orderBy(desc(users.createdAt))
    .limit(200);
  const roles = rows.length ? await db.select().from(userRoles).where(inArray(userRoles.userId, rows.map((r) => r.id))) : [];
  return {
    total: await countUsers(db),
    users: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), roles: roles.filter((x) => x.userId === r.id).map((x) => x.role).sort() })),
  };
}
