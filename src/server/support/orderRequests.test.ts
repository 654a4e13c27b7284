import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { CANCEL_REFUSAL_TEXT } from '../../core/cancel';
import { SUPPORT_LIMITS } from '../../core/contracts/support';
import { signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { syncCatalog } from '../catalog/service';
import type { Database } from '../db/client';
import { catalogServices, orderCancels, orderRefills, orders, supportTicketMessages, supportTickets } from '../db/schema';
import { newOrderNumber, type OrderRow } from '../orders';
import { createProvider, singleProvider, type SmmProvider } from '../providers';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';

/**
 * Tickets about orders (docs/rules.md#support), through the customer's and the team's routes,
 * against the sandbox provider speaking SMM API v2 (its clock stands still): refill and cancel
 * requests carried out by the order rules and answered in the thread, speed-up requests reaching
 * the team with the orders beside the thread, and what no customer may do.
 */
let database: Database;
let sandbox: SandboxProvider;
let provider: SmmProvider;
let app: Hono;
let admin: string;
let alice: Awaited<ReturnType<typeof signUpUser>>;
let bob: Awaited<ReturnType<typeof signUpUser>>;
let service: typeof catalogServices.$inferSelect;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600, seed: 11, clock: 'manual' });
  provider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 10_000 });
  await syncCatalog(database.db, provider);
  ({ app } = await createTestApp(database, { providers: singleProvider(provider) }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  alice = await signUpUser(app, { name: 'Aysel Məmmədova' });
  bob = await signUpUser(app, { name: 'Bora Yılmaz' });
  service = (await database.db.select().from(catalogServices)).find((s) => s.refill && s.cancel && s.params.length === 0)!;
  expect(service).toBeTruthy();
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

function call(method: string, path: string, opts: { cookie?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { origin: TEST_ORIGIN };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  return app.request(path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
}
const json = async <T = any>(res: Response): Promise<T> => (await res.json()) as T;
const calls = (action: string) => sandbox.control.calls()[`smm-v2:${action}`] ?? 0;

/** An order of `userId` at the sandbox: completed there (and here) two days ago, or still on its way. */
async function orderOf(userId: string, state: 'completed' | 'in_progress'): Promise<OrderRow> {
  const linkKey = randomUUID();
  const link = `https://www.instagram.com/p/${linkKey}`;
  const { providerOrderId } = await provider.add({ serviceId: service.id, link, quantity: service.amountMinimum, params: {} });
  sandbox.control.setOrderState(providerOrderId, state);
  const [row] = await database.db
    .insert(orders)
    .values({
      number: newOrderNumber(),
      userId,
      serviceId: service.id,
      serviceName: service.name,
      platform: service.platform,
      serviceType: service.type,
      link,
      linkKey,
      quantity: service.amountMinimum,
      chargeMicros: 1_500_000,
      status: state,
      providerOrderId,
      submittedAt: new Date(Date.now() - 3 * 86_400_000),
      startCount: 120,
      remains: state === 'completed' ? 0 : service.amountMinimum,
      createdAt: new Date(Date.now() - 3 * 86_400_000),
      completedAt: state === 'completed' ? new Date(Date.now() - 2 * 86_400_000) : null,
      idempotencyKey: randomUUID(),
      requestHash: 'h',
    })
    .returning();
  return row!;
}

const request = (body: Record<string, unknown>) => ({ title: 'About my orders', description: 'Please look at these orders.', key: `k-${randomUUID()}`, ...body });

async function open(cookie: string, body: Record<string, unknown>) {
  const res = await call('POST', '/api/support/tickets', { cookie, body: request(body) });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return (await json(res)).ticket as { id: string; status: string; answered: boolean; request: string | null; orders: string[] };
}
const thread = async (cookie: string, id: string) => json((await call('GET', `/api/support/tickets/${id}/messages`, { cookie })));

describe('refill requests', () => {
  it('asks the provider for a refill of each completed order and answers it in the thread: the ticket is answered', async () => {
    const [a, b] = [await orderOf(alice.id, 'completed'), await orderOf(alice.id, 'completed')];
    const before = calls('refill');
    const ticket = await open(alice.cookie, { request: 'refill', orders: [a.number, b.number.toLowerCase()] });
    expect(ticket).toMatchObject({ request: 'refill', orders: [a.number, b.number], status: 'in_progress', answered: true });
    expect(calls('refill') - before).toBe(2);
    const refills = await database.db.select().from(orderRefills).where(inArray(orderRefills.orderId, [a.id, b.id]));
    expect(refills.map((r) => r.source)).toEqual(['site', 'site']);
    expect(refills.every((r) => r.providerRefillId !== null)).toBe(true);

    const { messages } = await thread(alice.cookie, ticket.id);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      isAdmin: true,
      outcomes: [
        { number: a.number, action: 'refill', result: 'done' },
        { number: b.number, action: 'refill', result: 'done' },
      ],
    });
  });

  it('answers each refusal with its reason code: an order not completed, then an order with a refill already open', async () => {
    const going = await orderOf(alice.id, 'in_progress');
    const done = await orderOf(alice.id, 'completed');
    await database.db.insert(orderRefills).values({ orderId: done.id, userId: alice.id, source: 'site', providerRefillId: '1', status: 'pending' });
    const before = calls('refill');
    const ticket = await open(alice.cookie, { request: 'refill', orders: [going.number, done.number] });
    expect(calls('refill')).toBe(before);
    const { messages } = await thread(alice.cookie, ticket.id);
    expect(messages.at(-1).outcomes).toEqual([
      { number: going.number, action: 'refill', result: 'refused', code: 'REFILL_NOT_ALLOWED', reason: 'not_completed' },
      { number: done.number, action: 'refill', result: 'refused', code: 'REFILL_NOT_ALLOWED', reason: 'open' },
    ]);
    expect(await database.db.select().from(orderRefills).where(eq(orderRefills.orderId, going.id))).toHaveLength(0);
  });

  it('opens one ticket and asks one refill when the same submission arrives twice at once', async () => {
    const o = await orderOf(alice.id, 'completed');
    const before = calls('refill');
    const body = request({ request: 'refill', orders: [o.number] });
    const replies = await Promise.all([0, 1, 2].map(() => call('POST', '/api/support/tickets', { cookie: alice.cookie, body })));
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201]);
    const ids = new Set(await Promise.all(replies.map(async (r) => (await json(r)).ticket.id)));
    expect(ids.size).toBe(1);
    expect(await database.db.select().from(supportTickets).where(eq(supportTickets.idempotencyKey, body.key))).toHaveLength(1);
    expect(await database.db.select().from(orderRefills).where(eq(orderRefills.orderId, o.id))).toHaveLength(1);
    expect(calls('refill') - before).toBe(1);
    const { messages } = await thread(alice.cookie, [...ids][0]!);
    expect(messages).toHaveLength(1);
  });
});

