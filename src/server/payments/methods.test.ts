import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxGateway, type SandboxGateway } from '../../../sandbox/gateway';
import { paymentMethodViewSchema, topUpResultSchema } from '../../core/contracts/payments';
import type { Database } from '../db/client';
import { adminSettings, auditLog, paymentMethods, payments } from '../db/schema';
import { createGateway, gatewayRegistry } from '../gateways';
import { settingsChanged } from '../settings';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import { ensurePaymentMethods } from './methods';

let database: Database;
let gw: SandboxGateway;
let app: Hono;

beforeAll(async () => {
  database = await createTestDatabase();
  gw = await startSandboxGateway({ delayMs: 100 });
  const epoint = createGateway({ kind: 'sandbox', baseUrl: gw.url, publicKey: gw.publicKey, privateKey: gw.privateKey });
  ({ app } = await createTestApp(database, { gateways: gatewayRegistry({ epoint }) }));
});
afterAll(async () => {
  await gw.close();
  await database.close();
});
beforeEach(async () => {
  await database.db.delete(payments);
  await database.db.update(paymentMethods).set({ enabled: true, feeBp: 0, minMicros: 1_000_000, maxMicros: 10_000_000_000 }).where(eq(paymentMethods.kind, 'epoint'));
});

const methodsOf = async (cookie: string) => {
  const res = await app.request('/api/payments/methods', { headers: { cookie } });
  expect(res.status).toBe(200);
  return paymentMethodViewSchema.array().parse((await res.json()).methods);
};

describe('payment methods', () => {
  it('every kind gets its row once; a row the team changed is left as it is', async () => {
    await database.db.update(paymentMethods).set({ feeBp: 150 }).where(eq(paymentMethods.kind, 'epoint'));
    await ensurePaymentMethods(database.db, ['bank']);
    await ensurePaymentMethods(database.db, ['payriff', 'paytr']);
    const rows = await database.db.select().from(paymentMethods);
    expect(Object.fromEntries(rows.map((r) => [r.kind, r.enabled]))).toEqual({ epoint: true, payriff: false, paytr: false, bank: true });
    expect(rows.find((r) => r.kind === 'epoint')!.feeBp).toBe(150);
    expect(rows.find((r) => r.kind === 'paytr')!.currency).toBe('TRY');
  });

  it('offers the enabled methods whose gateway this shop has, with the rate of their currency', async () => {
    await ensurePaymentMethods(database.db, []);
    await database.db.update(paymentMethods).set({ enabled: true }).where(eq(paymentMethods.kind, 'paytr'));
    await database.db.update(paymentMethods).set({ enabled: false }).where(eq(paymentMethods.kind, 'bank'));
    const customer = await signUpUser(app);
    // PayTR is on but this shop has no PayTR gateway: never offered. The bank transfer is off.
    expect((await methodsOf(customer.cookie)).map((m) => m.kind)).toEqual(['epoint']);
    expect((await methodsOf(customer.cookie))[0]).toMatchObject({ currency: 'AZN', rate: '1.7', minMicros: 1_000_000, feeBp: 0 });
    expect((await app.request('/api/payments/methods')).status).toBe(401);
  });

  it('a method that is off or unknown starts nothing', async () => {
    const customer = await signUpUser(app);
    await database.db.update(paymentMethods).set({ enabled: false }).where(eq(paymentMethods.kind, 'epoint'));
    const off = await post(app, '/api/payments/topup', { amountMicros: 10_000_000, method: 'epoint' }, { cookie: customer.cookie });
    expect(off.status).toBe(409);
    expect((await off.json()).error.code).toBe('PAYMENT_METHOD_UNAVAILABLE');
    const unknown = await post(app, '/api/payments/topup', { amountMicros: 10_000_000, method: 'cash' }, { cookie: customer.cookie });
    expect(unknown.status).toBe(422);
    expect(await database.db.select().from(payments)).toEqual([]);
  });

  it('keeps a top-up within its method’s bounds', async () => {
    const customer = await signUpUser(app);
    await database.db.update(paymentMethods).set({ minMicros: 5_000_000, maxMicros: 20_000_000 }).where(eq(paymentMethods.kind, 'epoint'));
    for (const amountMicros of [4_990_000, 20_010_000]) {
      const res = await post(app, '/api/payments/topup', { amountMicros, method: 'epoint' }, { cookie: customer.cookie });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ error: { code: 'TOPUP_OUT_OF_RANGE', details: { minMicros: 5_000_000, maxMicros: 20_000_000 } } });
    }
    expect((await post(app, '/api/payments/topup', { amountMicros: 20_000_000, method: 'epoint' }, { cookie: customer.cookie })).status).toBe(201);
  });

  it('charges the method’s fee on top, rounded up to the qəpik, and credits the dollars asked for', async () => {
    const customer = await signUpUser(app);
    await database.db.update(paymentMethods).set({ feeBp: 250 }).where(eq(paymentMethods.kind, 'epoint'));
    // 10.01 USD at 1.7 = 17.017 → 1702 qəpik; +2.5 % = 1744.55 → 1745.
    const res = await post(app, '/api/payments/topup', { amountMicros: 10_010_000, method: 'epoint' }, { cookie: customer.cookie });
    const started = topUpResultSchema.parse(await res.json());
    expect(started).toMatchObject({ amountMinor: 1745, currency: 'AZN' });
    const [row] = await database.db.select().from(payments).where(eq(payments.reference, started.reference));
    expect(row).toMatchObject({ amountUsdMicros: 10_010_000, amountMinor: 1745, currency: 'AZN', method: 'epoint', rate: '1.7' });
    // What the gateway was asked to charge is what the row holds.
    expect(gw.control.payment(row!.transactionId!)?.amountQepik).toBe(1745);
  });

  it('charges at the rate in force when the top-up starts, and keeps that rate with the payment', async () => {
    const customer = await signUpUser(app);
    await database.db.insert(adminSettings).values({ key: 'usd_azn_rate', value: '1.7025' }).onConflictDoUpdate({ target: adminSettings.key, set: { value: '1.7025' } });
    await settingsChanged(database.db);
    try {
      const started = topUpResultSchema.parse(await (await post(app, '/api/payments/topup', { amountMicros: 1_000_000, method: 'epoint' }, { cookie: customer.cookie })).json());
      expect(started.amountMinor).toBe(171);
      expect((await methodsOf(customer.cookie))[0]!.rate).toBe('1.7025');
    } finally {
      await database.db.delete(adminSettings).where(eq(adminSettings.key, 'usd_azn_rate'));
      await settingsChanged(database.db);
    }
  });
});

