import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { eq, inArray } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { post, signUpUser } from '../auth/testing';
import { syncCatalog } from '../catalog';
import type { Database } from '../db/client';
import { catalogServices, orders } from '../db/schema';
import { createLogger } from '../logger';
import { claimPending, enableSubmissionWake, sendWaitingCancels, startSubmissionWorker, submitClaimed, submitPending, type OrderRow, type OrdersDeps } from '../orders';
import { singleProvider, createProvider } from '../providers';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { placeOrderBody } from '../testing/orders';
import { credit, verifyLedger } from '../wallet/ledger';

/**
 * Cancels through the reseller API over HTTP, as a panel sends them, against the sandbox
 * provider speaking SMM API v2 (its clock stands still, so an order delivers nothing on its own):
 * right after `add`, before the order is sent and while it is being sent, and many at once.
 */
let database: Database;
let sandbox: SandboxProvider;
let deps: OrdersDeps;
let app: Hono;
let server: ServerType;
let url: string;
let customer: Awaited<ReturnType<typeof signUpUser>>;
let key: string;
let service: typeof catalogServices.$inferSelect;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600, seed: 7, clock: 'manual' });
  const provider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 30_000 });
  await syncCatalog(database.db, provider);
  ({ app } = await createTestApp(database, { providers: singleProvider(provider) }));
  deps = { db: database.db, providers: singleProvider(provider), logger: createLogger('silent') };
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((ok) => server.once('listening', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  customer = await signUpUser(app);
  await credit(database.db, { userId: customer.id, amountMicros: 100_000_000_000, kind: 'topup', reference: `cancel-${customer.id}` });
  key = (await (await post(app, '/api/api-keys', { name: 'panel' }, { cookie: customer.cookie })).json()).key;
  service = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.params.length === 0 && s.cancel)!;
  expect(service).toBeTruthy();
});
afterAll(async () => {
  await new Promise((ok) => server?.close(ok));
  await sandbox?.close();
  await database?.close();
});

