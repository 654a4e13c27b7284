import { eq } from 'drizzle-orm';
import { gatewayRegistry } from '../gateways';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { paymentStatusViewSchema, topUpResultSchema } from '../../core/contracts/payments';
import { post, signUpUser } from '../auth/testing';
import type { Database } from '../db/client';
import { payments, users } from '../db/schema';
import { createGateway } from '../gateways';
import { createTestApp, serveOverHttp } from '../testing/app';
import { createTestDatabase } from '../testing/db';

let database: Database;
let gw: SandboxGateway;
let app: Hono;
let server: Awaited<ReturnType<typeof serveOverHttp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  gw = await startSandboxGateway({ delayMs: 100 });
  const gateway = createGateway({ kind: 'sandbox', baseUrl: gw.url, publicKey: gw.publicKey, privateKey: gw.privateKey });
  ({ app } = await createTestApp(database, { gateways: gatewayRegistry({ epoint: gateway }) }));
  // The gateway posts its callbacks to this app over real HTTP.
  server = await serveOverHttp(app);
  gw.setCallbackUrl(`${server.url}/api/payments/callback`);
});
afterAll(async () => {
  await server.close();
  await gw.close();
  await database.close();
});

const balanceOf = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!.balanceMicros;

describe('payments over HTTP', () => {
  it('top-up needs a signed-in customer', async () => {
    expect((await post(app, '/api/payments/topup', { amountMicros: 10_000_000 })).status).toBe(401);
    expect((await app.request('/api/payments')).status).toBe(401);
  });

  it('a paid top-up is credited through the gateway’s signed callback; the return page shows it completed', async () => {
    const customer = await signUpUser(app);
    const res = await post(app, '/api/payments/topup', { amountMicros: 10_000_000, language: 'az' }, { cookie: customer.cookie });
    expect(res.status).toBe(201);
    const started = topUpResultSchema.parse(await res.json());
    expect(started.amountMinor).toBe(1700);
    const [row] = await database.db.select().from(payments).where(eq(payments.reference, started.reference));
    gw.control.complete(row!.transactionId!, 'success');
    for (let i = 0; i < 50 && (await balanceOf(customer.id)) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await balanceOf(customer.id)).toBe(10_000_000);
    const check = await app.request(`/api/payments/${started.reference}`, { headers: { cookie: customer.cookie } });
    expect((await check.json()).status).toBe('completed');
    const list = await (await app.request('/api/payments', { headers: { cookie: customer.cookie } })).json();
    expect(list.payments[0]).toMatchObject({ reference: started.reference, status: 'completed', amountUsdMicros: 10_000_000, type: 'balance_topup' });
  });

  it('the callback endpoint refuses a forged body without revealing anything', async () => {
    const res = await app.request('/api/payments/callback', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'data=eyJzdGF0dXMiOiJzdWNjZXNzIn0%3D&signature=forged',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('SIGNATURE_INVALID');
  });

  it('another customer cannot read someone’s payment', async () => {
    const owner = await signUpUser(app);
    const other = await signUpUser(app);
    const started = topUpResultSchema.parse(await (await post(app, '/api/payments/topup', { amountMicros: 5_000_000 }, { cookie: owner.cookie })).json());
    const res = await app.request(`/api/payments/${started.reference}`, { headers: { cookie: other.cookie } });
    expect(res.status).toBe(404);
  });

  it('a return page without a session learns a payment’s state by its reference, and nothing else', async () => {
    const owner = await signUpUser(app);
    const started = topUpResultSchema.parse(await (await post(app, '/api/payments/topup', { amountMicros: 7_000_000 }, { cookie: owner.cookie })).json());
    const [row] = await database.db.select().from(payments).where(eq(payments.reference, started.reference));
    gw.control.complete(row!.transactionId!, 'success');
    for (let i = 0; i < 50 && (await balanceOf(owner.id)) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const res = await app.request(`/api/payments/${started.reference}/status`, { headers: { 'x-forwarded-for': '203.0.113.40' } });
    expect(res.status).toBe(200);
    expect(paymentStatusViewSchema.strict().parse(await res.json())).toEqual({ reference: started.reference, status: 'completed', transactionId: row!.transactionId, reason: null, gatewayMessage: null });
    const unknown = await app.request('/api/payments/balance-nothing-here/status', { headers: { 'x-forwarded-for': '203.0.113.40' } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe('PAYMENT_NOT_FOUND');
  });

  it('limits how often one address may look payments up by reference', async () => {
    const answers = [];
    for (let i = 0; i < 22; i++) answers.push((await app.request(`/api/payments/balance-guess-${i}/status`, { headers: { 'x-forwarded-for': '203.0.113.41' } })).status);
    expect(answers.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(answers.slice(20)).toEqual([429, 429]);
  });

  it('a declined payment tells the return page why, in a reason the browser words', async () => {
    const owner = await signUpUser(app);
    const started = topUpResultSchema.parse(await (await post(app, '/api/payments/topup', { amountMicros: 9_000_000 }, { cookie: owner.cookie })).json());
    const [row] = await database.db.select().from(payments).where(eq(payments.reference, started.reference));
    gw.control.complete(row!.transactionId!, 'declined');
    let view = paymentStatusViewSchema.parse(await (await app.request(`/api/payments/${started.reference}/status`, { headers: { 'x-forwarded-for': '203.0.113.42' } })).json());
    for (let i = 0; i < 50 && view.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const [now] = await database.db.select().from(payments).where(eq(payments.reference, started.reference));
      if (now!.status !== 'pending') view = paymentStatusViewSchema.parse(await (await app.request(`/api/payments/${started.reference}/status`, { headers: { 'x-forwarded-for': '203.0.113.42' } })).json());
    }
    expect(view).toMatchObject({ status: 'failed', reason: 'declined', gatewayMessage: 'Declined by the issuer' });
    expect(await balanceOf(owner.id)).toBe(0);
  });
});
