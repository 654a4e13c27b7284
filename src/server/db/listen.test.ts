import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { cachesOf, enableCaches } from '../cache';
import { syncCatalog } from '../catalog/service';
import { createLogger } from '../logger';
import { startSubmissionWorker } from '../orders/worker';
import { createScratchDatabase } from '../testing/db';
import { placeOrderBody } from '../testing/orders';
import { sandboxClient } from '../testing/sandbox';
import { createCustomer } from '../testing/users';
import { LISTENER_APPLICATION_NAME, openPostgres, type Database } from './client';
import { catalogServices, orders } from './schema';
import { singleProvider } from '../providers';

/**
 * The one listening connection of a process on PostgreSQL, dropped from the server's side as a
 * failover or an idle_session_timeout would: it comes back once, closes what it lost, and tells
 * every listener that notices may have been missed.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('the listening connection (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  let sandbox: SandboxProvider;
  beforeAll(async () => {
    scratch = await createScratchDatabase('listen', url, inject('postgresTemplate') || undefined);
    database = await openPostgres(scratch.url, 4);
    sandbox = await startSandboxProvider({ orderSeconds: 600 });
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    await database?.close();
    await scratch?.drop();
  }, 30_000);

  /** The backends of this database whose last statement was a LISTEN: listening connections. */
  const listeners = () =>
    database.query<{ pid: number; application_name: string }>(
      `select pid, application_name from pg_stat_activity where datname = current_database() and query ilike 'listen%' order by pid`,
    );
  const dropListeners = () =>
    database.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'`);

  it('comes back as one connection after each of three drops, hears notices again and empties the caches', async () => {
    const stopCaches = await enableCaches(database);
    const caches = cachesOf(database.db)!;
    const heard: string[] = [];
    let reconnects = 0;
    const unlisten = await database.listen('artim_listen_test', (payload) => heard.push(payload), { onReconnect: () => reconnects++ });
    try {
      const [first, ...others] = await listeners();
      expect(others).toEqual([]);
      // Findable by its name.
      expect(first!.application_name).toBe(LISTENER_APPLICATION_NAME);

      let previous = first!.pid;
      for (let round = 1; round <= 3; round++) {
        // Filled before the drop: whatever is announced while the connection is down is missed.
        caches.settings.set('probe', { round });
        const generation = caches.generation;
        await dropListeners();
        await expect.poll(() => reconnects, { timeout: 20_000 }).toBe(round);

        const payload = `after-drop-${round}`;
        await database.notify('artim_listen_test', payload);
        await expect.poll(() => heard, { timeout: 10_000 }).toContain(payload);
        await expect.poll(async () => (await listeners()).length, { timeout: 10_000 }).toBe(1);
        const [now] = await listeners();
        expect(now!.pid).not.toBe(previous);
        expect(now!.application_name).toBe(LISTENER_APPLICATION_NAME);
        previous = now!.pid;

        expect(caches.settings.get('probe')).toBeUndefined();
        expect(caches.generation).toBeGreaterThan(generation);
      }
      // Nothing more comes up later: still one listening connection, and each notice heard once.
      await database.notify('artim_listen_test', 'last');
      await expect.poll(() => heard.filter((p) => p === 'last').length, { timeout: 10_000 }).toBe(1);
      expect(await listeners()).toHaveLength(1);
      expect(heard.filter((p) => p.startsWith('after-drop-'))).toEqual(['after-drop-1', 'after-drop-2', 'after-drop-3']);
    } finally {
      await unlisten();
      await stopCaches();
    }
  }, 90_000);

  it('wakes the submission worker once the connection is back, since its wake-up notices may be lost', async () => {
    const logger = createLogger('silent');
    const provider = sandboxClient(sandbox, { timeoutMs: 2000 });
    await syncCatalog(database.db, provider);
    const service = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'instagram' && s.params.length === 0 && s.tiers.length > 0)!;
    const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });

    // The worker of another instance: its own pool and listening connection.
    const other = await openPostgres(scratch.url, 2);
    const worker = await startSubmissionWorker({ db: other.db, providers: singleProvider(provider), logger }, other, { concurrency: 2, pollMs: 3_600_000 });
    try {
      // It has looked once (nothing waited) and sleeps for an hour unless woken.
      const idleAfterClaim = async () =>
        (
          await database.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'idle' and query ilike '%waiting as materialized%'`,
          )
        )[0]!.n;
      await expect.poll(idleAfterClaim, { timeout: 10_000 }).toBeGreaterThan(0);

      // Accepted where nobody wakes the worker: its wake-up notice was "lost".
      const order = await placeOrderBody({ db: database.db, providers: singleProvider(provider), logger }, user.id, {
        serviceId: service.id,
        link: 'https://instagram.com/listen.wake',
        quantity: service.amountMinimum,
        params: {},
        idempotencyKey: randomUUID(),
      });
      await dropListeners();
      const providerId = async () => (await database.db.select({ id: orders.providerOrderId }).from(orders).where(eq(orders.id, order.id)))[0]?.id ?? null;
      await expect.poll(providerId, { timeout: 20_000 }).not.toBeNull();
      // Counted once its send has settled, which may be just after the provider's id is stored.
      await expect.poll(() => worker.sent).toBe(1);
    } finally {
      await worker.stop();
      await other.close();
    }
  }, 90_000);
});
