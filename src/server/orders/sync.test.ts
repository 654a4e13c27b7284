import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import { createLogger } from '../logger';
import { singleProvider, createProvider, type SmmProvider } from '../providers';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import type { OrdersDeps } from './service';
import { syncOrderStatuses } from './sync';

let database: Database;
let sandbox: SandboxProvider;
let provider: SmmProvider;
let deps: OrdersDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 3600 });
  provider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 2000 });
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

describe('status sync at scale', () => {
  it('asks 250 orders in three batched calls, oldest-checked first, and backs off orders that have not moved', async () => {
    const service = (await provider.services()).find((s) => s.params.length === 0)!;
    const user = await createCustomer(database.db);
    const ids: string[] = [];
    for (let i = 0; i < 250; i++) ids.push((await provider.add({ serviceId: service.id, link: `https://t.me/sync.scale.${i}`, quantity: service.amountMinimum, params: {} })).providerOrderId);
    sandbox.control.advance(15 * 60_000); // in progress at the provider
    await database.db.insert(orders).values(
      ids.map((providerOrderId, i) => ({
        number: `AR-SYNC${String(i).padStart(5, '0')}`,
        userId: user.id,
        serviceId: service.id,
        serviceName: service.name,
        platform: 'telegram',
        serviceType: service.type,
        link: `https://t.me/sync.scale.${i}`,
        linkKey: `t.me/sync.scale.${i}`,
        quantity: service.amountMinimum,
        chargeMicros: 1_000_000,
        idempotencyKey: randomUUID(),
        requestHash: 'h',
        status: 'in_progress' as const,
        providerOrderId,
      })),
    );
    sandbox.control.reset();

    const pass = await syncOrderStatuses(deps);
    expect(pass.checked).toBe(250);
    expect(sandbox.control.calls()['smm-v2:status']).toBe(3);
    const [counted] = await database.db.select({ unchecked: sql<number>`count(*) filter (where checked_at is null)::int`, counts: sql<number>`count(remains)::int` }).from(orders);
    expect(counted).toEqual({ unchecked: 0, counts: 250 });

    // The recurring pass: nothing is due right after a check.
    expect((await syncOrderStatuses(deps, { olderThanMs: 10_000 })).checked).toBe(0);
    // Checked 15 s ago, in its status for a moment only: due again.
    await database.db.update(orders).set({ checkedAt: sql`now() - interval '15 seconds'`, updatedAt: sql`now() - interval '16 seconds'` });
    expect((await syncOrderStatuses(deps, { olderThanMs: 10_000 })).checked).toBe(250);
    // Unmoved for an hour when last checked 15 s ago: it waits (half of that, at most 10 minutes).
    await database.db.update(orders).set({ checkedAt: sql`now() - interval '15 seconds'`, updatedAt: sql`now() - interval '1 hour'` });
    expect((await syncOrderStatuses(deps, { olderThanMs: 10_000 })).checked).toBe(0);
    await database.db.update(orders).set({ checkedAt: sql`now() - interval '11 minutes'` });
    const oldest = await syncOrderStatuses(deps, { olderThanMs: 10_000, limit: 100 });
    expect(oldest.checked).toBe(100);
  });
});
