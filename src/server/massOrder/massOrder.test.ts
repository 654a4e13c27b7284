import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { MassOrderResult } from '../../core/contracts/massOrder';
import { priceOrder } from '../../core/pricing';
import { post, signUpUser } from '../auth/testing';
import { syncCatalog } from '../catalog';
import type { Database } from '../db/client';
import { catalogServices, ledgerEntries, orders, users } from '../db/schema';
import { singleProvider, createProvider } from '../providers';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { credit } from '../wallet/ledger';
import { getSettings } from '../settings';

let database: Database;
let sandbox: SandboxProvider;
let app: Hono;
type Service = typeof catalogServices.$inferSelect;
let plain: Service;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 600, seed: 11 });
  const provider = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey });
  await syncCatalog(database.db, provider);
  ({ app } = await createTestApp(database, { providers: singleProvider(provider) }));
  plain = (await database.db.select().from(catalogServices)).find((s) => s.platform === 'tiktok' && s.params.length === 0 && s.amountMinimum <= 100)!;
  expect(plain).toBeTruthy();
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

let linkNo = 0;
const link = () => `https://www.tiktok.com/@mass/video/${Date.now()}${++linkNo}`;
const balanceOf = async (id: string) => (await database.db.select({ b: users.balanceMicros }).from(users).where(eq(users.id, id)))[0]!.b;
const ordersOf = async (id: string) => database.db.select().from(orders).where(eq(orders.userId, id));
const ledgerSum = async (id: string) => (await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, id))).reduce((s, e) => s + Number(e.amountMicros), 0);
const priceOf = async (s: Service, quantity: number) => {
  const settings = await getSettings(database.db);
  return priceOrder(s.tiers, quantity, { serviceFeePercent: settings.service_fee, baseFee: settings.base_fee }).micros;
};

async function customer(micros: number) {
  const user = await signUpUser(app);
  if (micros) await credit(database.db, { userId: user.id, amountMicros: micros, kind: 'topup', reference: `t-${user.id}` });
  return user;
}

const mass = (cookie: string, body: unknown) => post(app, '/api/orders/mass', body, { cookie });