describe('cancel requests', () => {
  it('cancels an active order at the provider and refunds what was not delivered; the answer says so', async () => {
    const o = await orderOf(bob.id, 'in_progress');
    const before = calls('cancel');
    const ticket = await open(bob.cookie, { request: 'cancel', orders: [o.number] });
    expect(calls('cancel') - before).toBe(1);
    const [after] = await database.db.select().from(orders).where(eq(orders.id, o.id));
    expect(after).toMatchObject({ status: 'cancelled', refundedMicros: o.chargeMicros });
    expect((await database.db.select().from(orderCancels).where(eq(orderCancels.orderId, o.id)))[0]).toMatchObject({ source: 'site' });
    const { ticket: seen, messages } = await thread(bob.cookie, ticket.id);
    expect(seen).toMatchObject({ status: 'in_progress', answered: true });
    expect(messages.at(-1).outcomes).toEqual([{ number: o.number, action: 'cancel', result: 'done', status: 'cancelled' }]);
  });

  it('refuses to cancel a completed order, with the rule’s reason code and nothing asked of the provider', async () => {
    const o = await orderOf(bob.id, 'completed');
    const before = calls('cancel');
    const ticket = await open(bob.cookie, { request: 'cancel', orders: [o.number] });
    expect(calls('cancel')).toBe(before);
    const { messages } = await thread(bob.cookie, ticket.id);
    expect(messages.at(-1)).toMatchObject({
      outcomes: [{ number: o.number, action: 'cancel', result: 'refused', code: 'CANCEL_NOT_ALLOWED', reason: 'not_active' }],
    });
    expect(messages.at(-1).message).toContain(o.number);
    expect(CANCEL_REFUSAL_TEXT.not_active).toBeTruthy();
  });
});

