import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import { createLogger } from '../logger';
import type { ProviderOrderState } from '../providers';
import { createProvider, singleProvider, type SmmProvider } from '../providers';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import type { OrderRow, OrdersDeps } from './service';
import { applyState, syncOrderStatuses, timesOf } from './sync';

let database: Database;
let sandbox: SandboxProvider;
let deps: OrdersDeps;
let provider: SmmProvider;
let userId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ clock: 'manual', orderSeconds: 600 });
  const createdProvider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 2000 });
  provider = createdProvider;
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
  userId = (await createCustomer(database.db)).id;
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

async function order(set: Partial<typeof orders.$inferInsert> = {}): Promise<OrderRow> {
  const [row] = await database.db
    .insert(orders)
    .values({
      number: `AR-T${randomUUID().slice(0, 8)}`,
      userId,
      serviceId: 's1',
      serviceName: 'Followers',
      platform: 'instagram',
      serviceType: 'Default',
      link: `https://instagram.com/${randomUUID().slice(0, 8)}`,
      linkKey: randomUUID(),
      quantity: 1000,
      chargeMicros: 1_000_000,
      idempotencyKey: randomUUID(),
      requestHash: 'h',
      status: 'pending',
      providerOrderId: randomUUID(),
      ...set,
    })
    .returning();
  return row!;
}

const read = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const state = (status: ProviderOrderState['status'], more: Partial<ProviderOrderState> = {}): ProviderOrderState => ({
  status,
  startCount: null,
  remains: null,
  currentCount: null,
  delivered: null,
  raw: status,
  charge: null,
  currency: null,
  ...more,
});

describe('when an order started and completed', () => {
  const t1 = new Date('2026-05-01T10:00:00Z');
  const t2 = new Date('2026-05-01T12:30:00Z');

  it('records the start when the provider first shows progress, and the completion when it completes', async () => {
    const o = await order();
    await applyState(deps, o, state('in_progress', { startCount: 120, remains: 1000 }), t1);
    const started = await read(o.id);
    expect(started).toMatchObject({ status: 'in_progress', startedAt: t1, completedAt: null });
    await applyState(deps, started, state('completed', { remains: 0 }), t2);
    expect(await read(o.id)).toMatchObject({ status: 'completed', startedAt: t1, completedAt: t2 });
  });

  it('an order completed at once starts and completes at the same moment; a partial one completes too', async () => {
    const done = await order();
    await applyState(deps, done, state('completed', { remains: 0 }), t1);
    expect(await read(done.id)).toMatchObject({ startedAt: t1, completedAt: t1 });

    const part = await order({ status: 'in_progress', startedAt: t1 });
    await applyState(deps, part, state('partial', { remains: 400 }), t2);
    expect(await read(part.id)).toMatchObject({ status: 'partial', startedAt: t1, completedAt: t2, refundedMicros: 400_000 });
  });

  it('guesses nothing for an order already moving before times were recorded', async () => {
    const old = await order({ status: 'in_progress', startCount: 50 });
    await applyState(deps, old, state('completed', { remains: 0 }), t2);
    expect(await read(old.id)).toMatchObject({ status: 'completed', startedAt: null, completedAt: t2 });
  });

  it('reads progress from counts while the status stays, and never moves a recorded time', () => {
    const waiting = { quantity: 1000, status: 'pending' as const, startCount: null, remains: null, startedAt: null, completedAt: null };
    expect(timesOf(waiting, state('pending', { startCount: 0, remains: 1000 }), t1)).toEqual({});
    expect(timesOf(waiting, state('pending', { startCount: 87 }), t1)).toEqual({ startedAt: t1 });
    expect(timesOf(waiting, state('processing', { remains: 990 }), t1)).toEqual({ startedAt: t1 });
    expect(timesOf({ ...waiting, status: 'in_progress', startedAt: t1 }, state('completed'), t2)).toEqual({ completedAt: t2 });
    expect(timesOf({ ...waiting, status: 'partial', startedAt: t1, completedAt: t1 }, state('partial', { remains: 10 }), t2)).toEqual({});
  });

  it('the status sync records both times as the provider moves the order', async () => {
    const service = (await provider.services()).find((s) => s.params.length === 0)!;
    const { providerOrderId } = await provider.add({ serviceId: service.id, link: 'https://t.me/timing.sync', quantity: service.amountMinimum, params: {} });
    const o = await order({ providerOrderId, quantity: service.amountMinimum });

    await syncOrderStatuses(deps);
    expect(await read(o.id)).toMatchObject({ status: 'pending', startedAt: null, completedAt: null });

    sandbox.control.setOrderState(providerOrderId, 'in_progress');
    await syncOrderStatuses(deps);
    const started = await read(o.id);
    expect(started.status).toBe('in_progress');
    expect(started.startedAt).toEqual(started.checkedAt);
    expect(started.completedAt).toBeNull();

    sandbox.control.setOrderState(providerOrderId, 'completed');
    await syncOrderStatuses(deps);
    const done = await read(o.id);
    expect(done).toMatchObject({ status: 'completed', startedAt: started.startedAt });
    expect(done.completedAt).toEqual(done.checkedAt);
  });
});
