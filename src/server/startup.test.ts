import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogServices, orders } from './db/schema';
import { parseEnv } from './env';
import { createLogger } from './logger';
import { startServer } from './server';
import { createTestDatabase } from './testing/db';
import { placeOrderBody } from './testing/orders';
import { createCustomer } from './testing/users';

const dir = mkdtempSync(join(tmpdir(), 'artim-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A web process started with JOBS=false leaves the background work to the worker (`npm run
 * worker`): an order a previous run left debited but unsent is not sent by it, nor settled;
 * a process that runs the background work sends it, once.
 */
describe('start-up with JOBS=false', () => {
  it('sends no order left unsent by a previous run; a process with the background work sends it once', async () => {
    const database = await createTestDatabase();
    const base = { NODE_ENV: 'test', PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Start-Admin-1!', SANDBOX_PROVIDER_LATENCY_MS: '0', SANDBOX_PROVIDER_RATE_LIMIT: '0', SANDBOX_SERVICE_COUNT: '25', SANDBOX_SECOND_PROVIDER: 'false' };
    const start = (jobs: boolean) => startServer({ env: parseEnv({ ...base, JOBS: String(jobs) }), database, web: 'none', logger: createLogger('silent') });
    const unsent = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
    try {
      // A run that died after the debit: the order is pending, never claimed, older than the grace period.
      const first = await start(false);
      let orderId: string;
      try {
        const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
        const svc = (await database.db.select().from(catalogServices)).find((s) => s.params.length === 0 && !s.dripfeed)!;
        const deps = { db: database.db, providers: first.deps.providers!, logger: createLogger('silent') };
        orderId = (await placeOrderBody(deps, user.id, { serviceId: svc.id, link: 'https://www.instagram.com/left_unsent/', quantity: svc.amountMinimum, params: {}, idempotencyKey: randomUUID() })).id;
      } finally {
        await first.close();
      }
      await database.db.execute(sql`update ${orders} set created_at = now() - interval '1 minute' where id = ${orderId}`);

      const web = await start(false);
      try {
        await new Promise((r) => setTimeout(r, 2_000));
        expect(await unsent(orderId)).toMatchObject({ status: 'pending', submittedAt: null, providerOrderId: null });
        expect(web.sandbox.provider!.control.orders()).toHaveLength(0);
      } finally {
        await web.close();
      }

      const worker = await start(true);
      try {
        let row = await unsent(orderId);
        for (let i = 0; i < 100 && !row.providerOrderId; i++) {
          await new Promise((r) => setTimeout(r, 100));
          row = await unsent(orderId);
        }
        expect(row.providerOrderId).not.toBeNull();
        expect(worker.sandbox.provider!.control.orders().map((o) => o.link)).toEqual(['https://www.instagram.com/left_unsent/']);
      } finally {
        await worker.close();
      }
    } finally {
      await database.close();
    }
  }, 120_000);
});
