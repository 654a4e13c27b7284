import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { AppError } from '../../core/errors';
import { REFILL_COOLDOWN_MS, REFILL_REFUSAL_TEXT } from '../../core/refill';
import type { Database } from '../db/client';
import { catalogServices, orderRefills, orders, providerServices, providers } from '../db/schema';
import { createLogger } from '../logger';
import type { OrderRow, OrdersDeps } from '../orders';
import { createProvider, singleProvider, type SmmProvider } from '../providers';
import { createTestDatabase } from '../testing/db';
import { createCustomer } from '../testing/users';
import { actionsOf, requestRefill } from './actions';

let database: Database;
let sandbox: SandboxProvider;
let deps: OrdersDeps;
let provider: SmmProvider;
let serviceId: string;
let userId: string;
let otherId: string;

const DAY = 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ clock: 'manual', orderSeconds: 60 });
  const createdProvider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 2000 });
  provider = createdProvider;
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
  const service = (await provider.services()).find((s) => s.refill && s.params.length === 0)!;
  serviceId = service.id;
  await database.db.insert(catalogServices).values({
    id: service.id,
    platform: 'instagram',
    name: service.name,
    type: service.type,
    amountMinimum: service.amountMinimum,
    amountIncrement: 1,
    tiers: [],
    params: [],
    refill: true,
    refillDays: 30,
  });
  userId = (await createCustomer(database.db)).id;
  otherId = (await createCustomer(database.db)).id;
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

/** A completed order, sent and completed at the sandbox. */
async function completed(at: { createdAt: Date; completedAt: Date | null }, linkKey = randomUUID()): Promise<OrderRow> {
  const { providerOrderId } = await provider.add({ serviceId, link: `https://instagram.com/${linkKey}`, quantity: 100, params: {} });
  sandbox.control.setOrderState(providerOrderId, 'completed');
  return placed({ ...at, linkKey, status: 'completed', providerOrderId });
}

async function placed(set: Partial<typeof orders.$inferInsert> & { linkKey: string }): Promise<OrderRow> {
  const [row] = await database.db
    .insert(orders)
    .values({
      number: `AR-R${randomUUID().slice(0, 8)}`,
      userId,
      serviceId,
      serviceName: 'Followers',
      platform: 'instagram',
      serviceType: 'Default',
      link: `https://instagram.com/${set.linkKey}`,
      quantity: 100,
      chargeMicros: 1_000_000,
      idempotencyKey: randomUUID(),
      requestHash: 'h',
      ...set,
    })
    .returning();
  return row!;
}

async function refusal(o: OrderRow, now: Date): Promise<unknown> {
  try {
    await requestRefill(deps, o, 'site', now);
    return null;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { code: err.code, message: err.message, ...err.details };
  }
}

