import { randomUUID } from 'node:crypto';
import { isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { catalogServices, orders } from '../db/schema';
import { createLogger } from '../logger';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import { enableSubmissionWake, type OrdersDeps } from './service';
import { placeOrderBody } from '../testing/orders';
import { startSubmissionWorker } from './worker';
import { sandboxClient } from '../testing/sandbox';
import { singleProvider } from '../providers';

let database: Database;
let sandbox: SandboxProvider;
let deps: OrdersDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600, latencyMs: [20, 60] });
  const provider = sandboxClient(sandbox, { timeoutMs: 2000 });
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
  await syncCatalog(database.db, provider);
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

describe('submission worker', () => {
  it('sends accepted orders at once, a few at a time, each once; a refusal is refunded', async () => {
    const service = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'instagram' && s.params.length === 0 && s.tiers.length > 0)!;
    const user = await createCustomer(database.db, { balanceMicros: 10_000_000_000 });
    const worker = await startSubmissionWorker(deps, database, { concurrency: 4, pollMs: 60_000 });
    enableSubmissionWake(database, () => worker.wake());
    try {
      sandbox.control.setFault({ mode: 'refuse', actions: ['add'], times: 1, message: 'Incorrect link' });
      for (let i = 0; i < 20; i++) {
        await placeOrderBody(deps, user.id, { serviceId: service.id, link: `https://instagram.com/worker.${i}`, quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() });
      }
      // The poll is a minute away: only the wake-up of each accepted order gets them sent.
      const settled = async () =>
        (await database.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(sql`provider_order_id is not null or status = 'error'`))[0]!.n;
      for (let i = 0; i < 200 && (await settled()) < 20; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await settled()).toBe(20);
    } finally {
      await worker.stop();
    }
    const sent = await database.db.select().from(orders).where(isNotNull(orders.providerOrderId));
    expect(sent).toHaveLength(19);
    const atProvider = sandbox.control.orders().filter((o) => o.link.includes('/worker.'));
    expect(atProvider).toHaveLength(19);
    expect(new Set(sent.map((o) => o.providerOrderId))).toEqual(new Set(atProvider.map((o) => o.id)));
    const [refused] = await database.db.select().from(orders).where(sql`status = 'error'`);
    expect(refused).toMatchObject({ noteCode: 'provider_refused', providerMessage: 'Incorrect link', refundedMicros: refused!.chargeMicros });
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});