describe('POST /api/orders/mass', () => {
  it('places each good line as its own order and reports each bad line with its code', async () => {
    const user = await customer(1_000_000_000);
    const q = plain.amountMinimum;
    const [l1, l3] = [link(), link()];
    const text = [`${plain.id}|${l1}|${q}`, `not a line`, `${plain.id}|${l3}|${q + plain.amountIncrement}`, `999999|${link()}|${q}`, ''].join('\n');
    const res = await mass(user.cookie, { batchKey: 'batch-0001-a', text });
    expect(res.status).toBe(200);
    const body = (await res.json()) as MassOrderResult;
    expect(body.lines.map((l) => [l.line, l.ok])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [4, false],
    ]);
    expect(body.lines[1]).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', details: { reason: 'format' } } });
    expect(body.lines[3]).toMatchObject({ ok: false, error: { code: 'SERVICE_NOT_FOUND' } });
    const expected = (await priceOf(plain, q)) + (await priceOf(plain, q + plain.amountIncrement));
    expect(body.placed).toBe(2);
    expect(body.chargedMicros).toBe(expected);
    expect(await balanceOf(user.id)).toBe(1_000_000_000 - expected);
    const rows = await ordersOf(user.id);
    expect(rows.map((o) => o.link).sort()).toEqual([l1, l3].sort());
    expect(await ledgerSum(user.id)).toBe(await balanceOf(user.id));
  });

  it('never doubles a retried batch, whether retried after the answer or at the same time', async () => {
    const user = await customer(1_000_000_000);
    const text = [1, 2, 3].map(() => `${plain.id}|${link()}|${plain.amountMinimum}`).join('\n');
    const first = (await (await mass(user.cookie, { batchKey: 'batch-0002-retry', text })).json()) as MassOrderResult;
    expect(first.placed).toBe(3);
    const afterFirst = await balanceOf(user.id);
    const again = (await (await mass(user.cookie, { batchKey: 'batch-0002-retry', text })).json()) as MassOrderResult;
    expect(again.lines.map((l) => (l.ok ? l.order.number : null))).toEqual(first.lines.map((l) => (l.ok ? l.order.number : null)));
    // Two submissions racing with one key place each line once.
    const racing = [1, 2, 3].map(() => `${plain.id}|${link()}|${plain.amountMinimum}`).join('\n');
    const both = await Promise.all([mass(user.cookie, { batchKey: 'batch-0003-race', text: racing }), mass(user.cookie, { batchKey: 'batch-0003-race', text: racing })]);
    const answers = (await Promise.all(both.map((r) => r.json()))) as MassOrderResult[];
    expect(answers[0]!.lines.map((l) => (l.ok ? l.order.number : l.error.code))).toEqual(answers[1]!.lines.map((l) => (l.ok ? l.order.number : l.error.code)));
    expect(await ordersOf(user.id)).toHaveLength(6);
    expect(await balanceOf(user.id)).toBe(afterFirst - first.chargedMicros);
    expect(await ledgerSum(user.id)).toBe(await balanceOf(user.id));
  });

  it('refuses the lines the balance no longer covers, in the order of the lines', async () => {
    const one = await priceOf(plain, plain.amountMinimum);
    const user = await customer(one * 2);
    const text = [1, 2, 3].map(() => `${plain.id}|${link()}|${plain.amountMinimum}`).join('\n');
    const body = (await (await mass(user.cookie, { batchKey: 'batch-0004-short', text })).json()) as MassOrderResult;
    expect(body.lines.map((l) => (l.ok ? 'ok' : l.error.code))).toEqual(['ok', 'ok', 'INSUFFICIENT_BALANCE']);
    expect(await balanceOf(user.id)).toBe(0);
  });

  it('refuses a body that is not a mass order with a stable code, and strangers', async () => {
    const user = await customer(0);
    expect((await mass(user.cookie, { batchKey: 'batch-0005', text: '\n \n' })).status).toBe(422);
    expect((await mass(user.cookie, { batchKey: 'short', text: `${plain.id}|${link()}|100` })).status).toBe(422);
    expect((await mass(user.cookie, { batchKey: 'batch-0005', text: 'x|y|1', extra: 1 })).status).toBe(422);
    const many = Array.from({ length: 101 }, () => `${plain.id}|${link()}|100`).join('\n');
    const tooMany = await mass(user.cookie, { batchKey: 'batch-0005', text: many });
    expect(tooMany.status).toBe(422);
    expect((await tooMany.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: { reason: 'too_many' } });
    expect((await mass('', { batchKey: 'batch-0005', text: `${plain.id}|${link()}|100` })).status).toBe(401);
    expect(await ordersOf(user.id)).toHaveLength(0);
  });
});

describe('POST /api/orders/mass: services with extra fields', () => {
  it('places a line of a service whose extra fields are all optional, and refuses one whose fields are required', async () => {
    const all = await database.db.select().from(catalogServices);
    // A service of the shop with one optional field (a hashtag the views may come from); one with a required field.
    const optional = all.find((s) => s.platform === 'tiktok' && s.params.length === 0 && s.id !== plain.id && s.amountMinimum <= 1000)!;
    await database.db
      .update(catalogServices)
      .set({ params: [{ fieldName: 'hashtag', fieldLabel: 'Hashtag', fieldType: 'text', placeholder: '', description: '', required: false, options: [] }] })
      .where(eq(catalogServices.id, optional.id));
    const required = all.find((s) => s.params.some((p) => p.required) && s.platform === 'tiktok')!;
    const user = await customer(1_000_000_000);
    const text = [`${optional.id}|${link()}|${optional.amountMinimum}`, `${required.id}|${link()}|${required.amountMinimum}`].join('\n');
    const body = (await (await mass(user.cookie, { batchKey: 'batch-optional-1', text })).json()) as MassOrderResult;
    expect(body.lines.map((l) => l.ok)).toEqual([true, false]);
    expect(body.lines[1]).toMatchObject({ ok: false, error: { code: 'PARAM_REQUIRED' } });
    const [row] = await ordersOf(user.id);
    expect(row).toMatchObject({ serviceId: optional.id, params: {} });
  });
});
