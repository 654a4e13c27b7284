import { randomUUID } from 'node:crypto';
import { eq, like, or } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { OrderStatus } from '../../core/orderStatus';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { catalogServices, ledgerEntries, orders, users } from '../db/schema';
import { createLogger } from '../logger';
import { singleProvider, type ProviderOrderState } from '../providers';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { debit, verifyLedger } from '../wallet/ledger';
import { refundOrder } from './refunds';
import { newOrderNumber, type OrderRow, type OrdersDeps } from './service';
import { submitPending } from './worker';
import { placeOrderBody } from '../testing/orders';
import { applyState, reconcileOrders, syncOrderStatuses } from './sync';
import { sandboxClient } from '../testing/sandbox';

let database: Database;
let sandbox: SandboxProvider;
let deps: OrdersDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 60 });
  const provider = sandboxClient(sandbox, { timeoutMs: 10_000 });
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
  await syncCatalog(database.db, provider);
});
afterEach(() => sandbox.control.reset());
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

/** An order charged `chargeMicros` for `quantity` units, sent to the provider as `providerOrderId`, as placeOrder leaves it. */
async function chargedOrder(chargeMicros = 20_580_000, quantity = 1000): Promise<OrderRow> {
  const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
  return database.db.transaction(async (tx) => {
    const [o] = await tx
      .insert(orders)
      .values({
        number: newOrderNumber(),
        userId: user.id,
        serviceId: '1',
        serviceName: 'Followers',
        platform: 'instagram',
        serviceType: 'Default',
        link: `https://instagram.com/refunds.${randomUUID()}`,
        linkKey: randomUUID(),
        quantity,
        chargeMicros,
        status: 'in_progress',
        providerOrderId: `P-${randomUUID()}`,
        submittedAt: new Date(),
        idempotencyKey: randomUUID(),
        requestHash: 'h',
      })
      .returning();
    await debit(tx, { userId: user.id, amountMicros: chargeMicros, kind: 'order_charge', reference: o!.id });
    return o!;
  });
}

