import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../core/orderStatus';
import { post, signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { catalogServices, orders } from '../db/schema';
import { cachesOf, enableCaches } from '../cache';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { figuresOf, FIGURES_MIN_ORDERS, serviceFigures } from './figures';

let database: Database;
let app: Hono;
let userId: string;
let key: string;

const T0 = Date.parse('2026-01-01T00:00:00Z');
const MIN = 60_000;
const ERRORS: OrderStatus[] = ['error', 'stopped', 'refunded', 'cancelled'];

interface Finished {
  status: OrderStatus;
  /** Minutes after placement, or null when not recorded. */
  start?: number | null;
  done?: number | null;
  /** When it last changed, for which orders are the last ones; defaults to the row's order. */
  at?: number;
  providerOrderId?: string | null;
  drip?: boolean;
}

async function finished(serviceId: string, rows: Finished[]) {
  await database.db.insert(orders).values(
    rows.map((r, i) => {
      const created = T0 + i * 3600_000;
      return {
        number: `AR-F${randomUUID().slice(0, 8)}`,
        userId,
        serviceId,
        serviceName: serviceId,
        platform: 'instagram',
        serviceType: 'Followers',
        link: `https://instagram.com/${randomUUID().slice(0, 8)}`,
        linkKey: randomUUID(),
        quantity: 100,
        chargeMicros: 1_000_000,
        refundedMicros: ERRORS.includes(r.status) ? 1_000_000 : r.status === 'partial' ? 500_000 : 0,
        idempotencyKey: randomUUID(),
        requestHash: 'h',
        status: r.status,
        providerOrderId: r.providerOrderId === undefined ? `p-${randomUUID()}` : r.providerOrderId,
        createdAt: new Date(created),
        updatedAt: new Date(r.at ?? created + 24 * 3600_000),
        startedAt: r.start == null ? null : new Date(created + r.start * MIN),
        completedAt: r.done == null ? null : new Date(created + r.done * MIN),
        ...(r.drip ? { runs: 2, intervalMinutes: 1, runsSent: 2, upstreamDrip: true } : {}),
      };
    }),
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await createTestApp(database));
  const user = await signUpUser(app);
  userId = user.id;
  key = (await (await post(app, '/api/api-keys', { name: 'figures' }, { cookie: user.cookie })).json()).key;
  await database.db.insert(catalogServices).values(
    ['fig-1', 'fig-2', 'fig-3'].map((id) => ({
      id,
      platform: 'instagram',
      name: `Instagram Followers ${id}`,
      type: 'Followers',
      amountMinimum: 10,
      amountIncrement: 1,
      tiers: [{ minimum: 10, maximum: 1000, price: '1.00', pricingPer: 1000 }],
      params: [],
    })),
  );
  // fig-1: starts 10, 20, 30, 40, 5 and 50 min → median 25; completions (completed only) 60, 120,
  // 90, 300 and 200 min → median 120; 5 completed of 7 finished → 71 %. Not counted: an order still
  // running, one the provider never accepted, and a drip-feed sent whole.
  await finished('fig-1', [
    { status: 'completed', start: 10, done: 60 },
    { status: 'completed', start: 20, done: 120 },
    { status: 'completed', start: 30, done: 90 },
    { status: 'completed', start: 40, done: 300 },
    { status: 'partial', start: 5, done: 50 },
    { status: 'cancelled' },
    { status: 'completed', start: 50, done: 200 },
    { status: 'in_progress', start: 1 },
    { status: 'error', providerOrderId: null },
    { status: 'completed', start: 1, done: 10_000, drip: true },
  ]);
  // fig-2: 60 finished; the last 50 (latest changed) completed in 30 min, the 10 before them
  // cancelled after 1000 min. Starts were not recorded.
  await finished('fig-2', [
    ...Array.from({ length: 10 }, (_, i): Finished => ({ status: 'cancelled', done: null, at: T0 + i * MIN })),
    ...Array.from({ length: 50 }, (_, i): Finished => ({ status: 'completed', done: 30, at: T0 + 1000 * MIN + i * MIN })),
  ]);
  // fig-3: one order fewer than the minimum.
  await finished('fig-3', Array.from({ length: FIGURES_MIN_ORDERS - 1 }, (): Finished => ({ status: 'completed', start: 1, done: 5 })));
});
afterAll(async () => {
  await database.close();
});

describe('service figures', () => {
  it('are the medians and the rate of the last finished orders, computed by hand', async () => {
    const { byService } = await serviceFigures(database.db);
    expect(byService.get('fig-1')).toEqual({ startMinutes: 25, completeMinutes: 120, completionRate: 71 });
    expect(byService.get('fig-2')).toEqual({ startMinutes: null, completeMinutes: 30, completionRate: 100 });
    expect(byService.has('fig-3')).toBe(false);
  });

  it('keep each service’s 90th percentile of start over the same orders, with the same minimum, on the server only', async () => {
    const { startP90, byService } = await serviceFigures(database.db);
    // fig-1's starts 5, 10, 20, 30, 40, 50: the 90th percentile lies half way from 40 to 50.
    expect(startP90.get('fig-1')).toBe(45);
    expect(startP90.has('fig-2')).toBe(false);
    expect(startP90.has('fig-3')).toBe(false);
    expect(Object.keys(byService.get('fig-1')!)).toEqual(['startMinutes', 'completeMinutes', 'completionRate']);
  });

  it('round the rate half up and need the minimum of orders for each figure', () => {
    const row = { service_id: 'x', finished: 8, completed: 1, start_n: 4, start_s: 600, done_n: 5, done_s: 89 };
    expect(figuresOf(row)).toEqual({ startMinutes: null, completeMinutes: 1, completionRate: 13 });
    expect(figuresOf({ ...row, finished: 3, done_n: 1 })).toBeUndefined();
  });

  it('reach the public service list and the reseller API’s services as extra fields', async () => {
    const list = (await (await app.request('/api/catalog/services?lang=en')).json()).services as { id: string; figures?: unknown }[];
    expect(list.find((s) => s.id === 'fig-1')!.figures).toEqual({ startMinutes: 25, completeMinutes: 120, completionRate: 71 });
    expect(list.find((s) => s.id === 'fig-3')).not.toHaveProperty('figures');

    const res = await app.request('/api/v2', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key, action: 'services' }).toString(),
    });
    const services = (await res.json()) as Record<string, unknown>[];
    expect(services.find((s) => s.service === 'fig-1')).toMatchObject({ rate: expect.any(String), start_time: 25, average_time: 120, completion_rate: 71 });
    const two = services.find((s) => s.service === 'fig-2')!;
    expect(two).toMatchObject({ average_time: 30, completion_rate: 100 });
    expect(two).not.toHaveProperty('start_time');
    const three = services.find((s) => s.service === 'fig-3')!;
    for (const field of ['start_time', 'average_time', 'completion_rate']) expect(three).not.toHaveProperty(field);
  });

  it('are kept a while by an instance that caches, and read again in the background once expired', async () => {
    const stop = await enableCaches(database);
    try {
      const first = await serviceFigures(database.db);
      expect(first.byService.has('fig-3')).toBe(false);
      await finished('fig-3', [{ status: 'completed', start: 1, done: 5 }]);
      expect(await serviceFigures(database.db)).toBe(first);
      cachesOf(database.db)!.figures.clear(); // as when the entry expires
      expect(await serviceFigures(database.db)).toBe(first);
      await expect.poll(async () => (await serviceFigures(database.db)).byService.get('fig-3')).toEqual({ startMinutes: 1, completeMinutes: 5, completionRate: 100 });
    } finally {
      await stop();
    }
  });
});

