import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { priceOrder } from '../../core/pricing';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { catalogServices, orders, users } from '../db/schema';
import { createLogger } from '../logger';
import { singleProvider, createProvider } from '../providers';
import { createTestDatabase } from '../testing/db';
import { placeOrderBody } from '../testing/orders';
import { sandboxClient } from '../testing/sandbox';
import { createCustomer } from '../testing/users';
import { verifyLedger } from '../wallet/ledger';
import { startDueRuns } from './dripfeed';
import { requestCancel } from './cancels';
import { type OrdersDeps } from './service';
import { submitPending } from './worker';
import { syncOrderStatuses } from './sync';

/**
 * A drip-feed whose provider drip-feeds the service itself (SMM v2, `dripfeed: true`) goes to the
 * provider as ONE order with runs and interval and is followed by its status; with a provider
 * that has no drip-feed (the QQTube-style API) its runs are still sent one by one.
 */

let database: Database;
let sandbox: SandboxProvider;
let v2: OrdersDeps;
let qqtube: OrdersDeps;
type Service = typeof catalogServices.$inferSelect;
let drip: Service;
let dripCancel: Service;

const logger = createLogger('silent');
/** A run takes 100 s at the sandbox and the next starts 100 "minutes" of 1 s later. */
const RUN_MS = 100_000;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ clock: 'manual', orderSeconds: RUN_MS / 1000, dripMinuteMs: 1000, seed: 5 });
  const v2Client = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 30_000 });
  v2 = { db: database.db, providers: singleProvider(v2Client), logger };
  qqtube = { db: database.db, providers: singleProvider(sandboxClient(sandbox)), logger };
  await syncCatalog(database.db, v2Client);
  const all = await database.db.select().from(catalogServices);
  const plain = (s: Service) => s.dripfeed && s.params.length === 0 && s.platform === 'youtube';
  drip = all.find((s) => plain(s) && !s.cancel)!;
  dripCancel = all.find((s) => plain(s) && s.cancel)!;
  expect(drip).toBeDefined();
  expect(dripCancel).toBeDefined();
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

