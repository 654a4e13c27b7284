import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { overrideRolePermissionsForTest } from '../../core/permissions';
import { staffBonusesSchema, type BonusRuleInput, type CouponInput } from '../../core/contracts/bonuses';
import { signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { auditLog, coupons, depositBonusRules, payments, users } from '../db/schema';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { credit } from '../wallet/ledger';

/*
 * The team's bonus rules and coupons API (docs/rules.md#bonuses): read with payments:read, written
 * with prices:manage, every write audited and answered with the whole list; refusals write nothing.
 */

let database: Database;
let app: Hono;
let admin: string;
let moderator: Awaited<ReturnType<typeof signUpUser>>;
let restore: (() => void) | undefined;

const send = (method: string, path: string, cookie: string, body?: unknown) =>
  app.request(`/api/admin/bonuses${path}`, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const RULE: BonusRuleInput = { name: 'Card week', method: 'epoint', minMicros: 20_000_000, percentBp: 1000, capMicros: 5_000_000, startsAt: '2026-12-01T00:00:00+04:00', endsAt: null, enabled: true };
const COUPON: CouponInput = { code: 'welcome10', kind: 'percent', amountMicros: null, percentBp: 1000, capMicros: 3_000_000, minTopUpMicros: 10_000_000, perCustomer: 1, totalUses: 100, expiresAt: null, enabled: true };

const counts = async () => ({
  rules: (await database.db.select().from(depositBonusRules)).length,
  coupons: (await database.db.select().from(coupons)).length,
  audit: (await database.db.select().from(auditLog)).length,
});
/** The targets' names the audit log shows for an action's entries. */
const auditLabels = async (action: string) => {
  const res = await app.request(`/api/admin/audit?action=${action}`, { headers: { origin: TEST_ORIGIN, cookie: admin } });
  return ((await res.json()).entries as { target: { label: string | null } }[]).map((e) => e.target.label);
};
const auditOf = async (action: string) => database.db.select().from(auditLog).where(eq(auditLog.action, action));

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await createTestApp(database));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  moderator = await signUpUser(app);
  const res = await app.request(`/api/admin/users/${moderator.id}/roles`, { method: 'POST', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie: admin }, body: JSON.stringify({ role: 'moderator' }) });
  expect(res.status).toBe(201);
});
afterAll(async () => {
  await database.close();
});
afterEach(() => {
  restore?.();
  restore = undefined;
});
beforeEach(async () => {
  await database.db.delete(payments);
  await database.db.delete(coupons);
  await database.db.delete(depositBonusRules);
});