const state = (status: OrderStatus, remains: number | null = null): ProviderOrderState => ({ status, remains, startCount: 10, currentCount: null, delivered: null, raw: status, charge: null, currency: null });
const reload = async (o: OrderRow) => (await database.db.select().from(orders).where(eq(orders.id, o.id)))[0]!;
const balanceOf = async (userId: string) => (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.balanceMicros;
/** What the ledger gave back for an order. */
const refundedInLedger = async (o: OrderRow) =>
  (await database.db.select().from(ledgerEntries).where(or(eq(ledgerEntries.reference, o.id), like(ledgerEntries.reference, `${o.id}:%`))))
    .filter((e) => e.kind === 'order_refund')
    .reduce((sum, e) => sum + e.amountMicros, 0);

describe('refunds of an order', () => {
  for (const final of ['refunded', 'cancelled'] as const) {
    it(`partial, then ${final}: the rest of the charge goes back (20.58 charged, 6.174 then 14.406)`, async () => {
      const o = await chargedOrder(20_580_000, 1000);
      await applyState(deps, o, state('partial', 300));
      expect((await reload(o)).refundedMicros).toBe(6_174_000);
      await applyState(deps, await reload(o), state(final, 300));
      const after = await reload(o);
      expect(after.status).toBe(final);
      expect(after.refundedMicros).toBe(20_580_000);
      expect(await refundedInLedger(o)).toBe(20_580_000);
      expect(await balanceOf(o.userId)).toBe(1_000_000_000);
      expect(await verifyLedger(database.db)).toEqual([]);
    });
  }

  it('the same partial state applied again refunds nothing more; a later one that owes more refunds the difference', async () => {
    const o = await chargedOrder(20_580_000, 1000);
    await applyState(deps, o, state('partial', 300));
    await applyState(deps, o, state('partial', 300)); // a stale copy of the order, as a duplicated sync has
    await applyState(deps, await reload(o), state('partial', 300));
    expect((await reload(o)).refundedMicros).toBe(6_174_000);
    expect(await refundedInLedger(o)).toBe(6_174_000);
    await applyState(deps, await reload(o), state('partial', 500));
    expect((await reload(o)).refundedMicros).toBe(10_290_000);
    // The provider cannot take back what was refunded.
    await applyState(deps, await reload(o), state('partial', 100));
    expect((await reload(o)).refundedMicros).toBe(10_290_000);
    expect(await refundedInLedger(o)).toBe(10_290_000);
    expect(await balanceOf(o.userId)).toBe(1_000_000_000 - 20_580_000 + 10_290_000);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('a refunded order that the provider later calls partial stays refunded in full', async () => {
    const o = await chargedOrder(20_580_000, 1000);
    await applyState(deps, o, state('refunded'));
    await applyState(deps, await reload(o), state('partial', 300));
    const after = await reload(o);
    expect([after.status, after.refundedMicros]).toEqual(['refunded', 20_580_000]);
    expect(await refundedInLedger(o)).toBe(20_580_000);
  });

  it('syncs racing with different and with equal states never refund more than the charge', async () => {
    for (let round = 0; round < 5; round++) {
      const o = await chargedOrder(20_580_000, 1000);
      // Every sync read the order before any of them applied its state.
      await Promise.all([
        applyState(deps, o, state('partial', 300)),
        applyState(deps, o, state('refunded', 300)),
        applyState(deps, o, state('partial', 300)),
        applyState(deps, o, state('cancelled')),
        applyState(deps, o, state('partial', 700)),
      ]);
      const after = await reload(o);
      expect(after.refundedMicros).toBe(20_580_000);
      expect(['refunded', 'cancelled']).toContain(after.status);
      expect(await refundedInLedger(o)).toBe(20_580_000);
    }
    const twin = await chargedOrder(20_580_000, 1000);
    await Promise.all(Array.from({ length: 6 }, () => applyState(deps, twin, state('partial', 300))));
    expect((await reload(twin)).refundedMicros).toBe(6_174_000);
    expect(await refundedInLedger(twin)).toBe(6_174_000);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('an order refunded in part by hand and then reported partial gets only what it is still owed', async () => {
    const o = await chargedOrder(20_580_000, 1000);
    await database.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(orders).where(eq(orders.id, o.id)).for('update');
      await refundOrder(tx, locked!, { amountMicros: 5_000_000, reason: 'late delivery' });
    });
    await applyState(deps, await reload(o), state('partial', 300));
    expect((await reload(o)).refundedMicros).toBe(6_174_000);
    expect(await refundedInLedger(o)).toBe(6_174_000);
  });

  it('reconciliation settles a final order that is still owed money (one written before refunds were cumulative)', async () => {
    const o = await chargedOrder(20_580_000, 1000);
    await applyState(deps, o, state('partial', 300));
    // As the earlier code left it: refunded status, only the partial amount back.
    await database.db.execute(`alter table orders drop constraint if exists orders_refund_settled` as never);
    await database.db.update(orders).set({ status: 'refunded' }).where(eq(orders.id, o.id));
    await reconcileOrders(deps);
    const after = await reload(o);
    expect([after.status, after.refundedMicros]).toEqual(['refunded', 20_580_000]);
    expect(await refundedInLedger(o)).toBe(20_580_000);
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});

describe('status sync with the sandbox provider', () => {
  it('follows a partial order that the provider refunds later and refunds the rest', async () => {
    const [service] = (await database.db.select().from(catalogServices)).filter(
      (s) => s.platform === 'instagram' && s.params.length === 0 && s.tiers.length > 0 && s.amountMinimum <= 1000,
    );
    const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
    const placed = await placeOrderBody(deps, user.id, { serviceId: service!.id, link: 'https://instagram.com/later.sandbox-partial-refund', quantity: 1000, params: {}, idempotencyKey: randomUUID() });
    // The submission worker's pass sends it.
    expect(await submitPending(deps)).toBeGreaterThanOrEqual(1);
    sandbox.control.advance(61_000);
    await syncOrderStatuses(deps);
    const partial = (await database.db.select().from(orders).where(eq(orders.id, placed.id)))[0]!;
    expect(partial.status).toBe('partial');
    expect(partial.refundedMicros).toBeGreaterThan(0);
    expect(partial.refundedMicros).toBeLessThan(partial.chargeMicros);
    sandbox.control.advance(61_000);
    await syncOrderStatuses(deps);
    await syncOrderStatuses(deps);
    const refunded = (await database.db.select().from(orders).where(eq(orders.id, placed.id)))[0]!;
    expect([refunded.status, refunded.refundedMicros]).toEqual(['refunded', refunded.chargeMicros]);
    expect(await balanceOf(user.id)).toBe(1_000_000_000);
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});
