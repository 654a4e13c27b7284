import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { Database } from '../db/client';
import { orders } from '../db/schema';
import { createLogger } from '../logger';
import { singleProvider, createProvider, type SmmProvider } from '../providers';
import { parseUsdToMicros } from '../../core/money';
import { costOfOrderMicros } from '../../core/pricing';
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

describe('pages of a pass', () => {
  it('asks for the next page while the answers of the one before are awaited, and checks every order once', async () => {
    let asking = 0;
    let most = 0;
    const asked: string[][] = [];
    const stub = {
      status: async (ids: string[]) => {
        asked.push(ids);
        most = Math.max(most, ++asking);
        await new Promise((r) => setTimeout(r, 100));
        asking--;
        return new Map(ids.map((id) => [id, { status: 'in_progress' as const, startCount: 0, remains: 10, currentCount: null, delivered: null, raw: 'In progress', charge: null, currency: null }]));
      },
    } as unknown as SmmProvider;
    const user = await createCustomer(database.db);
    const rows = await database.db
      .insert(orders)
      .values(
        Array.from({ length: 7 }, (_, i) => {
          const key = randomUUID();
          return { number: `AR-P${key.slice(0, 8).toUpperCase()}`, userId: user.id, serviceId: '1', serviceName: 'Followers', platform: 'telegram', serviceType: 'Default', link: `https://t.me/pages.${key}`, linkKey: `t.me/pages.${key}`, quantity: 10, chargeMicros: 1_000_000, idempotencyKey: key, requestHash: 'h', status: 'in_progress' as const, providerOrderId: `pages-${i}` };
        }),
      )
      .returning({ id: orders.id });
    const ids = rows.map((r) => r.id);
    // Only these orders are due: the rest were checked now.
    await database.db.update(orders).set({ checkedAt: new Date(Date.now() + 60_000) }).where(sql`${orders.id} <> all(${`{${ids.join(',')}}`}::uuid[])`);

    const pass = await syncOrderStatuses({ ...deps, providers: singleProvider(stub) }, { page: 2 });
    expect(pass.checked).toBe(7);
    expect(asked).toHaveLength(4);
    expect(asked.flat().sort()).toEqual(Array.from({ length: 7 }, (_, i) => `pages-${i}`));
    expect(most).toBe(2);
    const [counted] = await database.db.select({ unchecked: sql<number>`count(*) filter (where checked_at is null)::int` }).from(orders).where(sql`${orders.id} = any(${`{${ids.join(',')}}`}::uuid[])`);
    expect(counted!.unchecked).toBe(0);
  });
});

describe("the provider's charge", () => {
  async function sentOrder(providerOrderId: string, quantity: number, serviceId: string, costMicros: number | null, status: 'pending' | 'in_progress' = 'pending') {
    const user = await createCustomer(database.db);
    const key = randomUUID();
    const [row] = await database.db
      .insert(orders)
      .values({ number: `AR-C${key.slice(0, 8).toUpperCase()}`, userId: user.id, serviceId, serviceName: 'Followers', platform: 'telegram', serviceType: 'Default', link: `https://t.me/charge.${key}`, linkKey: `t.me/charge.${key}`, quantity, chargeMicros: 2_000_000, costMicros, idempotencyKey: key, requestHash: 'h', status, providerOrderId })
      .returning();
    return row!;
  }
  const read = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

  it('stores the charge a v2 panel reports, exactly in micro-dollars, whether the status moved or not', async () => {
    const service = (await provider.services()).find((s) => s.params.length === 0)!;
    const quantity = service.amountMinimum * 3;
    const quiet = await provider.add({ serviceId: service.id, link: `https://t.me/charge.quiet.${randomUUID()}`, quantity, params: {} });
    const moved = await provider.add({ serviceId: service.id, link: `https://t.me/charge.moved.${randomUUID()}`, quantity, params: {} });
    const cost = costOfOrderMicros(service.tiers, quantity);
    const a = await sentOrder(quiet.providerOrderId, quantity, service.id, cost, 'pending');
    const b = await sentOrder(moved.providerOrderId, quantity, service.id, cost, 'in_progress');
    await syncOrderStatuses(deps);
    const reported = parseUsdToMicros(sandbox.control.order(quiet.providerOrderId)!.charge)!;
    expect(reported).toBeGreaterThan(0);
    expect((await read(a.id)).providerChargeMicros).toBe(reported);
    expect((await read(b.id)).providerChargeMicros).toBe(parseUsdToMicros(sandbox.control.order(moved.providerOrderId)!.charge));
    expect(Math.abs(reported - cost)).toBeLessThanOrEqual(10);
  });

  it('leaves the charge as it was when it is not in USD or not an amount, and logs each kind once', async () => {
    let reply = { charge: '1.25', currency: 'EUR' as string | null };
    const stub = {
      status: async (ids: string[]) => new Map(ids.map((id) => [id, { status: 'pending' as const, startCount: 0, remains: 10, currentCount: null, delivered: null, raw: 'Pending', ...reply }])),
    } as unknown as SmmProvider;
    const logger = createLogger('silent');
    const warn = vi.spyOn(logger, 'warn');
    const stubDeps = { ...deps, providers: singleProvider(stub), logger };
    const a = await sentOrder(`stub-${randomUUID()}`, 10, '1', 1_000_000);
    const b = await sentOrder(`stub-${randomUUID()}`, 10, '1', 1_000_000);
    await database.db.update(orders).set({ providerChargeMicros: 999_999 }).where(eq(orders.id, b.id));
    const only = async () => {
      // Only these two orders are due: the rest were checked now.
      await database.db.update(orders).set({ checkedAt: new Date(Date.now() + 60_000) }).where(sql`${orders.id} not in (${a.id}, ${b.id})`);
      await database.db.update(orders).set({ checkedAt: null }).where(sql`${orders.id} in (${a.id}, ${b.id})`);
      await syncOrderStatuses(stubDeps);
    };
    await only();
    await only();
    expect([(await read(a.id)).providerChargeMicros, (await read(b.id)).providerChargeMicros]).toEqual([null, 999_999]);
    expect(warn.mock.calls.filter(([, msg]) => String(msg).includes('not in USD'))).toHaveLength(1);
    reply = { charge: 'about 1', currency: 'USD' };
    await only();
    await only();
    expect([(await read(a.id)).providerChargeMicros, (await read(b.id)).providerChargeMicros]).toEqual([null, 999_999]);
    expect(warn.mock.calls.filter(([, msg]) => String(msg).includes('not an amount'))).toHaveLength(1);
    reply = { charge: '1.25', currency: null };
    await only();
    expect([(await read(a.id)).providerChargeMicros, (await read(b.id)).providerChargeMicros]).toEqual([1_250_000, 1_250_000]);
  });
});
