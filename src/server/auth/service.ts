import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Role } from '../db/schema';
import { canonicalMailbox } from '../../core/mailbox';
import { parseUsdToMicros } from '../../core/money';
import type { Db } from '../db/client';
import { sessions, userRoles, users } from '../db/schema';
import { getSettings } from '../settings';
import { credit } from '../wallet';

/** The signed-in person as every feature sees them. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  roles: Role[];
  /** Whether the account signs in with a second factor. */
  twoFactorEnabled: boolean;
}

/** Runs once after an account is created: the `user` role. */
export async function setUpNewAccount(db: Db, userId: string): Promise<void> {
  await db.insert(userRoles).values({ userId, role: 'user' }).onConflictDoNothing();
}

/** The sign-up bonus's ledger reference: one per mailbox, however its address is written. */
export const signUpBonusReference = (email: string) => `signup:${canonicalMailbox(email)}`;

/**
 * Runs when the account's e-mail address has been confirmed: the sign-up bonus, when the
 * settings give one — a ledger entry keyed by the confirmed address's mailbox
 * (docs/rules.md#accounts), so the database credits it at most once per mailbox, to whichever
 * account confirms first, however often and however concurrently links are followed.
 */
export async function creditSignUpBonus(db: Db, user: { id: string; email: string }): Promise<void> {
  const settings = await getSettings(db);
  const bonusMicros = parseUsdToMicros(settings.default_balance) ?? 0;
  if (bonusMicros <= 0) return;
  await db.transaction(async (tx) => {
    await credit(tx, { userId: user.id, amountMicros: bonusMicros, kind: 'signup_bonus', reference: signUpBonusReference(user.email), note: 'default balance' });
  });
}

export async function rolesOf(db: Db, userId: string): Promise<Role[]> {
  const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((r) => r.role).sort();
}

/** Of these session tokens, those of sessions that exist and have not expired, each with its user. */
export async function liveSessions(db: Db, tokens: readonly string[]): Promise<Map<string, string>> {
  if (!tokens.length) return new Map();
  const rows = await db
    .select({ token: sessions.token, userId: sessions.userId })
    .from(sessions)
    .where(and(inArray(sessions.token, [...tokens]), gt(sessions.expiresAt, new Date())));
  return new Map(rows.map((r) => [r.token, r.userId]));
}

/** The roles of each of these users, sorted (an account that is gone has none). */
export async function rolesOfUsers(db: Db, userIds: readonly string[]): Promise<Map<string, Role[]>> {
  const roles = new Map<string, Role[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return roles;
  const rows = await db.select({ userId: userRoles.userId, role: userRoles.role }).from(userRoles).where(inArray(userRoles.userId, [...userIds]));
  for (const r of rows) roles.get(r.userId)?.push(r.role);
  for (const list of roles.values()) list.sort();
  return roles;
}

/** Whether an address (already trimmed and lower-cased) has no account yet. */
export async function isEmailAvailable(db: Db, email: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return rows.length === 0;
}

export async function balanceOf(db: Db, userId: string): Promise<number> {
  const rows = await db.select({ balance: users.balanceMicros }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0]?.balance ?? 0;
}
