import { and, desc, eq, inArray, isNotNull, notInArray } from 'drizzle-orm';
import { SIGN_INS_KEPT, type SignInEntry } from '../../core/contracts/account';
import { deviceOf } from '../../core/device';
import { DEFAULT_LANGUAGE, type Language } from '../../core/i18n';
import type { Db, Tx } from '../db/client';
import { signIns, users, type SignInMethod } from '../db/schema';

/** The longest user agent kept (some browsers and bots send kilobytes). */
const USER_AGENT_MAX = 512;

/**
 * Records a sign-in that ended with a session (the password, or the code after it), and forgets
 * the account's older ones beyond the newest SIGN_INS_KEPT, in one transaction.
 */
export async function recordSignIn(
  db: Db,
  entry: { userId: string; ipAddress: string | null; userAgent: string | null; method: SignInMethod; language: Language | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(signIns).values({ ...entry, userAgent: entry.userAgent?.slice(0, USER_AGENT_MAX) ?? null });
    const kept = tx
      .select({ id: signIns.id })
      .from(signIns)
      .where(eq(signIns.userId, entry.userId))
      .orderBy(desc(signIns.createdAt), desc(signIns.id))
      .limit(SIGN_INS_KEPT);
    await tx.delete(signIns).where(and(eq(signIns.userId, entry.userId), notInArray(signIns.id, kept)));
  });
}

/** An account's recent sign-ins, newest first, the device in words. */
export async function recentSignIns(db: Db, userId: string): Promise<SignInEntry[]> {
  const rows = await db
    .select()
    .from(signIns)
    .where(eq(signIns.userId, userId))
    .orderBy(desc(signIns.createdAt), desc(signIns.id))
    .limit(SIGN_INS_KEPT);
  return rows.map((r) => ({ at: r.createdAt.toISOString(), ipAddress: r.ipAddress, ...deviceOf(r.userAgent), method: r.method }));
}

/** Which of these accounts sign in with a second factor. */
export async function twoFactorEnabledAmong(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await db.select({ id: users.id }).from(users).where(and(inArray(users.id, [...userIds]), eq(users.twoFactorEnabled, true)));
  return new Set(rows.map((r) => r.id));
}

/** The language an account's mails are written in: that of its newest sign-in that kept one, else the default. */
export async function languageOfAccount(db: Db | Tx, userId: string): Promise<Language> {
  const [row] = await db
    .select({ language: signIns.language })
    .from(signIns)
    .where(and(eq(signIns.userId, userId), isNotNull(signIns.language)))
    .orderBy(desc(signIns.createdAt), desc(signIns.id))
    .limit(1);
  return row?.language ?? DEFAULT_LANGUAGE;
}
