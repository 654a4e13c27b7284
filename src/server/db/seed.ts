import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Db } from './client';
import { accounts, localServices, userRoles, users } from './schema';
import { MARKETING_SERVICES_SEED } from './seedServices';
import { hashPassword } from '../passwords';
import { ensureDefaultSettings } from '../settings';

export interface SeedResult {
  /** Set only when this run created the admin with a generated password (printed once). */
  generatedAdmin?: { email: string; password: string };
  adminEmail?: string;
}

/**
 * Idempotent start-up seed: default settings, the agency's marketing services, and an admin account when none exists — from
 * ADMIN_EMAIL/ADMIN_PASSWORD, or with a generated password that the caller prints once.
 */
export async function seed(db: Db, opts: { adminEmail?: string; adminPassword?: string }): Promise<SeedResult> {
  await ensureDefaultSettings(db);
  await ensureMarketingServices(db);

  const admins = await db.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.role, 'admin')).limit(1);
  if (admins.length) return {};

  const email = (opts.adminEmail ?? 'admin@artim.local').trim().toLowerCase();
  const generated = !opts.adminPassword;
  const password = opts.adminPassword ?? `Ar-${randomBytes(9).toString('base64url')}9!`;
  const hash = await hashPassword(password);

  await db.transaction(async (tx) => {
    const existing = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    let userId = existing[0]?.id;
    if (!userId) {
      userId = randomUUID();
      await tx.insert(users).values({ id: userId, name: 'Administrator', email, emailVerified: true });
      await tx.insert(accounts).values({ id: randomUUID(), accountId: userId, providerId: 'credential', userId, password: hash });
    }
    await tx.insert(userRoles).values([
      { userId, role: 'admin' },
      { userId, role: 'user' },
    ]).onConflictDoNothing();
  });
  return generated ? { generatedAdmin: { email, password }, adminEmail: email } : { adminEmail: email };
}

/**
 * The marketing services, written when the services table has never held a row (its id sequence
 * is unused): a later start leaves the admin's edits and deletions alone, even of every row.
 */
export async function ensureMarketingServices(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    // One seeder at a time (instances starting together); the lock ends with the transaction.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('artim.seed.services'))`);
    const result = await tx.execute<{ is_called: boolean }>(sql`select is_called from services_id_seq`);
    const [state] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { is_called: boolean }[];
    if (state?.is_called) return;
    await tx.insert(localServices).values(MARKETING_SERVICES_SEED);
  });
}

/**
 * What to say about a generated admin password, once. On a terminal the password is shown to the
 * person who started the shop; anywhere else (a service manager, a container, a log collector)
 * stdout is a log, so the password goes to a file only the shop's user can read, and the log
 * says where.
 */
export function announceGeneratedAdmin(admin: { email: string; password: string }, opts: { isTTY: boolean; dataDir: string }): string {
  if (opts.isTTY) return `\n  Admin account created: ${admin.email}\n  Password (shown once): ${admin.password}\n`;
  mkdirSync(opts.dataDir, { recursive: true });
  const file = resolve(opts.dataDir, 'admin-password.txt');
  writeFileSync(file, `${admin.email}\n${admin.password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return `\n  Admin account created: ${admin.email}\n  Its password is in ${file} (readable by this user only); delete the file once you have signed in.\n`;
}
