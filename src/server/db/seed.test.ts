import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../passwords';
import { DEFAULT_SETTINGS } from '../../core/settings';
import { getSettings } from '../settings/service';
import { createTestDatabase, postgresAvailable } from '../testing/db';
import { accounts, adminSettings, userRoles, users } from './schema';
import { seed } from './seed';

const engines: ('pglite' | 'postgres')[] = ['pglite', ...(postgresAvailable() ? (['postgres'] as const) : [])];

describe.each(engines)('migrations and seed on %s', (engine) => {
  it('migrates, seeds settings and one admin, and is idempotent', async () => {
    const database = await createTestDatabase(engine, 20, { fresh: true });
    try {
      const first = await seed(database.db, {});
      expect(first.generatedAdmin?.email).toBe('admin@artim.local');
      expect(first.generatedAdmin?.password.length).toBeGreaterThanOrEqual(12);

      const second = await seed(database.db, {});
      expect(second.generatedAdmin).toBeUndefined();

      const admins = await database.db.select().from(userRoles).where(eq(userRoles.role, 'admin'));
      expect(admins).toHaveLength(1);
      const [account] = await database.db.select().from(accounts).where(eq(accounts.userId, admins[0]!.userId));
      expect(await verifyPassword({ hash: account!.password!, password: first.generatedAdmin!.password })).toBe(true);

      expect(await getSettings(database.db)).toEqual(DEFAULT_SETTINGS);
      const rows = await database.db.select().from(adminSettings);
      expect(rows.map((r) => r.key).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
    } finally {
      await database.close();
    }
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD when given and never prints them', async () => {
    const database = await createTestDatabase(engine);
    try {
      const result = await seed(database.db, { adminEmail: 'Boss@Example.com', adminPassword: 'Very-Secret-42' });
      expect(result.generatedAdmin).toBeUndefined();
      const [user] = await database.db.select().from(users).where(eq(users.email, 'boss@example.com'));
      expect(user).toBeDefined();
      expect(user!.balanceMicros).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('refuses a negative balance at the database level', async () => {
    const database = await createTestDatabase(engine);
    try {
      await seed(database.db, {});
      await expect(database.db.update(users).set({ balanceMicros: -1 })).rejects.toThrow();
    } finally {
      await database.close();
    }
  });
});
