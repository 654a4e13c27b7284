import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../testing/db';
import { changeSettings, ensureDefaultSettings, getSettings } from './service';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await ensureDefaultSettings(database.db);
});
afterAll(() => database.close());

describe('changing settings', () => {
  it('saves the changes and tells only what differs from before', async () => {
    const before = await getSettings(database.db);
    const diff = await database.db.transaction((tx) => changeSettings(tx, before, { site_name: 'Changed Name', contact_email: before.contact_email }));
    expect(diff).toEqual({ site_name: { from: before.site_name, to: 'Changed Name' } });
    expect((await getSettings(database.db)).site_name).toBe('Changed Name');
  });
});
