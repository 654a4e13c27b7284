import { sql } from 'drizzle-orm';
import { DEFAULT_SETTINGS, settingsFromRows, type Settings } from '../../core/settings';
import { announceChange, cachesOf, readThrough } from '../cache';
import type { Db, Tx } from '../db/client';
import { adminSettings } from '../db/schema';

/** Current settings, defaults filled in (from this instance's cache when it keeps one, see cache.ts). */
export async function getSettings(db: Db): Promise<Settings> {
  return readThrough(cachesOf(db), (c) => c.settings, 'all', async () => {
    const rows = await db.select({ key: adminSettings.key, value: adminSettings.value }).from(adminSettings);
    return settingsFromRows(rows);
  });
}

/** Writes a row for every setting that has none, leaving existing values alone. */
export async function ensureDefaultSettings(db: Db): Promise<void> {
  const rows = Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value: String(value) }));
  await db.insert(adminSettings).values(rows).onConflictDoNothing({ target: adminSettings.key });
  await announceChange(db, 'settings');
}

/** Upserts the given settings (conflict on the key). */
export async function saveSettings(db: Db, values: Partial<Settings>): Promise<void> {
  const rows = Object.entries(values).map(([key, value]) => ({ key, value: String(value) }));
  if (!rows.length) return;
  await db
    .insert(adminSettings)
    .values(rows)
    .onConflictDoUpdate({ target: adminSettings.key, set: { value: sql`excluded.setting_value`, updatedAt: sql`now()` } });
  // Inside the caller's transaction the notice is sent when it commits.
  await announceChange(db, 'settings');
}

/**
 * Tells every instance, this one at once, that the settings changed. A notice sent inside a
 * transaction goes out on commit, and this instance's cache is only kept by the database handle,
 * not the transaction's: after a transaction that changed settings, call this once it committed.
 */
export const settingsChanged = (db: Db) => announceChange(db, 'settings');

/**
 * Saves an admin's changes inside the caller's transaction (then `settingsChanged` after the commit) and returns what differs from
 * `before`: key → { from, to } (docs/rules.md#settings).
 */
export async function changeSettings(tx: Tx, before: Settings, changes: Partial<Settings>): Promise<Record<string, { from: unknown; to: unknown }>> {
  // The transaction runs the same statements as the database handle; its notice goes out on commit.
  await saveSettings(tx as unknown as Db, changes);
  return Object.fromEntries(
    Object.entries(changes)
      .filter(([k, v]) => before[k as keyof Settings] !== v)
      .map(([k, v]) => [k, { from: before[k as keyof Settings], to: v }]),
  );
}
