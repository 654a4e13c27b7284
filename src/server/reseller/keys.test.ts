import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { apiAccessBlockedAmong, setApiAccess } from './keys';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('API access of many customers', () => {
  it('names those among the given customers whose access is turned off', async () => {
    const [a, b, c] = await Promise.all([createCustomer(database.db), createCustomer(database.db), createCustomer(database.db)]);
    await setApiAccess(database.db, a.id, false, c.id);
    await setApiAccess(database.db, b.id, false, c.id);
    expect(await apiAccessBlockedAmong(database.db, [a.id, c.id])).toEqual(new Set([a.id]));
    expect(await apiAccessBlockedAmong(database.db, [])).toEqual(new Set());
    await setApiAccess(database.db, a.id, true, c.id);
    expect(await apiAccessBlockedAmong(database.db, [a.id, b.id, c.id])).toEqual(new Set([b.id]));
  });
});