const put = (path: string, cookie: string, body: unknown) =>
  app.request(path, { method: 'PUT', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });

describe('the team’s payment methods', () => {
  const bank = {
    name: { az: 'Bank köçürməsi', tr: 'Banka havalesi', en: 'Bank transfer' },
    details: { az: 'AZ00 BANK 0000', tr: 'AZ00 BANK 0000', en: 'AZ00 BANK 0000' },
    currency: 'AZN',
    minMicros: 20_000_000,
    maxMicros: 5_000_000_000,
    feeBp: 0,
    position: 5,
    enabled: true,
  };

  it('an admin reads every kind and changes one, audited; a customer may do neither', async () => {
    await ensurePaymentMethods(database.db, []);
    const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
    const list = await (await app.request('/api/admin/payments/methods', { headers: { cookie: admin } })).json();
    expect(list.methods.map((m: { kind: string; configured: boolean }) => [m.kind, m.configured])).toEqual([
      ['epoint', true],
      ['payriff', false],
      ['paytr', false],
      ['bank', true],
    ]);
    const saved = await put('/api/admin/payments/methods/bank', admin, bank);
    expect(saved.status).toBe(200);
    expect((await saved.json()).methods.find((m: { kind: string }) => m.kind === 'bank')).toMatchObject({ ...bank, currencies: ['AZN', 'TRY'] });
    const [logged] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'payment_method.update'));
    expect(logged).toMatchObject({ targetType: 'payment_method', targetId: 'bank', details: { minMicros: { from: 10_000_000, to: 20_000_000 }, enabled: { from: false, to: true } } });
    const customer = await signUpUser(app);
    expect((await app.request('/api/admin/payments/methods', { headers: { cookie: customer.cookie } })).status).toBe(403);
    expect((await put('/api/admin/payments/methods/bank', customer.cookie, bank)).status).toBe(403);
  });

  it('refuses a currency the kind cannot charge in, bounds out of order, a fee beyond 20 % and unknown fields, changing nothing', async () => {
    const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
    const [before] = await database.db.select().from(paymentMethods).where(eq(paymentMethods.kind, 'epoint'));
    for (const body of [
      { ...bank, currency: 'TRY' },
      { ...bank, currency: 'AZN', minMicros: 50_000_000, maxMicros: 10_000_000 },
      { ...bank, currency: 'AZN', feeBp: 2_001 },
      { ...bank, currency: 'AZN', minMicros: 1_005_000 },
      { ...bank, currency: 'AZN', secret: 'x' },
    ]) {
      const res = await put('/api/admin/payments/methods/epoint', admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).error.code).toBe('VALIDATION_FAILED');
    }
    expect((await put('/api/admin/payments/methods/cash', admin, bank)).status).toBe(404);
    expect((await database.db.select().from(paymentMethods).where(eq(paymentMethods.kind, 'epoint')))[0]).toEqual(before);
  });
});
