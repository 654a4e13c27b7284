import { afterAll, beforeAll } from 'vitest';
import type { AppDeps } from '../app';
import type { Database } from '../db/client';
import { createTestApp } from './app';
import { createTestDatabase } from './db';

export type TestShop = { database: Database } & Awaited<ReturnType<typeof createTestApp>>;

/**
 * A test file's shop: before its tests, a database of its own (a copy of the migrated one) and
 * the app on it, handed to `ready`; after them, the database is closed. `overrides` replace parts
 * of the app's dependencies (a renderer, a realtime hub …).
 */
export function useTestShop(ready: (shop: TestShop) => void, overrides: Partial<AppDeps> = {}) {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    ready({ database, ...(await createTestApp(database, overrides)) });
  });
  afterAll(() => database?.close());
}