describe('speed-up and other requests', () => {
  it('reach the team with the orders beside the thread, and nothing is asked of the provider', async () => {
    const o = await orderOf(alice.id, 'in_progress');
    const [refills, cancels] = [calls('refill'), calls('cancel')];
    const ticket = await open(alice.cookie, { request: 'speed_up', orders: [o.number], priority: 'high' });
    expect(ticket).toMatchObject({ request: 'speed_up', status: 'open', answered: false, orders: [o.number] });
    expect([calls('refill'), calls('cancel')]).toEqual([refills, cancels]);
    expect((await thread(alice.cookie, ticket.id)).messages).toHaveLength(0);

    const inbox = await json(await call('GET', '/api/admin/support/tickets?status=open', { cookie: admin }));
    expect(inbox.tickets.find((t: { id: string }) => t.id === ticket.id)).toMatchObject({ request: 'speed_up', orders: [o.number] });
    const seen = await json(await call('GET', `/api/admin/support/tickets/${ticket.id}`, { cookie: admin }));
    expect(seen.orders).toEqual([
      {
        id: o.id,
        number: o.number,
        status: 'in_progress',
        serviceId: service.id,
        serviceName: service.name,
        link: o.link,
        quantity: o.quantity,
        startCount: 120,
        remains: o.quantity,
        providerOrderId: o.providerOrderId,
        chargeMicros: 1_500_000,
        refundedMicros: 0,
        createdAt: o.createdAt.toISOString(),
      },
    ]);
    // Another request kind, the same way.
    const other = await open(alice.cookie, { request: 'other', orders: [o.number] });
    expect(other).toMatchObject({ request: 'other', status: 'open', orders: [o.number] });
  });

  it('shows answered after the team replies, and waits for the team again after the customer writes', async () => {
    const o = await orderOf(alice.id, 'in_progress');
    const ticket = await open(alice.cookie, { request: 'speed_up', orders: [o.number] });
    expect((await call('POST', `/api/admin/support/tickets/${ticket.id}/messages`, { cookie: admin, body: { message: 'We asked the provider to hurry.' } })).status).toBe(201);
    expect((await thread(alice.cookie, ticket.id)).ticket).toMatchObject({ status: 'in_progress', answered: true });
    expect((await call('POST', `/api/support/tickets/${ticket.id}/messages`, { cookie: alice.cookie, body: { message: 'Still slow.' } })).status).toBe(201);
    expect((await thread(alice.cookie, ticket.id)).ticket).toMatchObject({ status: 'open', answered: false });
  });
});

describe('what the customer may name', () => {
  it('refuses an order of someone else like one that does not exist: no ticket, no refill', async () => {
    const theirs = await orderOf(alice.id, 'completed');
    const tickets = (await database.db.select().from(supportTickets)).length;
    const before = calls('refill');
    for (const number of [theirs.number, newOrderNumber()]) {
      const res = await call('POST', '/api/support/tickets', { cookie: bob.cookie, body: request({ request: 'refill', orders: [number] }) });
      expect(res.status).toBe(404);
      expect((await json(res)).error).toMatchObject({ code: 'ORDER_NOT_FOUND', details: { numbers: number } });
    }
    expect((await database.db.select().from(supportTickets)).length).toBe(tickets);
    expect(calls('refill')).toBe(before);
    expect(await database.db.select().from(orderRefills).where(eq(orderRefills.orderId, theirs.id))).toHaveLength(0);
  });

  it.each([
    ['a request without orders', { request: 'refill', orders: [] }, ['orders']],
    ['orders without a request', { orders: ['AR-0000000000'] }, ['request']],
    ['an unknown request', { request: 'refund', orders: ['AR-0000000000'] }, ['request']],
    ['something that is not an order number', { request: 'refill', orders: ['12345'] }, ['orders.0']],
    [`more than ${SUPPORT_LIMITS.ticketOrders} orders`, { request: 'refill', orders: Array.from({ length: SUPPORT_LIMITS.ticketOrders + 1 }, () => newOrderNumber()) }, ['orders']],
    ['a key of the server’s own', { request: 'refill', orders: ['AR-0000000000'], key: 'api_123456789' }, ['key']],
  ])('refuses %s (422)', async (_, body, fields) => {
    const res = await call('POST', '/api/support/tickets', { cookie: bob.cookie, body: request(body) });
    expect(res.status).toBe(422);
    const err = (await json(res)).error;
    expect(err.code).toBe('VALIDATION_FAILED');
    expect((err.details.issues as { path: string }[]).map((i) => i.path)).toEqual(fields);
  });

  it('takes the same order named twice once, and a plain ticket as before', async () => {
    const o = await orderOf(bob.id, 'in_progress');
    const ticket = await open(bob.cookie, { request: 'other', orders: [o.number, ` ${o.number.toLowerCase()} `] });
    expect(ticket.orders).toEqual([o.number]);
    const plain = await open(bob.cookie, { key: undefined });
    expect(plain).toMatchObject({ request: null, orders: [], status: 'open', answered: false });
    expect(await database.db.select().from(supportTicketMessages).where(eq(supportTicketMessages.ticketId, plain.id))).toHaveLength(0);
  });
});