/** A v2 call as panels send it: a form POST over HTTP. */
async function v2(params: Record<string, string | number>): Promise<any> {
  const res = await fetch(`${url}/api/v2`, { method: 'POST', body: new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  expect(res.status).toBe(200);
  return res.json();
}

let linkNo = 0;
const link = () => `https://www.tiktok.com/@cancel/video/${Date.now()}${++linkNo}`;
const add = async () => (await v2({ key, action: 'add', service: service.id, link: link(), quantity: service.amountMinimum })).order as number;
const byApiId = async (apiId: number) => (await database.db.select().from(orders).where(eq(orders.apiId, apiId)))[0]!;
const calls = (action: string) => sandbox.control.calls()[`smm-v2:${action}`] ?? 0;
/** Fully refunded, in the order row's own figures. */
const refundedInFull = (o: OrderRow) => o.refundedMicros === o.chargeMicros;

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The submission worker of a running shop, woken by every accepted order. */
async function withWorker(run: () => Promise<void>) {
  const worker = await startSubmissionWorker(deps, database, { concurrency: 4, pollMs: 100 });
  enableSubmissionWake(database, () => worker.wake());
  try {
    await run();
  } finally {
    await worker.stop();
    enableSubmissionWake(database);
  }
}

describe('cancel right after add', () => {
  it('an order not yet sent is cancelled at once and refunded in full; the provider never sees it', async () => {
    sandbox.control.reset();
    const order = await add();
    expect(await v2({ key, action: 'status', order })).toMatchObject({ status: 'Pending' });
    expect(await v2({ key, action: 'cancel', orders: String(order) })).toEqual([{ order, cancel: 1 }]);
    const row = await byApiId(order);
    expect(row).toMatchObject({ status: 'cancelled', noteCode: 'cancelled_before_sending', providerOrderId: null });
    expect(refundedInFull(row)).toBe(true);
    expect(await v2({ key, action: 'status', order })).toMatchObject({ status: 'Canceled', charge: '0.00' });
    // Nothing is left to send.
    expect(await submitPending(deps)).toBe(0);
    expect(calls('add')).toBe(0);
    expect(calls('cancel')).toBe(0);
  });

  it('an order the worker is sending right now: the cancel is accepted, and carried out at the provider once the send finishes', async () => {
    sandbox.control.reset();
    // The provider takes its time over `add`: the order is claimed and on its way meanwhile.
    sandbox.control.setFault({ latencyMs: 1500, actions: ['add'], times: 1 });
    await withWorker(async () => {
      const order = await add();
      await until(() => byApiId(order), (o) => o.submittedAt !== null, 'the worker to claim the order');
      expect(await v2({ key, action: 'status', order })).toMatchObject({ status: 'Pending' });
      expect(await v2({ key, action: 'cancel', orders: String(order) })).toEqual([{ order, cancel: 1 }]);
      expect((await byApiId(order)).status).toBe('pending');
      // Asked again while it waits: already requested.
      expect(await v2({ key, action: 'cancel', orders: String(order) })).toEqual([{ order, cancel: { error: 'A cancel of this order was already requested' } }]);
      const row = await until(() => byApiId(order), (o) => o.status === 'cancelled', 'the order to be cancelled');
      expect(refundedInFull(row)).toBe(true);
      expect(row.providerOrderId).not.toBeNull();
      expect(sandbox.control.order(row.providerOrderId!)?.status).toBe('cancelled');
      expect(calls('cancel')).toBe(1);
      expect(await v2({ key, action: 'status', order })).toMatchObject({ status: 'Canceled', charge: '0.00' });
    });
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('an order whose send the provider refuses while a cancel waits is refunded as any refused order; no cancel is sent', async () => {
    sandbox.control.reset();
    sandbox.control.setFault({ latencyMs: 1000, mode: 'refuse', actions: ['add'], times: 1, message: 'Incorrect link' });
    await withWorker(async () => {
      const order = await add();
      await until(() => byApiId(order), (o) => o.submittedAt !== null, 'the worker to claim the order');
      expect(await v2({ key, action: 'cancel', orders: String(order) })).toEqual([{ order, cancel: 1 }]);
      const row = await until(() => byApiId(order), (o) => o.status !== 'pending', 'the send to be answered');
      expect(row).toMatchObject({ status: 'error', noteCode: 'provider_refused', providerOrderId: null });
      expect(refundedInFull(row)).toBe(true);
    });
    expect(calls('cancel')).toBe(0);
  });

  it('on the site too: the history marks the cancel as requested while the order is being sent', async () => {
    sandbox.control.reset();
    sandbox.control.setFault({ latencyMs: 1500, actions: ['add'], times: 1 });
    await withWorker(async () => {
      const placed = await (await post(app, '/api/orders', { serviceId: service.id, link: link(), quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() }, { cookie: customer.cookie })).json();
      const read = async () => (await database.db.select().from(orders).where(eq(orders.id, placed.id)))[0]!;
      await until(read, (o) => o.submittedAt !== null, 'the worker to claim the order');
      const res = await post(app, `/api/orders/${placed.id}/cancel`, {}, { cookie: customer.cookie });
      expect(res.status).toBe(200);
      expect((await res.json()).status).toBe('pending');
      const actions = (await (await app.request('/api/orders/actions', { headers: { cookie: customer.cookie } })).json()).orders[placed.id];
      expect(actions).toMatchObject({ canCancel: false, cancelRequested: true });
      const row = await until(read, (o) => o.status === 'cancelled', 'the order to be cancelled');
      expect(refundedInFull(row)).toBe(true);
    });
  });

  it('a cancel left waiting by a process that stopped right after the send is carried out by the reconcile sweep', async () => {
    sandbox.control.reset();
    const order = await add();
    const [claimed] = await claimPending(database.db, 1);
    expect(claimed?.apiId).toBe(order);
    expect(await v2({ key, action: 'cancel', orders: String(order) })).toEqual([{ order, cancel: 1 }]);
    // The send alone, as a process that dies before its next step leaves it.
    await submitClaimed(deps, claimed!);
    expect(await byApiId(order)).toMatchObject({ status: 'pending', providerOrderId: expect.any(String) });
    expect(calls('cancel')).toBe(0);
    expect(await sendWaitingCancels(deps)).toBe(1);
    const row = await byApiId(order);
    expect(row.status).toBe('cancelled');
    expect(refundedInFull(row)).toBe(true);
    expect(calls('cancel')).toBe(1);
    expect(await sendWaitingCancels(deps)).toBe(0);
  });
});

describe('cancel by list', () => {
  it('a cancel of 100 sent orders asks the provider in its list form: one cancel call and one status call', async () => {
    const placed: string[] = [];
    for (let i = 0; i < 100; i++) {
      placed.push((await placeOrderBody(deps, customer.id, { serviceId: service.id, link: link(), quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() })).id);
      if (i % 10 === 9) while ((await submitPending(deps)) > 0);
    }
    const before = await database.db.select().from(orders).where(inArray(orders.id, placed));
    // A send whose answer was lost on a busy machine leaves its order of unknown state: not cancellable.
    const sent = new Set(before.filter((o) => o.providerOrderId !== null && o.status === 'pending').map((o) => o.apiId));
    expect(sent.size).toBeGreaterThanOrEqual(90);
    const apiIds = before.map((o) => o.apiId);
    sandbox.control.reset();
    const reply = await v2({ key, action: 'cancel', orders: apiIds.join(',') });
    expect(reply).toEqual(apiIds.map((order) => ({ order, cancel: sent.has(order) ? 1 : { error: 'Cancel is available for active orders only' } })));
    expect(calls('cancel')).toBe(1);
    expect(calls('status')).toBe(1);
    const rows = await database.db.select().from(orders).where(inArray(orders.apiId, [...sent]));
    expect(rows.map((o) => o.status)).toEqual(Array(sent.size).fill('cancelled'));
    expect(rows.every(refundedInFull)).toBe(true);
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});