describe('refill rules that cannot be gamed', () => {
  it('counts the 30-day window from completion: an order placed 40 days ago and completed 10 days ago may be refilled', async () => {
    const now = new Date();
    const o = await completed({ createdAt: new Date(now.getTime() - 40 * DAY), completedAt: new Date(now.getTime() - 10 * DAY) });
    expect((await actionsOf(database.db, [o], now))[o.id]).toMatchObject({ canRefill: true, refillUntil: new Date(now.getTime() + 20 * DAY).toISOString() });
    expect(await refusal(o, now)).toBeNull();

    const ended = await completed({ createdAt: new Date(now.getTime() - 40 * DAY), completedAt: new Date(now.getTime() - 31 * DAY) });
    expect(await refusal(ended, now)).toMatchObject({ code: 'REFILL_NOT_ALLOWED', reason: 'period_ended', message: REFILL_REFUSAL_TEXT.period_ended });
    // Completed before completions were recorded: from placement, as before.
    const old = await completed({ createdAt: new Date(now.getTime() - 40 * DAY), completedAt: null });
    expect(await refusal(old, now)).toMatchObject({ reason: 'period_ended' });
  });

  it('keeps a cooldown after a refill the provider took, and none after one it refused', async () => {
    const o = await completed({ createdAt: new Date(Date.now() - 3 * DAY), completedAt: new Date(Date.now() - 2 * DAY) });
    const first = await requestRefill(deps, o, 'site');
    await database.db.update(orderRefills).set({ status: 'completed' }).where(eq(orderRefills.id, first.id));
    const soon = new Date(first.createdAt.getTime() + REFILL_COOLDOWN_MS - 60_000);
    expect(await refusal(o, soon)).toMatchObject({ code: 'REFILL_NOT_ALLOWED', reason: 'cooldown', hours: 24, message: REFILL_REFUSAL_TEXT.cooldown });
    expect((await actionsOf(database.db, [o], soon))[o.id]!.canRefill).toBe(false);
    const later = new Date(first.createdAt.getTime() + REFILL_COOLDOWN_MS);
    expect((await actionsOf(database.db, [o], later))[o.id]!.canRefill).toBe(true);
    expect(await refusal(o, later)).toBeNull();

    // The provider refuses a refill: the next may be asked for at once.
    const other = await completed({ createdAt: new Date(Date.now() - 3 * DAY), completedAt: new Date(Date.now() - 2 * DAY) });
    await database.db.insert(orderRefills).values({ orderId: other.id, userId, source: 'site', status: 'rejected', providerStatus: 'no' });
    expect(await refusal(other, new Date())).toBeNull();
  });

  it('refuses once a later order, of any customer, targets the same link on the same platform', async () => {
    const now = new Date();
    const link = randomUUID();
    const o = await completed({ createdAt: new Date(now.getTime() - 5 * DAY), completedAt: new Date(now.getTime() - 4 * DAY) }, link);
    // Neither an earlier order, one on another platform, nor a later one refunded in full counts.
    await placed({ linkKey: link, createdAt: new Date(now.getTime() - 6 * DAY), status: 'completed' });
    await placed({ linkKey: link, createdAt: new Date(now.getTime() - 1 * DAY), status: 'completed', platform: 'tiktok' });
    await placed({ linkKey: link, createdAt: new Date(now.getTime() - 1 * DAY), status: 'refunded', refundedMicros: 1_000_000, userId: otherId });
    expect((await actionsOf(database.db, [o], now))[o.id]!.canRefill).toBe(true);

    await placed({ linkKey: link, createdAt: new Date(now.getTime() - 1 * DAY), status: 'in_progress', userId: otherId });
    expect((await actionsOf(database.db, [o], now))[o.id]!.canRefill).toBe(false);
    expect(await refusal(o, now)).toMatchObject({ code: 'REFILL_NOT_ALLOWED', reason: 'later_order', message: REFILL_REFUSAL_TEXT.later_order });
  });

  it('follows the provider that holds the order: refused as not offered there, asked of it when that provider refills it', async () => {
    const now = new Date();
    // A second provider lists the service without refills (as a protocol without refills does).
    const [other] = await database.db.insert(providers).values({ name: `No refills ${randomUUID().slice(0, 6)}`, protocol: 'qqtube', url: sandbox.v2Url, keyEncrypted: 'sealed', keyHint: 'xxxx' }).returning();
    const terms = { platform: 'instagram', name: 'Followers', type: 'Default', amountMinimum: 10, amountIncrement: 1, tiers: [], params: [] };
    await database.db.insert(providerServices).values({ ...terms, providerId: other!.id, serviceId: 'q-77', refill: false });
    const moved = await completed({ createdAt: new Date(now.getTime() - 3 * DAY), completedAt: new Date(now.getTime() - 2 * DAY) });
    await database.db.update(orders).set({ providerId: other!.id, providerServiceId: 'q-77' }).where(eq(orders.id, moved.id));
    const [held] = await database.db.select().from(orders).where(eq(orders.id, moved.id));
    expect((await actionsOf(database.db, [held!], now))[held!.id]).toMatchObject({ canRefill: false, refillUntil: null });
    expect(await refusal(held!, now)).toMatchObject({ code: 'REFILL_NOT_ALLOWED', reason: 'not_offered' });
    expect(await database.db.select().from(orderRefills).where(eq(orderRefills.orderId, held!.id))).toEqual([]);

    // The same provider service with refills of 7 days: offered, for its own period.
    await database.db.update(providerServices).set({ refill: true, refillDays: 7 }).where(eq(providerServices.serviceId, 'q-77'));
    expect((await actionsOf(database.db, [held!], now))[held!.id]).toMatchObject({ canRefill: true, refillUntil: new Date(held!.completedAt!.getTime() + 7 * DAY).toISOString() });
  });

  it('words a provider’s refusal by the shop’s code when it knows the words, and keeps the provider’s own otherwise', async () => {
    const now = new Date();
    const o = await completed({ createdAt: new Date(now.getTime() - 3 * DAY), completedAt: new Date(now.getTime() - 2 * DAY) });
    // The sandbox refuses refills of orders it does not hold as completed.
    sandbox.control.setOrderState(o.providerOrderId!, 'in_progress');
    // (The provider's words stay in the details; the reseller API answers the code's own wording.)
    expect(await refusal(o, now)).toMatchObject({ code: 'REFILL_NOT_ALLOWED', reason: 'not_offered', message: 'Refill is not available for this order' });
    await expect(requestRefill(deps, o, 'api', now)).rejects.toMatchObject({ message: REFILL_REFUSAL_TEXT.not_offered });

    const unknownToIt = await placed({ linkKey: randomUUID(), status: 'completed', providerOrderId: '999999999', createdAt: new Date(now.getTime() - 3 * DAY), completedAt: new Date(now.getTime() - 2 * DAY) });
    expect(await refusal(unknownToIt, now)).toMatchObject({ code: 'REFILL_NOT_ALLOWED', reason: 'provider', message: 'Incorrect order ID' });
  });
});
