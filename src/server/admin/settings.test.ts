import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, TEST_ORIGIN } from '../auth/testing';
import { enableCaches } from '../cache';
import type { Database } from '../db/client';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';

let database: Database;
let app: Hono;
let admin: string;
let stopCaches: (() => Promise<void>) | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await createTestApp(database));
  // The instance's caches without their listening connection: what this instance reads after a
  // change can come only from forgetting it here, never from the notice arriving in time.
  const deaf = Object.assign(Object.create(database) as Database, { listen: async () => async () => {} });
  stopCaches = await enableCaches(deaf);
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
});
afterAll(async () => {
  await stopCaches?.();
  await database.close();
});

const headers = () => ({ origin: TEST_ORIGIN, 'content-type': 'application/json', cookie: admin });
const put = (body: object) => app.request('/api/admin/settings', { method: 'PUT', headers: headers(), body: JSON.stringify(body) });

describe('an admin changing settings on an instance that caches them', () => {
  it('reads the change back at once: the answer, the public settings and the maintenance guard', async () => {
    // Fill the cache with the values before the change.
    expect((await (await app.request('/api/settings')).json()).site_name).toBe('Artım');
    const changed = await put({ site_name: 'Artım Baku', maintenance_mode: true });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ site_name: 'Artım Baku', maintenance_mode: true });
    expect((await (await app.request('/api/settings')).json()).site_name).toBe('Artım Baku');

    const back = await put({ site_name: 'Artım', maintenance_mode: false });
    expect(await back.json()).toMatchObject({ site_name: 'Artım', maintenance_mode: false });
    // A customer's write is not held back by a maintenance this instance still remembers.
    const write = await app.request('/api/orders', { method: 'POST', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' }, body: '{}' });
    expect(write.status).not.toBe(503);
  });
});