let linkNo = 0;
const link = (tag: string) => `https://www.youtube.com/watch?v=${tag}${Date.now().toString(36)}${++linkNo}`;
const dripBody = (s: Service, tag: string) => ({ serviceId: s.id, link: link(tag), quantity: s.amountMinimum * 10, params: {}, idempotencyKey: randomUUID(), runs: 3, interval: 100 });
const row = async (id: string) => (await database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const balanceOf = async (userId: string) => (await database.db.select().from(users).where(eq(users.id, userId)))[0]!.balanceMicros;
const chargeOf = (s: Service) => 3 * priceOrder(s.tiers, s.amountMinimum * 10, { serviceFeePercent: 0, baseFee: 0 }).micros;

describe('a drip-feed at a provider that drip-feeds', () => {
  it('is sent as ONE order with runs and interval, followed by its status through every run, and nothing is refunded', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000_000 });
    const body = dripBody(drip, 'whole');
    const placed = await placeOrderBody(v2, user.id, body);
    expect(placed).toMatchObject({ status: 'pending', quantity: body.quantity * 3, chargeMicros: chargeOf(drip), drip: { runs: 3, runsSent: 0 } });
    expect(await startDueRuns(v2, { minuteMs: 1 })).toBe(0); // no runs of its own

    const adds = sandbox.control.calls()['smm-v2:add'] ?? 0;
    expect(await submitPending(v2)).toBe(1);
    expect(sandbox.control.calls()['smm-v2:add']).toBe(adds + 1);
    const sent = await row(placed.id);
    expect(sent).toMatchObject({ upstreamDrip: true, runsSent: 3, nextRunAt: null, status: 'pending' });
    expect(sandbox.control.order(sent.providerOrderId!)).toMatchObject({ quantity: body.quantity * 3, runs: 3, interval: 100, link: body.link });
    expect(await database.db.select().from(orders).where(eq(orders.parentId, placed.id))).toEqual([]);

    // Run 1 done and run 2 under way: in progress, with what is left of all three runs.
    sandbox.control.advance(RUN_MS + RUN_MS / 2);
    await syncOrderStatuses(v2);
    const midway = await row(placed.id);
    expect(midway.status).toBe('in_progress');
    expect(midway.remains).toBeGreaterThan(body.quantity);
    expect(midway.remains).toBeLessThan(body.quantity * 2);

    sandbox.control.advance(RUN_MS / 2);
    await syncOrderStatuses(v2);
    expect((await row(placed.id)).status).toBe('in_progress'); // the last run still to come
    sandbox.control.advance(RUN_MS);
    await syncOrderStatuses(v2);
    expect(await row(placed.id)).toMatchObject({ status: 'completed', remains: 0, refundedMicros: 0 });
    expect(await balanceOf(user.id)).toBe(100_000_000_000 - chargeOf(drip));
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('gives back what the provider did not deliver of the whole, once, within its charge', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000_000 });
    const body = { ...dripBody(drip, 'part'), link: `${link('part')}&sandbox-partial` };
    const placed = await placeOrderBody(v2, user.id, body);
    await submitPending(v2);
    const { providerOrderId } = await row(placed.id);
    sandbox.control.setOrderState(providerOrderId!, 'partial', body.quantity * 2); // one run's worth not delivered
    await syncOrderStatuses(v2);
    await syncOrderStatuses(v2);
    const charge = chargeOf(drip);
    expect(await row(placed.id)).toMatchObject({ status: 'partial', remains: body.quantity, refundedMicros: Math.floor(charge / 3) });
    expect(await balanceOf(user.id)).toBe(100_000_000_000 - charge + Math.floor(charge / 3));
    // The provider refunds the rest later: the whole charge back, never more.
    sandbox.control.setOrderState(providerOrderId!, 'refunded', body.quantity * 2);
    await syncOrderStatuses(v2);
    expect(await row(placed.id)).toMatchObject({ status: 'refunded', refundedMicros: charge });
    expect(await balanceOf(user.id)).toBe(100_000_000_000);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('is cancelled at the provider like any order, keeping what was delivered', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000_000 });
    const body = dripBody(dripCancel, 'cancel');
    const placed = await placeOrderBody(v2, user.id, body);
    await submitPending(v2);
    sandbox.control.advance(RUN_MS + 1000); // the first run delivered
    const after = await requestCancel(v2, await row(placed.id), 'site');
    const charge = chargeOf(dripCancel);
    expect(after.status).toBe('partial');
    expect(after.remains).toBeLessThanOrEqual(body.quantity * 2);
    expect(after.refundedMicros).toBe(Math.floor((charge * after.remains!) / (body.quantity * 3)));
    expect(sandbox.control.calls()['smm-v2:cancel']).toBeGreaterThanOrEqual(1);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('is a drip-feed of runs sent one by one where the provider has no drip-feed (QQTube-style)', async () => {
    const user = await createCustomer(database.db, { balanceMicros: 100_000_000_000 });
    const placed = await placeOrderBody(qqtube, user.id, dripBody(drip, 'runs'));
    expect(placed.status).toBe('running');
    expect(await row(placed.id)).toMatchObject({ upstreamDrip: false });
    const adds = sandbox.control.calls()['qqtube:add'] ?? 0;
    expect(await submitPending(qqtube)).toBe(0); // the parent itself is never sent
    expect(await startDueRuns(qqtube, { minuteMs: 1 })).toBe(1);
    expect(await submitPending(qqtube)).toBe(1);
    expect(sandbox.control.calls()['qqtube:add']).toBe(adds + 1);
    const [run] = await database.db.select().from(orders).where(eq(orders.parentId, placed.id));
    expect(sandbox.control.order(run!.providerOrderId!)).toMatchObject({ quantity: placed.quantity / 3 });
    expect(sandbox.control.order(run!.providerOrderId!)?.runs).toBeUndefined();
  });
});