describe('bonus rules and coupons API', () => {
  it('adds a rule and changes it: the whole list answered, each write audited (the change as its changed fields)', async () => {
    const created = await send('POST', '/rules', admin, RULE);
    expect(created.status).toBe(201);
    const list = staffBonusesSchema.parse(await created.json());
    expect(list.rules).toHaveLength(1);
    const rule = list.rules[0]!;
    expect(rule).toMatchObject({ name: 'Card week', method: 'epoint', minMicros: 20_000_000, percentBp: 1000, capMicros: 5_000_000, endsAt: null, enabled: true, uses: 0, givenMicros: 0 });
    expect(Date.parse(rule.startsAt!)).toBe(Date.parse('2026-11-30T20:00:00Z'));
    const [made] = await auditOf('bonus_rule.create');
    expect(made).toMatchObject({ targetType: 'bonus_rule', targetId: String(rule.id) });
    expect(made!.details).toMatchObject({ name: 'Card week', percentBp: 1000, capMicros: 5_000_000 });

    const updated = await send('PUT', `/rules/${rule.id}`, admin, { ...RULE, method: null, percentBp: 1500, enabled: false });
    expect(updated.status).toBe(200);
    expect(staffBonusesSchema.parse(await updated.json()).rules[0]).toMatchObject({ id: rule.id, method: null, percentBp: 1500, enabled: false });
    const [changed] = await auditOf('bonus_rule.update');
    expect(changed!.details).toEqual({ method: { from: 'epoint', to: null }, percentBp: { from: 1000, to: 1500 }, enabled: { from: true, to: false } });

    expect((await send('PUT', '/rules/999999', admin, RULE)).status).toBe(404);
    // The audit log names the rule as it is called now.
    expect(await auditLabels('bonus_rule.update')).toEqual(['Card week']);
  });

  it('adds a coupon under its code in capitals and changes it, audited', async () => {
    const created = await send('POST', '/coupons', admin, COUPON);
    expect(created.status).toBe(201);
    const coupon = staffBonusesSchema.parse(await created.json()).coupons[0]!;
    expect(coupon).toMatchObject({ code: 'WELCOME10', kind: 'percent', amountMicros: null, percentBp: 1000, capMicros: 3_000_000, minTopUpMicros: 10_000_000, perCustomer: 1, totalUses: 100, uses: 0, givenMicros: 0 });
    expect((await auditOf('coupon.create'))[0]).toMatchObject({ targetType: 'coupon', targetId: String(coupon.id), details: expect.objectContaining({ code: 'WELCOME10', kind: 'percent' }) });

    const updated = await send('PUT', `/coupons/${coupon.id}`, admin, { ...COUPON, kind: 'amount', amountMicros: 2_000_000, percentBp: null, capMicros: null, totalUses: null });
    expect(updated.status).toBe(200);
    expect(staffBonusesSchema.parse(await updated.json()).coupons[0]).toMatchObject({ kind: 'amount', amountMicros: 2_000_000, percentBp: null, capMicros: null, totalUses: null });
    expect((await auditOf('coupon.update'))[0]!.details).toEqual({
      kind: { from: 'percent', to: 'amount' },
      amountMicros: { from: null, to: 2_000_000 },
      percentBp: { from: 1000, to: null },
      capMicros: { from: 3_000_000, to: null },
      totalUses: { from: 100, to: null },
    });
    expect(await auditLabels('coupon.create')).toEqual(['WELCOME10']);
  });

  it('refuses invalid rules and coupons with 422 VALIDATION_FAILED, writing nothing', async () => {
    await send('POST', '/rules', admin, RULE);
    await send('POST', '/coupons', admin, COUPON);
    const before = await counts();
    const [rule] = await database.db.select().from(depositBonusRules);
    const [coupon] = await database.db.select().from(coupons);
    const refused: [string, string, unknown][] = [
      ['POST', '/rules', { ...RULE, percentBp: 0 }],
      ['POST', '/rules', { ...RULE, percentBp: 10_001 }],
      ['POST', '/rules', { ...RULE, minMicros: 1_234_567 }], // not whole cents
      ['POST', '/rules', { ...RULE, startsAt: '2026-12-02T00:00:00Z', endsAt: '2026-12-01T00:00:00Z' }],
      ['POST', '/rules', { ...RULE, name: '   ' }],
      ['PUT', `/rules/${rule!.id}`, { ...RULE, method: 'cash' }],
      ['POST', '/coupons', { ...COUPON, code: 'x!' }],
      ['POST', '/coupons', { ...COUPON, kind: 'amount' }], // an amount coupon without its amount
      ['POST', '/coupons', { ...COUPON, amountMicros: 1_000_000 }], // a percent coupon with an amount
      ['POST', '/coupons', { ...COUPON, perCustomer: 0 }],
      ['PUT', `/coupons/${coupon!.id}`, { ...COUPON, expiresAt: 'tomorrow' }],
      ['PUT', `/coupons/${coupon!.id}`, { ...COUPON, isFree: true }],
    ];
    for (const [method, path, body] of refused) {
      const res = await send(method, path, admin, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(422);
      expect((await res.json()).error.code).toBe('VALIDATION_FAILED');
    }
    expect(await counts()).toEqual(before);
    expect((await database.db.select().from(coupons))[0]!.updatedAt).toEqual(coupon!.updatedAt);
  });

  it('refuses a code another coupon has, in any letter case, with 409 COUPON_CODE_TAKEN, writing nothing', async () => {
    await send('POST', '/coupons', admin, COUPON);
    await send('POST', '/coupons', admin, { ...COUPON, code: 'SPRING' });
    const spring = (await database.db.select().from(coupons)).find((c) => c.code === 'SPRING')!;
    const before = await counts();
    for (const [method, path, code] of [
      ['POST', '/coupons', 'WELCOME10'],
      ['POST', '/coupons', 'Welcome10'],
      ['PUT', `/coupons/${spring.id}`, 'welcome10'],
    ] as const) {
      const res = await send(method, path, admin, { ...COUPON, code });
      expect(res.status, `${method} ${code}`).toBe(409);
      expect((await res.json()).error.code).toBe('COUPON_CODE_TAKEN');
    }
    expect(await counts()).toEqual(before);
    // Its own code, in another case, is no clash.
    expect((await send('PUT', `/coupons/${spring.id}`, admin, { ...COUPON, code: 'spring' })).status).toBe(200);
  });

  it('lets a moderator who reads payments read the list, but not write (403 FORBIDDEN), writing nothing', async () => {
    // The moderator as if given the payments' reading (the table gives it to no moderator today).
    restore = overrideRolePermissionsForTest({ moderator: ['staff:enter', 'payments:read'] });
    await send('POST', '/rules', admin, RULE);
    await send('POST', '/coupons', admin, COUPON);
    const [rule] = await database.db.select().from(depositBonusRules);
    const [coupon] = await database.db.select().from(coupons);
    const before = await counts();
    const read = await send('GET', '', moderator.cookie);
    expect(read.status).toBe(200);
    expect(staffBonusesSchema.parse(await read.json()).rules).toHaveLength(1);
    for (const [method, path, body] of [
      ['POST', '/rules', RULE],
      ['PUT', `/rules/${rule!.id}`, RULE],
      ['POST', '/coupons', { ...COUPON, code: 'MODERATOR' }],
      ['PUT', `/coupons/${coupon!.id}`, COUPON],
    ] as const) {
      const res = await send(method, path, moderator.cookie, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await res.json()).error.code).toBe('FORBIDDEN');
    }
    expect(await counts()).toEqual(before);
    const customer = await signUpUser(app);
    expect((await send('GET', '', customer.cookie)).status).toBe(403);
  });

  it('lists each rule’s completed uses and each coupon’s live uses with what their ledger entries gave', async () => {
    await send('POST', '/rules', admin, RULE);
    await send('POST', '/coupons', admin, COUPON);
    const [rule] = await database.db.select().from(depositBonusRules);
    const [coupon] = await database.db.select().from(coupons);
    const customer = await signUpUser(app);
    const pay = async (status: 'completed' | 'pending' | 'failed', bonusMicros: number, couponMicros: number) => {
      const [p] = await database.db
        .insert(payments)
        .values({ reference: `bonus-${status}-${Math.random()}`, userId: customer.id, amountUsdMicros: 30_000_000, amountMinor: 5100, rate: '1.7', provider: 'sandbox', status, bonusRuleId: bonusMicros ? rule!.id : null, bonusMicros, couponId: coupon!.id, couponMicros })
        .returning();
      if (status !== 'completed') return;
      await credit(database.db, { userId: customer.id, amountMicros: 30_000_000, kind: 'topup', reference: p!.id });
      if (bonusMicros) await credit(database.db, { userId: customer.id, amountMicros: bonusMicros, kind: 'deposit_bonus', reference: p!.id });
      await credit(database.db, { userId: customer.id, amountMicros: couponMicros, kind: 'coupon_bonus', reference: p!.id });
    };
    await pay('completed', 3_000_000, 3_000_000);
    await pay('completed', 2_500_000, 2_500_000);
    await pay('pending', 3_000_000, 3_000_000);
    await pay('failed', 0, 3_000_000);
    const res = await send('GET', '', admin);
    expect(res.status).toBe(200);
    const list = staffBonusesSchema.parse(await res.json());
    expect(list.rules[0]).toMatchObject({ id: rule!.id, uses: 2, givenMicros: 5_500_000 });
    // A pending top-up holds its coupon use; a failed one does not. Only what was credited was given.
    expect(list.coupons[0]).toMatchObject({ id: coupon!.id, uses: 3, givenMicros: 5_500_000 });
    expect((await database.db.select().from(users).where(eq(users.id, customer.id)))[0]!.balanceMicros).toBe(71_000_000);
  });
});
