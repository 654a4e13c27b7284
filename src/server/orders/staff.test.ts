import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../core/orderStatus';
import type { Database } from '../db/client';
import { orders, users } from '../db/schema';
import { createLogger } from '../logger';
import { singleProvider, type SmmProvider } from '../providers';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { debit, verifyLedger } from '../wallet';
import { newOrderNumber, type OrderRow } from './service';
import { prepareResubmit, refundByStaff } from './staff';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function chargedOrder(status: OrderStatus, chargeMicros = 10_000_000): Promise<OrderRow> {
  const user = await createCustomer(database.db, { balanceMicros: 100_000_000 });
  return database.db.transaction(async (tx) => {
    const [o] = await tx
      .insert(orders)
      .values({ number: newOrderNumber(), userId: user.id, serviceId: '1', serviceName: 'Followers', platform: 'instagram', serviceType: 'Default', link: `https://instagram.com/${randomUUID()}`, linkKey: randomUUID(), quantity: 100, chargeMicros, status, idempotencyKey: randomUUID(), requestHash: 'h' })
      .returning();
    await debit(tx, { userId: user.id, amountMicros: chargeMicros, kind: 'order_charge', reference: o!.id });
    return o!;
  });
}
const balanceOf = async (userId: string) => (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.balanceMicros;

describe('staff actions on an order', () => {
  it('a refund of all that is left settles an order of unknown state as refunded; nothing left is refused', async () => {
    const o = await chargedOrder('unknown');
    const partial = await database.db.transaction((tx) => refundByStaff(tx, o.id, { amountMicros: 3_000_000, reason: 'partly' }));
    expect([partial.order.status, partial.order.refundedMicros]).toEqual(['unknown', 3_000_000]);
    const rest = await database.db.transaction((tx) => refundByStaff(tx, o.id, { reason: 'the rest' }));
    expect([rest.order.status, rest.refundedMicros, rest.order.refundedMicros]).toEqual(['refunded', 7_000_000, 10_000_000]);
    expect(await balanceOf(o.userId)).toBe(100_000_000);
    await expect(database.db.transaction((tx) => refundByStaff(tx, o.id, { reason: 'again' }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await verifyLedger(database.db)).filter((r) => r.userId === o.userId)).toEqual([]);
  });

  it('only an order of unknown state is readied to be sent again, and never without asking the provider', async () => {
    let asked = 0;
    const provider = { findOrder: async () => (asked++, null) } as unknown as SmmProvider;
    const deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
    await expect(prepareResubmit(deps, await chargedOrder('in_progress'))).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(asked).toBe(0);
    const unknown = await chargedOrder('unknown');
    const step = await prepareResubmit(deps, unknown);
    expect(asked).toBe(1);
    expect('reset' in step && [step.reset.status, step.reset.submittedAt]).toEqual(['pending', null]);
  });
});
