import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { signIn, TEST_ORIGIN } from '../auth/testing';
import { parseUsdToMicros } from '../../core/money';
import { costOfOrderMicros } from '../../core/pricing';
import { readProviderCatalogue } from '../catalog/sources';
import type { Database } from '../db/client';
import { catalogServices, orders, providers, providerServices } from '../db/schema';
import { createLogger } from '../logger';
import { submitOrder, syncOrderStatuses, type OrdersDeps } from '../orders';
import { createProvider, registryOver, type RegisteredProvider } from '../providers';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { placeOrderBody } from '../testing/orders';
import { createCustomer } from '../testing/users';

/**
 * What an order cost, as the team's order detail shows it (docs/rules.md#what-an-order-cost): an
 * order sent to an SMM v2 sandbox panel and synced, its cost beside the charge the panel reported.
 */

let database: Database;
let sandbox: SandboxProvider;
let panel: RegisteredProvider;
let deps: OrdersDeps;
let app: Hono;
let admin: string;
let service: typeof catalogServices.$inferSelect;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ serviceCount: 40, seed: 5, clock: 'manual' });
  const [row] = await database.db.insert(providers).values({ name: 'Panel V2', protocol: 'smm-v2', url: sandbox.v2Url, keyEncrypted: 'sealed', keyHint: 'xxxx' }).returning();
  panel = { id: row!.id, name: 'Panel V2', enabled: true, client: createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 30_000 }) };
  const registry = registryOver(() => [panel]);
  deps = { db: database.db, providers: registry, logger: createLogger('silent') };
  expect((await readProviderCatalogue(database.db, panel, { isDefault: true })).imported).toBeGreaterThan(0);
  service = (await database.db.select().from(catalogServices).where(eq(catalogServices.active, true))).find((s) => s.params.length === 0 && !s.dripfeed)!;
  ({ app } = await createTestApp(database, { providers: registry }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

const get = (path: string) => app.request(path, { headers: { origin: TEST_ORIGIN, cookie: admin } });
const row = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

async function sentAndSynced(link: string, quantity: number) {
  const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
  const placed = await placeOrderBody(deps, user.id, { serviceId: service.id, link, quantity, params: {}, idempotencyKey: randomUUID() });
  const sent = await submitOrder(deps, await row(placed.id));
  expect(sent.providerOrderId).toBeTruthy();
  await syncOrderStatuses(deps);
  return row(placed.id);
}

describe("the order detail: what an order cost", () => {
  it("shows the provider, its service id, the cost, the provider's charge, whether they differ and the margin", async () => {
    const quantity = service.amountMinimum * 7;
    const o = await sentAndSynced(`https://www.instagram.com/cost_${randomUUID().slice(0, 8)}/`, quantity);
    const [bought] = await database.db.select().from(providerServices).where(and(eq(providerServices.providerId, panel.id!), eq(providerServices.serviceId, service.id)));
    const cost = costOfOrderMicros(bought!.tiers, quantity);
    const reported = parseUsdToMicros(sandbox.control.order(o.providerOrderId!)!.charge)!;
    expect(o.costMicros).toBe(cost);
    expect(o.providerChargeMicros).toBe(reported);

    const res = await get(`/api/admin/orders/${o.id}`);
    expect(res.status).toBe(200);
    const detail = await res.json();
    expect(detail.cost).toEqual({
      providerId: panel.id,
      providerName: 'Panel V2',
      providerServiceId: service.id,
      costMicros: cost,
      costRefundedMicros: 0,
      providerChargeMicros: reported,
      difference: { differenceMicros: reported - cost, flagged: false },
      marginMicros: o.chargeMicros - cost,
    });
    expect(Math.abs(reported - cost)).toBeLessThanOrEqual(10);

    // The provider charged one step of 5 decimals and a micro more than the cost: flagged.
    await database.db.update(orders).set({ providerChargeMicros: cost + 11 }).where(eq(orders.id, o.id));
    const flagged = await (await get(`/api/admin/orders/${o.id}`)).json();
    expect(flagged.cost).toMatchObject({ providerChargeMicros: cost + 11, difference: { differenceMicros: 11, flagged: true }, marginMicros: o.chargeMicros - cost });
    await database.db.update(orders).set({ providerChargeMicros: cost - 10 }).where(eq(orders.id, o.id));
    expect((await (await get(`/api/admin/orders/${o.id}`)).json()).cost.difference).toEqual({ differenceMicros: -10, flagged: false });

    // The orders list carries the margin.
    const list = await (await get(`/api/admin/orders?q=${o.number}`)).json();
    expect(list.orders.map((x: { id: string; marginMicros: number | null }) => [x.id, x.marginMicros])).toEqual([[o.id, o.chargeMicros - cost]]);
  });

  it('a partial order: the cost given back beside the refund, the charge the provider reports after its own refund', async () => {
    const quantity = service.amountMinimum * 10;
    const o = await sentAndSynced(`https://www.instagram.com/cost_${randomUUID().slice(0, 8)}/?sandbox-partial`, quantity);
    sandbox.control.advance(24 * 3600_000);
    await syncOrderStatuses(deps);
    const after = await row(o.id);
    expect(after.status).toBe('partial');
    expect(after.refundedMicros).toBeGreaterThan(0);
    expect(after.costRefundedMicros).toBeGreaterThan(0);
    const at = sandbox.control.order(o.providerOrderId!)!;
    const reported = parseUsdToMicros(at.charge)! - parseUsdToMicros(at.refund)!;
    expect(after.providerChargeMicros).toBe(reported);
    const detail = await (await get(`/api/admin/orders/${o.id}`)).json();
    expect(detail.cost).toMatchObject({
      costMicros: after.costMicros,
      costRefundedMicros: after.costRefundedMicros,
      providerChargeMicros: reported,
      difference: { differenceMicros: reported - (after.costMicros! - after.costRefundedMicros), flagged: false },
      marginMicros: after.chargeMicros - after.refundedMicros - after.costMicros! + after.costRefundedMicros,
    });
  });
});
