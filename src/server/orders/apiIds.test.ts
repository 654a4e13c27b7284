import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { syncCatalog } from '../catalog/service';
import { rowsOf, type Database } from '../db/client';
import { API_ID_DRAW, API_ID_MAX, API_ID_MIN, catalogServices, orders } from '../db/schema';
import { createLogger } from '../logger';
import { createTestDatabase } from '../testing/db';
import { placeOrderBody } from '../testing/orders';
import { sandboxClient } from '../testing/sandbox';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import { startDueRuns } from './dripfeed';
import type { OrdersDeps } from './service';
import { singleProvider } from '../providers';

/*
 * Reseller order ids (docs/decisions/0014-reseller-order-ids.md): drawn at random below 2^31, so
 * a reseller cannot count the shop's orders between two of theirs; a drawn id that is taken is
 * drawn again.
 */

let database: Database;
let sandbox: SandboxProvider;
let deps: OrdersDeps;
let plain: typeof catalogServices.$inferSelect;
let drip: typeof catalogServices.$inferSelect;
let customer: { id: string };

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600 });
  const provider = sandboxClient(sandbox);
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
  await syncCatalog(database.db, provider);
  const all = await database.db.select().from(catalogServices).where(eq(catalogServices.platform, 'instagram'));
  const simple = (s: typeof catalogServices.$inferSelect) => s.params.length === 0 && s.tiers.length > 0 && s.tiers[0]!.maximum >= s.amountMinimum * 2;
  plain = all.find((s) => !s.dripfeed && simple(s))!;
  drip = all.find((s) => s.dripfeed && simple(s))!;
  expect(plain && drip).toBeTruthy();
  customer = await createCustomer(database.db, { balanceMicros: 100_000_000_000 });
});
afterEach(async () => {
  // Back to the schema's draw, whatever a test put in its place.
  await database.db.execute(sql`alter table orders alter column api_id set default ${API_ID_DRAW}`);
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

const order = (tag: string, extra: Record<string, unknown> = {}) =>
  placeOrderBody(deps, customer.id, { serviceId: plain.id, link: `https://instagram.com/ids.${tag}`, quantity: plain.amountMinimum, params: {}, idempotencyKey: randomUUID(), ...extra });
const apiIdOf = async (id: string) => (await database.db.select({ apiId: orders.apiId }).from(orders).where(eq(orders.id, id)))[0]!.apiId;

/**
 * The next `times` ids drawn are `taken`; the draws after them are the schema's own again. Returns
 * how many draws were made since.
 */
async function forceTaken(taken: number, times: number): Promise<() => Promise<number>> {
  await database.db.execute(sql`create sequence if not exists api_id_draws`);
  await database.db.execute(sql`alter sequence api_id_draws restart`);
  await database.db.execute(
    sql`alter table orders alter column api_id set default (case when nextval('api_id_draws') <= ${sql.raw(String(times))} then ${sql.raw(String(taken))} else ${API_ID_DRAW} end)`,
  );
  return async () => {
    const [row] = rowsOf<{ n: string; is_called: boolean }>(await database.db.execute(sql`select last_value as n, is_called from api_id_draws`));
    return row!.is_called ? Number(row!.n) : 0;
  };
}

describe('reseller order ids', () => {
  it('consecutive orders get ids that are neither consecutive nor increasing, all below 2^31', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 24; i += 1) ids.push(await apiIdOf((await order(`seq${i}`)).id));
    for (const id of ids) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(id).toBeGreaterThanOrEqual(API_ID_MIN);
      expect(id).toBeLessThanOrEqual(API_ID_MAX);
    }
    expect(API_ID_MAX).toBe(2 ** 31 - 1);
    expect(new Set(ids).size).toBe(ids.length);
    const steps = ids.slice(1).map((id, i) => id - ids[i]!);
    expect(steps.filter((d) => Math.abs(d) <= 1000)).toEqual([]);
    expect(steps.every((d) => d > 0)).toBe(false);
    // Spread over the range, not bunched at one end: both halves are drawn from.
    const middle = (API_ID_MIN + API_ID_MAX) / 2;
    expect(ids.some((id) => id < middle) && ids.some((id) => id > middle)).toBe(true);
  });

  it('a drip-feed parent and each of its runs get ids of their own, drawn the same way', async () => {
    const parent = await order('drip', { serviceId: drip.id, link: 'https://instagram.com/ids.drip', runs: 2, interval: 1 });
    expect(await startDueRuns(deps, { minuteMs: 0 })).toBe(1);
    expect(await startDueRuns(deps, { minuteMs: 0 })).toBe(1);
    const runs = await database.db.select({ apiId: orders.apiId }).from(orders).where(eq(orders.parentId, parent.id));
    const ids = [await apiIdOf(parent.id), ...runs.map((r) => r.apiId)];
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id >= API_ID_MIN && id <= API_ID_MAX).toBe(true);
  });

  it('an order whose drawn id is taken draws again and is placed once, charged once', async () => {
    const taken = await apiIdOf((await order('taken')).id);
    const draws = await forceTaken(taken, 2);
    const placed = await order('after-taken');
    expect(await draws()).toBe(3);
    const apiId = await apiIdOf(placed.id);
    expect(apiId).not.toBe(taken);
    expect(apiId >= API_ID_MIN && apiId <= API_ID_MAX).toBe(true);
    expect(await database.db.select().from(orders).where(eq(orders.link, 'https://instagram.com/ids.after-taken'))).toHaveLength(1);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('a drip-feed run whose drawn id is taken draws again and is written once; the other due runs go on', async () => {
    const parents = [
      await order('drip-taken-a', { serviceId: drip.id, link: 'https://instagram.com/ids.drip.a', runs: 2, interval: 1 }),
      await order('drip-taken-b', { serviceId: drip.id, link: 'https://instagram.com/ids.drip.b', runs: 2, interval: 1 }),
    ];
    const taken = await apiIdOf(parents[0]!.id);
    const draws = await forceTaken(taken, 2);
    expect(await startDueRuns(deps, { minuteMs: 60_000 })).toBe(2);
    expect(await draws()).toBe(4);
    for (const p of parents) {
      const runs = await database.db.select().from(orders).where(eq(orders.parentId, p.id));
      expect(runs).toHaveLength(1);
      expect(runs[0]!.apiId).not.toBe(taken);
      expect((await database.db.select().from(orders).where(eq(orders.id, p.id)))[0]!.runsSent).toBe(1);
    }
  });
});
