import { and, desc, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { SIGN_INS_KEPT } from '../../core/contracts/account';
import type { Database } from '../db/client';
import { auditLog, devMailbox, sessions, signIns, twoFactors, userRoles, users } from '../db/schema';
import { createTestApp } from '../testing/app';
import { useTestShop } from '../testing/shop';
import { totpCode, wrongTotpCode } from '../testing/totp';
import { saveSettings } from '../settings/service';
import { cookiesFrom, signUpUser, TEST_ORIGIN } from './testing';

let database: Database;
let app: Hono;
let deps: Awaited<ReturnType<typeof createTestApp>>['deps'];

useTestShop((shop) => ({ database, app, deps } = shop));

const CHROME_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

interface Call {
  cookie?: string;
  ip?: string;
  userAgent?: string;
}

const send = (on: Hono, method: string, path: string, body: unknown, opts: Call = {}) =>
  on.request(path, {
    method,
    headers: {
      origin: TEST_ORIGIN,
      'content-type': 'application/json',
      'x-forwarded-for': opts.ip ?? '203.0.113.7',
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
      ...(opts.userAgent ? { 'user-agent': opts.userAgent } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const post = (path: string, body: unknown, opts: Call = {}, on: Hono = app) => send(on, 'POST', path, body, opts);
const get = (path: string, cookie?: string, on: Hono = app) => send(on, 'GET', path, undefined, { cookie });

async function me(cookie: string, on: Hono = app) {
  return ((await (await get('/api/me', cookie, on)).json()) as { user: null | { email: string; twoFactorEnabled: boolean; twoFactorRequired: boolean } }).user;
}

async function errorCode(res: Response) {
  return ((await res.json()) as { error?: { code?: string } }).error?.code;
}

/** Turns the second factor on for a signed-in account: its authenticator address, recovery codes and the new session cookie. */
async function enable(account: { cookie: string; password: string }, on: Hono = app, ip?: string) {
  const started = await post('/api/auth/two-factor/enable', { password: account.password }, { cookie: account.cookie, ip }, on);
  expect(started.status).toBe(200);
  const { totpURI, backupCodes } = (await started.json()) as { totpURI: string; backupCodes: string[] };
  const done = await post('/api/auth/two-factor/verify-totp', { code: totpCode(totpURI) }, { cookie: account.cookie, ip }, on);
  expect(done.status).toBe(200);
  return { totpURI, backupCodes, cookie: cookiesFrom(done) };
}

/** The password step of a sign-in: the answer and its cookies (the challenge's, or a session's). */
async function passwordStep(email: string, password: string, opts: Call = {}, on: Hono = app) {
  const res = await post('/api/auth/sign-in/email', { email, password }, opts, on);
  expect(res.status).toBe(200);
  return { body: (await res.json()) as Record<string, unknown>, cookie: cookiesFrom(res) };
}

describe('turning the second factor on', () => {
  it('asks for the password, shows an authenticator address in the shop’s name and ten recovery codes, and is on only once a first code is typed', async () => {
    await saveSettings(database.db, { site_name: 'Artım Test' });
    const account = await signUpUser(app);

    const wrong = await post('/api/auth/two-factor/enable', { password: 'Not-the-pass1!' }, { cookie: account.cookie });
    expect(wrong.status).toBe(401);
    expect(await errorCode(wrong)).toBe('INVALID_CREDENTIALS');
    expect(await database.db.select().from(twoFactors).where(eq(twoFactors.userId, account.id))).toHaveLength(0);

    const started = await post('/api/auth/two-factor/enable', { password: account.password }, { cookie: account.cookie });
    expect(started.status).toBe(200);
    const { totpURI, backupCodes } = (await started.json()) as { totpURI: string; backupCodes: string[] };
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Art%C4%B1m%20Test:/);
    expect(new URL(totpURI).searchParams.get('secret')).toMatch(/^[A-Z2-7]{32,}$/);
    expect(backupCodes).toHaveLength(10);
    for (const code of backupCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
    // Not on yet: the secret is stored, sealed, unverified.
    const [row] = await database.db.select().from(twoFactors).where(eq(twoFactors.userId, account.id));
    expect(row!.verified).toBe(false);
    expect(row!.secret).not.toContain(new URL(totpURI).searchParams.get('secret'));
    expect((await me(account.cookie))!.twoFactorEnabled).toBe(false);

    const bad = await post('/api/auth/two-factor/verify-totp', { code: wrongTotpCode(totpURI) }, { cookie: account.cookie });
    expect(bad.status).toBe(422);
    expect(await errorCode(bad)).toBe('TWO_FACTOR_CODE_INVALID');
    const malformed = await post('/api/auth/two-factor/verify-totp', { code: '12ab56' }, { cookie: account.cookie });
    expect(malformed.status).toBe(422);
    expect(await errorCode(malformed)).toBe('TWO_FACTOR_CODE_INVALID');
    expect((await me(account.cookie))!.twoFactorEnabled).toBe(false);

    // Spaces typed between the digits are fine.
    const code = totpCode(totpURI);
    const done = await post('/api/auth/two-factor/verify-totp', { code: `${code.slice(0, 3)} ${code.slice(3)}` }, { cookie: account.cookie });
    expect(done.status).toBe(200);
    const cookie = cookiesFrom(done);
    expect((await me(cookie))!.twoFactorEnabled).toBe(true);
    expect((await database.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, account.id)))[0]!.on).toBe(true);

    const again = await post('/api/auth/two-factor/enable', { password: account.password }, { cookie });
    expect(again.status).toBe(409);
    expect(await errorCode(again)).toBe('TWO_FACTOR_ALREADY_ENABLED');
  });

  it('refuses fields the form does not send, and a caller without a session', async () => {
    const account = await signUpUser(app);
    const extra = await post('/api/auth/two-factor/enable', { password: account.password, method: 'otp' }, { cookie: account.cookie });
    expect(extra.status).toBe(422);
    expect(await errorCode(extra)).toBe('VALIDATION_FAILED');
    const trust = await post('/api/auth/two-factor/verify-totp', { code: '123456', trustDevice: true }, { cookie: account.cookie });
    expect(trust.status).toBe(422);
    const anonymous = await post('/api/auth/two-factor/enable', { password: account.password });
    expect(anonymous.status).toBe(401);
  });
});

describe('signing in with the second factor', () => {
  let account: Awaited<ReturnType<typeof signUpUser>>;
  let setup: Awaited<ReturnType<typeof enable>>;
  beforeAll(async () => {
    account = await signUpUser(app);
    setup = await enable(account);
  });

  it('answers the password with a code step and no session; the code from the app opens the session', async () => {
    const step = await passwordStep(account.email, account.password);
    expect(step.body).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(step.cookie).not.toMatch(/session_token/);
    expect(await me(step.cookie)).toBeNull();

    const wrong = await post('/api/auth/two-factor/verify-totp', { code: wrongTotpCode(setup.totpURI) }, { cookie: step.cookie });
    expect(wrong.status).toBe(422);
    expect(await errorCode(wrong)).toBe('TWO_FACTOR_CODE_INVALID');

    const res = await post('/api/auth/two-factor/verify-totp', { code: totpCode(setup.totpURI) }, { cookie: step.cookie });
    expect(res.status).toBe(200);
    expect((await me(cookiesFrom(res)))!.email).toBe(account.email);
  });

  it('a wrong password still says only INVALID_CREDENTIALS', async () => {
    const res = await post('/api/auth/sign-in/email', { email: account.email, password: 'Wrong-pass-1!' });
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe('INVALID_CREDENTIALS');
  });

  it('a code without a password step first, or after the step’s five tries, is refused: sign in again', async () => {
    const none = await post('/api/auth/two-factor/verify-totp', { code: totpCode(setup.totpURI) });
    expect(none.status).toBe(400);
    expect(await errorCode(none)).toBe('TWO_FACTOR_EXPIRED');

    const step = await passwordStep(account.email, account.password);
    for (let i = 0; i < 5; i++) {
      expect(await errorCode(await post('/api/auth/two-factor/verify-totp', { code: wrongTotpCode(setup.totpURI) }, { cookie: step.cookie }))).toBe('TWO_FACTOR_CODE_INVALID');
    }
    const sixth = await post('/api/auth/two-factor/verify-totp', { code: totpCode(setup.totpURI) }, { cookie: step.cookie });
    expect(await errorCode(sixth)).toBe('TWO_FACTOR_EXPIRED');
    // The wrong codes were counted towards the account's lock; a right code clears the count.
    const next = await passwordStep(account.email, account.password);
    expect((await post('/api/auth/two-factor/verify-totp', { code: totpCode(setup.totpURI) }, { cookie: next.cookie })).status).toBe(200);
    const [row] = await database.db.select().from(twoFactors).where(eq(twoFactors.userId, account.id));
    expect(row!.failedVerificationCount).toBe(0);
  });

  it('a recovery code opens a session once; the same code is refused the second time', async () => {
    const [first, second] = setup.backupCodes;
    const step = await passwordStep(account.email, account.password);
    const used = await post('/api/auth/two-factor/verify-backup-code', { code: first }, { cookie: step.cookie });
    expect(used.status).toBe(200);
    expect((await me(cookiesFrom(used)))!.email).toBe(account.email);

    const again = await passwordStep(account.email, account.password);
    const reused = await post('/api/auth/two-factor/verify-backup-code', { code: first }, { cookie: again.cookie });
    expect(reused.status).toBe(422);
    expect(await errorCode(reused)).toBe('TWO_FACTOR_CODE_INVALID');
    const other = await post('/api/auth/two-factor/verify-backup-code', { code: second }, { cookie: again.cookie });
    expect(other.status).toBe(200);
  });

  it('new recovery codes (password again) replace the old ones', async () => {
    const step = await passwordStep(account.email, account.password);
    const session = cookiesFrom(await post('/api/auth/two-factor/verify-totp', { code: totpCode(setup.totpURI) }, { cookie: step.cookie }));
    const wrong = await post('/api/auth/two-factor/generate-backup-codes', { password: 'Wrong-pass-1!' }, { cookie: session });
    expect(await errorCode(wrong)).toBe('INVALID_CREDENTIALS');
    const res = await post('/api/auth/two-factor/generate-backup-codes', { password: account.password }, { cookie: session });
    expect(res.status).toBe(200);
    const { backupCodes } = (await res.json()) as { backupCodes: string[] };
    expect(backupCodes).toHaveLength(10);
    expect(backupCodes).not.toContain(setup.backupCodes[2]);

    const old = await passwordStep(account.email, account.password);
    expect(await errorCode(await post('/api/auth/two-factor/verify-backup-code', { code: setup.backupCodes[2] }, { cookie: old.cookie }))).toBe('TWO_FACTOR_CODE_INVALID');
    expect((await post('/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] }, { cookie: old.cookie })).status).toBe(200);
  });

  it('turned off with the password, the password alone signs in again', async () => {
    const other = await signUpUser(app);
    const on = await enable(other);
    const wrong = await post('/api/auth/two-factor/disable', { password: 'Wrong-pass-1!' }, { cookie: on.cookie });
    expect(await errorCode(wrong)).toBe('INVALID_CREDENTIALS');
    const off = await post('/api/auth/two-factor/disable', { password: other.password }, { cookie: on.cookie });
    expect(off.status).toBe(200);
    expect((await me(cookiesFrom(off)))!.twoFactorEnabled).toBe(false);
    expect(await database.db.select().from(twoFactors).where(eq(twoFactors.userId, other.id))).toHaveLength(0);
    const step = await passwordStep(other.email, other.password);
    expect(step.body.twoFactorRedirect).toBeUndefined();
    expect((await me(step.cookie))!.email).toBe(other.email);
  });

  it('codes are counted per address: past the limit, RATE_LIMITED before any check', async () => {
    const step = await passwordStep(account.email, account.password);
    const ip = '192.0.2.99';
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) last = await post('/api/auth/two-factor/verify-backup-code', { code: 'aaaaa-bbbbb' }, { cookie: step.cookie, ip });
    expect(last!.status).toBe(429);
    expect(await errorCode(last!)).toBe('RATE_LIMITED');
  });
});

describe('the admin area and the second factor', () => {
  /** A new account with the admin role (the seeded admin is left as it is). */
  async function newAdmin(on: Hono = app) {
    const account = await signUpUser(on);
    await database.db.insert(userRoles).values({ userId: account.id, role: 'admin' });
    // A fresh session reads the new role.
    const { cookie } = await passwordStep(account.email, account.password, {}, on);
    return { ...account, cookie };
  }

  it('outside production a team member without a second factor uses the admin area; it is offered, not required', async () => {
    const admin = await newAdmin();
    expect(await me(admin.cookie)).toMatchObject({ twoFactorEnabled: false, twoFactorRequired: false });
    expect((await get('/api/admin/dashboard', admin.cookie)).status).toBe(200);
  });

  describe('in production', () => {
    let production: Hono;
    beforeAll(async () => {
      ({ app: production } = await createTestApp(database, { env: { ...deps.env, NODE_ENV: 'production' } }));
    });

    it('refuses a team member without a second factor with TWO_FACTOR_REQUIRED until one is set up; customers are refused as before', async () => {
      const admin = await newAdmin(production);
      expect(await me(admin.cookie, production)).toMatchObject({ twoFactorEnabled: false, twoFactorRequired: true });
      for (const path of ['/api/admin/dashboard', '/api/admin/users', '/api/admin/support/tickets']) {
        const res = await get(path, admin.cookie, production);
        expect(res.status, path).toBe(403);
        expect(await errorCode(res)).toBe('TWO_FACTOR_REQUIRED');
      }
      const customer = await signUpUser(production);
      expect(await me(customer.cookie, production)).toMatchObject({ twoFactorRequired: false });
      const refused = await get('/api/admin/dashboard', customer.cookie, production);
      expect(refused.status).toBe(403);
      expect(await errorCode(refused)).toBe('FORBIDDEN');

      // Setting it up is open to them (it is not under /api/admin), and then the area is.
      const { cookie } = await enable(admin, production);
      expect(await me(cookie, production)).toMatchObject({ twoFactorEnabled: true, twoFactorRequired: true });
      expect((await get('/api/admin/dashboard', cookie, production)).status).toBe(200);
    });

    it('a team member with the second factor turned off again is refused again', async () => {
      const admin = await newAdmin(production);
      const on = await enable(admin, production);
      const off = await post('/api/auth/two-factor/disable', { password: admin.password }, { cookie: on.cookie }, production);
      expect(off.status).toBe(200);
      expect(await errorCode(await get('/api/admin/dashboard', cookiesFrom(off), production))).toBe('TWO_FACTOR_REQUIRED');
    });
  });

  it('a team member’s changes to the second factor are in the audit log; a customer’s are not', async () => {
    const admin = await newAdmin();
    const on = await enable(admin);
    await post('/api/auth/two-factor/generate-backup-codes', { password: admin.password }, { cookie: on.cookie });
    await post('/api/auth/two-factor/disable', { password: admin.password }, { cookie: on.cookie });
    const actions = await database.db.select({ action: auditLog.action, targetId: auditLog.targetId }).from(auditLog).where(eq(auditLog.actorId, admin.id));
    expect(actions.map((a) => a.action).sort()).toEqual(['two_factor.disable', 'two_factor.enable', 'two_factor.recovery_codes']);
    expect(actions.every((a) => a.targetId === admin.id)).toBe(true);

    const customer = await signUpUser(app);
    await enable(customer);
    expect(await database.db.select().from(auditLog).where(eq(auditLog.actorId, customer.id))).toHaveLength(0);
  });
});

describe('recent sign-ins', () => {
  it('lists each sign-in with its time, address and device, newest first, and says how it was passed', async () => {
    const account = await signUpUser(app);
    await passwordStep(account.email, account.password, { ip: '198.51.100.21', userAgent: CHROME_ON_WINDOWS });
    const setup = await enable(account);
    const step = await passwordStep(account.email, account.password, { ip: '198.51.100.22', userAgent: SAFARI_ON_IPHONE });
    // The password step of a second-factor account is not a sign-in yet.
    expect((await database.db.select().from(signIns).where(and(eq(signIns.userId, account.id), eq(signIns.ipAddress, '198.51.100.22')))).length).toBe(0);
    const res = await post('/api/auth/two-factor/verify-totp', { code: totpCode(setup.totpURI) }, { cookie: step.cookie, ip: '198.51.100.22', userAgent: SAFARI_ON_IPHONE });
    const cookie = cookiesFrom(res);

    const list = await get('/api/auth-extra/sign-ins', cookie);
    expect(list.status).toBe(200);
    const { signIns: entries } = (await list.json()) as { signIns: { at: string; ipAddress: string; browser: string; os: string; method: string }[] };
    // Newest first: the code after the password, the password, and the sign-up.
    expect(entries.map(({ ipAddress, browser, os, method }) => ({ ipAddress, browser, os, method }))).toEqual([
      { ipAddress: '198.51.100.22', browser: 'Safari', os: 'iPhone', method: 'totp' },
      { ipAddress: '198.51.100.21', browser: 'Chrome', os: 'Windows', method: 'password' },
      { ipAddress: expect.any(String), browser: null, os: null, method: 'password' },
    ]);
    expect(Number.isNaN(Date.parse(entries[0]!.at))).toBe(false);
  });

  it(`keeps the newest ${SIGN_INS_KEPT} per account`, async () => {
    const account = await signUpUser(app);
    for (let i = 0; i < SIGN_INS_KEPT + 4; i++) await passwordStep(account.email, account.password, { ip: `198.51.100.${100 + i}` });
    const rows = await database.db.select().from(signIns).where(eq(signIns.userId, account.id));
    expect(rows).toHaveLength(SIGN_INS_KEPT);
    const { signIns: entries } = (await (await get('/api/auth-extra/sign-ins', account.cookie)).json()) as { signIns: { ipAddress: string }[] };
    expect(entries).toHaveLength(SIGN_INS_KEPT);
    expect(entries[0]!.ipAddress).toBe(`198.51.100.${100 + SIGN_INS_KEPT + 3}`);
    expect(entries.map((e) => e.ipAddress)).not.toContain('198.51.100.100');
  });

  it('the team reads a user’s sign-ins and whether they have a second factor; a customer cannot, nor can anyone signed out', async () => {
    const customer = await signUpUser(app);
    await passwordStep(customer.email, customer.password, { ip: '198.51.100.40', userAgent: CHROME_ON_WINDOWS });
    const admin = (await passwordStep('admin@test.local', 'Admin-Pass-123!')).cookie;
    const res = await get(`/api/admin/users/${customer.id}/sign-ins`, admin);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { twoFactorEnabled: boolean; signIns: { ipAddress: string; browser: string; os: string }[] };
    expect(body.twoFactorEnabled).toBe(false);
    expect(body.signIns[0]).toMatchObject({ ipAddress: '198.51.100.40', browser: 'Chrome', os: 'Windows' });
    const listed = (await (await get(`/api/admin/users?q=${encodeURIComponent(customer.email)}`, admin)).json()) as { users: { twoFactorEnabled: boolean }[] };
    expect(listed.users[0]!.twoFactorEnabled).toBe(false);

    expect((await get('/api/admin/users/no-such-user/sign-ins', admin)).status).toBe(404);
    expect((await get(`/api/admin/users/${customer.id}/sign-ins`, customer.cookie)).status).toBe(403);
    expect((await get('/api/auth-extra/sign-ins')).status).toBe(401);
  });
});

describe('the team removes a lost second factor', () => {
  const reset = (userId: string, body: unknown, cookie?: string, on: Hono = app) => post(`/api/admin/users/${userId}/second-factor/reset`, body, { cookie }, on);
  const adminCookie = async (on: Hono = app) => (await passwordStep('admin@test.local', 'Admin-Pass-123!', {}, on)).cookie;
  const lastMailTo = async (email: string) => (await database.db.select().from(devMailbox).where(eq(devMailbox.to, email)).orderBy(desc(devMailbox.id)).limit(1))[0];

  /** An account with a second factor, its last sign-in made in `lang`: its details, authenticator address and live session. */
  // Each account's codes come from an address of its own, clear of the per-address limit.
  let accounts = 0;
  async function withSecondFactor(lang: 'az' | 'tr' | 'en', role?: 'moderator' | 'admin', on: Hono = app) {
    const ip = `198.18.0.${(accounts += 1)}`;
    const account = await signUpUser(on);
    if (role) await database.db.insert(userRoles).values({ userId: account.id, role });
    const { totpURI } = await enable(account, on, ip);
    const step = await passwordStep(account.email, account.password, { cookie: `lang=${lang}`, ip }, on);
    const res = await post('/api/auth/two-factor/verify-totp', { code: totpCode(totpURI) }, { cookie: `lang=${lang}; ${step.cookie}`, ip }, on);
    expect(res.status).toBe(200);
    return { ...account, totpURI, cookie: cookiesFrom(res) };
  }

  it('an admin removes it with a reason: the factor is gone, every session ends, the password alone signs in, the log keeps the reason and the owner is told in their language', async () => {
    const target = await withSecondFactor('tr');
    const other = await passwordStep(target.email, target.password);
    expect(other.body).toMatchObject({ twoFactorRedirect: true });
    const admin = await adminCookie();
    expect((await me(target.cookie))!.twoFactorEnabled).toBe(true);

    const res = await reset(target.id, { reason: '  Lost phone and codes; checked by video call  ' }, admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, mailSent: true });

    expect(await database.db.select().from(twoFactors).where(eq(twoFactors.userId, target.id))).toHaveLength(0);
    expect((await database.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, target.id)))[0]!.on).toBe(false);
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, target.id))).toHaveLength(0);
    expect(await me(target.cookie)).toBeNull();
    // A code step begun before is over: there is no factor to check the code against.
    expect((await post('/api/auth/two-factor/verify-totp', { code: totpCode(target.totpURI) }, { cookie: other.cookie, ip: '198.18.1.3' })).status).toBeGreaterThanOrEqual(400);

    const [entry] = await database.db.select().from(auditLog).where(and(eq(auditLog.action, 'two_factor.reset'), eq(auditLog.targetId, target.id)));
    expect(entry).toMatchObject({ actorEmail: 'admin@test.local', targetType: 'user', details: { reason: 'Lost phone and codes; checked by video call' } });

    const mail = await lastMailTo(target.email);
    expect(mail?.subject).toMatch(/^Hesabınızda iki adımlı doğrulama kapatıldı · /);
    expect(mail?.text).toContain('http://localhost:3000/tr/dashboard#settings');
    expect(mail?.text).not.toContain('video call');

    const again = await passwordStep(target.email, target.password);
    expect(again.body.twoFactorRedirect).toBeUndefined();
    expect(await me(again.cookie)).toMatchObject({ email: target.email, twoFactorEnabled: false });
  });

  it('refuses the admin’s own factor, an account without one, an unknown account, and a reason that is blank, too long or comes with other fields', async () => {
    const admin = await withSecondFactor('en', 'admin');
    const own = await reset(admin.id, { reason: 'Mine' }, admin.cookie);
    expect(own.status).toBe(403);
    expect(await errorCode(own)).toBe('TWO_FACTOR_RESET_OWN');
    expect((await me(admin.cookie))!.twoFactorEnabled).toBe(true);

    const customer = await signUpUser(app);
    const none = await reset(customer.id, { reason: 'Lost phone' }, admin.cookie);
    expect(none.status).toBe(409);
    expect(await errorCode(none)).toBe('TWO_FACTOR_NOT_ENABLED');
    expect(await me(customer.cookie)).not.toBeNull();

    const unknown = await reset('no-such-user', { reason: 'Lost phone' }, admin.cookie);
    expect(unknown.status).toBe(404);
    expect(await errorCode(unknown)).toBe('NOT_FOUND');

    const target = await withSecondFactor('az');
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 'Lost phone', notify: false }]) {
      const res = await reset(target.id, body, admin.cookie);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(422);
      expect(await errorCode(res)).toBe('VALIDATION_FAILED');
    }
    expect((await me(target.cookie))!.twoFactorEnabled).toBe(true);
    // One character and five hundred are enough; the second time there is nothing left to remove.
    expect((await reset(target.id, { reason: 'x'.repeat(500) }, admin.cookie)).status).toBe(200);
    const twice = await reset(target.id, { reason: 'x' }, admin.cookie);
    expect(twice.status).toBe(409);
    expect(await errorCode(twice)).toBe('TWO_FACTOR_NOT_ENABLED');
    expect(await database.db.select().from(auditLog).where(and(eq(auditLog.action, 'two_factor.reset'), eq(auditLog.targetId, target.id)))).toHaveLength(1);
  });

  it('only admins may: a moderator and a customer are refused and change nothing, and so is anyone signed out', async () => {
    const target = await withSecondFactor('az');
    const moderator = await withSecondFactor('az', 'moderator');
    const customer = await signUpUser(app);
    for (const [who, cookie, status] of [
      ['moderator', moderator.cookie, 403],
      ['customer', customer.cookie, 403],
      ['signed out', undefined, 401],
    ] as const) {
      const res = await reset(target.id, { reason: 'Lost phone' }, cookie);
      expect(res.status, who).toBe(status);
      if (status === 403) expect(await errorCode(res)).toBe('FORBIDDEN');
    }
    expect((await me(target.cookie))!.twoFactorEnabled).toBe(true);
    expect(await database.db.select().from(twoFactors).where(eq(twoFactors.userId, target.id))).toHaveLength(1);

    expect((await reset(target.id, { reason: 'Lost phone' }, await adminCookie())).status).toBe(200);
  });

  it('without a sign-in that kept a language the mail is in English; a mail that cannot be sent does not undo the removal', async () => {
    const account = await signUpUser(app);
    await enable(account, app, '198.18.1.1');
    expect((await reset(account.id, { reason: 'Lost phone' }, await adminCookie())).status).toBe(200);
    expect((await lastMailTo(account.email))?.subject).toMatch(/^Two-factor sign-in was turned off on your account · /);

    const { app: noMail } = await createTestApp(database, {
      mailer: {
        kind: 'smtp',
        send: async () => {
          throw new Error('the mail server refused');
        },
      },
    });
    const target = await withSecondFactor('az', undefined, noMail);
    const res = await reset(target.id, { reason: 'Lost phone' }, await adminCookie(noMail), noMail);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, mailSent: false });
    expect((await database.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, target.id)))[0]!.on).toBe(false);
  });

  describe('in production', () => {
    let production: Hono;
    beforeAll(async () => {
      ({ app: production } = await createTestApp(database, { env: { ...deps.env, NODE_ENV: 'production' } }));
    });

    it('a team member whose factor was removed signs in with the password and is asked to set up a new one before the admin area opens', async () => {
      const admin = await withSecondFactor('en', 'admin', production);
      const member = await withSecondFactor('az', 'moderator', production);
      expect((await get('/api/admin/support/tickets', member.cookie, production)).status).toBe(200);

      expect((await reset(member.id, { reason: 'New phone, old one lost' }, admin.cookie, production)).status).toBe(200);
      const { cookie } = await passwordStep(member.email, member.password, {}, production);
      expect(await me(cookie, production)).toMatchObject({ twoFactorEnabled: false, twoFactorRequired: true });
      const refused = await get('/api/admin/support/tickets', cookie, production);
      expect(refused.status).toBe(403);
      expect(await errorCode(refused)).toBe('TWO_FACTOR_REQUIRED');
      const again = await enable({ ...member, cookie }, production, '198.18.1.2');
      expect((await get('/api/admin/support/tickets', again.cookie, production)).status).toBe(200);
    });
  });
});
