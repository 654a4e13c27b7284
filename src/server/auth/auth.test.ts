import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { overrideRolePermissionsForTest, ROLE_PERMISSIONS } from '../../core/permissions';
import { userRoles } from '../db/schema';
import type { Database } from '../db/client';
import { ledgerEntries, users } from '../db/schema';
import { type createTestApp } from '../testing/app';
import { saveSettings } from '../settings/service';
import { cookiesFrom, post, signIn, signUpUser } from './testing';
import { useTestShop } from '../testing/shop';

let database: Database;
let app: Awaited<ReturnType<typeof createTestApp>>['app'];

useTestShop((shop) => ({ database, app } = shop));

const me = async (cookie?: string) => {
  const res = await app.request('/api/me', { headers: cookie ? { cookie } : {} });
  return ((await res.json()) as { user: null | { id: string; email: string; fullName: string; roles: string[]; balanceMicros: number } }).user;
};

describe('sign-up', () => {
  it('creates the account with the user role, a trimmed name and a lower-cased e-mail, and signs in', async () => {
    const res = await post(app, '/api/auth/sign-up/email', { name: '  Aysel Məmmədova ', email: ' Aysel@Example.COM ', password: 'Güclü-şifrə1' });
    expect(res.status).toBe(200);
    const cookie = cookiesFrom(res);
    expect(await me(cookie)).toMatchObject({ email: 'aysel@example.com', fullName: 'Aysel Məmmədova', roles: ['user'], balanceMicros: 0 });
  });

  it('sets the session cookie httpOnly and SameSite=Lax (not Secure outside production)', async () => {
    const res = await post(app, '/api/auth/sign-up/email', { name: 'Cookie Person', email: 'cookie@example.com', password: 'Str0ng-pass!' });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('artim.session_token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it.each([
    [{ name: 'Ab', email: 'short@example.com', password: 'Str0ng-pass!' }, 'VALIDATION_FAILED'],
    [{ name: '   Abc   ', email: 'no-at-sign.example.com', password: 'Str0ng-pass!' }, 'EMAIL_INVALID'],
    [{ name: 'Weak Pass', email: 'weak@example.com', password: 'abcdefgh' }, 'PASSWORD_WEAK'],
    [{ name: 'Short Pass', email: 'short-pass@example.com', password: 'Ab1!' }, 'PASSWORD_WEAK'],
  ])('refuses %o with %s', async (input, code) => {
    const res = await post(app, '/api/auth/sign-up/email', input);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code } });
    const rows = await database.db.select().from(users).where(eq(users.email, input.email.trim().toLowerCase()));
    expect(rows).toHaveLength(0);
  });

  it('refuses a taken e-mail with EMAIL_TAKEN, whatever its case', async () => {
    await signUpUser(app, { email: 'taken@example.com' });
    const res = await post(app, '/api/auth/sign-up/email', { name: 'Someone Else', email: 'TAKEN@example.com', password: 'Str0ng-pass!' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'EMAIL_TAKEN' } });
  });

  it('refuses sign-up with REGISTRATION_CLOSED when registration is off', async () => {
    await saveSettings(database.db, { allow_registration: false });
    try {
      const res = await post(app, '/api/auth/sign-up/email', { name: 'Closed Door', email: 'closed@example.com', password: 'Str0ng-pass!' });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 'REGISTRATION_CLOSED' } });
    } finally {
      await saveSettings(database.db, { allow_registration: true });
    }
  });

  it('gives no entry when the default balance is 0', async () => {
    const user = await signUpUser(app);
    expect(await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id))).toHaveLength(0);
  });
});

describe('account writes take exactly the fields the forms send', () => {
  it('refuses a sign-up with a field the form never sends (a profile image) and creates nothing', async () => {
    const res = await post(app, '/api/auth/sign-up/email', { name: 'Image Person', email: 'image@example.com', password: 'Str0ng-pass!', image: 'https://evil.example/x.png' }, { ip: '203.0.113.91' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    expect(await database.db.select().from(users).where(eq(users.email, 'image@example.com'))).toHaveLength(0);
  });

  it('refuses a profile update with an image or any other extra field and changes nothing', async () => {
    const user = await signUpUser(app);
    for (const extra of [{ image: 'https://evil.example/x.png' }, { email: 'other@example.com' }, { emailVerified: true }]) {
      const res = await post(app, '/api/auth/update-user', { name: 'Changed Name', ...extra }, { cookie: user.cookie });
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ name: user.name, image: null, email: user.email, emailVerified: false });
  });

  it.each([
    ['/api/auth/sign-in/email', { email: 'nobody@example.com', password: 'Str0ng-pass!', image: 'x' }],
    ['/api/auth/sign-in/email', { email: 'nobody@example.com', password: 'Str0ng-pass!', callbackURL: '/elsewhere' }],
    ['/api/auth/request-password-reset', { email: 'nobody@example.com', redirectTo: '/elsewhere' }],
    ['/api/auth/reset-password', { token: 'some-token', newPassword: 'Str0ng-pass!', image: 'x' }],
  ])('refuses %s with an extra field: VALIDATION_FAILED', async (path, body) => {
    const res = await post(app, path, body, { ip: '203.0.113.90' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
  });

  it('refuses a password change with an extra field and keeps the password', async () => {
    const user = await signUpUser(app);
    const res = await post(app, '/api/auth/change-password', { currentPassword: user.password, newPassword: 'N3w-Strong!', image: 'x' }, { cookie: user.cookie });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    expect(await signIn(app, user.email, user.password)).toContain('artim.session_token=');
  });
});

describe('names with invisible characters', () => {
  let n = 0;
  it.each(['\u202Enimda', 'Ali\u200F Veli', 'Ali\u2066 Veli', 'Ali\u061C Veli', 'Ali\u200B Veli', 'Ali\u0000 Veli', 'Ali\nVeli', '\u3164\u3164\u3164'])(
    'refuses %j at sign-up and in a profile update',
    async (name) => {
      n += 1;
      const email = `invisible-${n}@example.com`;
      // A NUL is refused for any request before it reaches a route (400); the rest by the name rule (422).
      const refused = name.includes('\u0000') ? { status: 400, code: 'BAD_REQUEST' } : { status: 422, code: 'VALIDATION_FAILED' };
      const res = await post(app, '/api/auth/sign-up/email', { name, email, password: 'Str0ng-pass!' }, { ip: `203.0.113.${140 + n}` });
      expect(res.status).toBe(refused.status);
      expect(await res.json()).toMatchObject({ error: { code: refused.code } });
      expect(await database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);

      const user = await signUpUser(app);
      const update = await post(app, '/api/auth/update-user', { name }, { cookie: user.cookie });
      expect(update.status).toBe(refused.status);
      expect((await me(user.cookie))?.fullName).toBe(user.name);
    },
  );
});

describe('e-mail availability', () => {
  it('answers taken or available for a trimmed, lower-cased address', async () => {
    await signUpUser(app, { email: 'exists@example.com' });
    const taken = await post(app, '/api/auth-extra/email-available', { email: '  EXISTS@example.com ' });
    expect(await taken.json()).toEqual({ available: false });
    const free = await post(app, '/api/auth-extra/email-available', { email: 'free@example.com' });
    expect(await free.json()).toEqual({ available: true });
    const bad = await post(app, '/api/auth-extra/email-available', { email: 'nope' });
    expect(bad.status).toBe(422);
  });

  it('is rate-limited per address (60 checks per 15 minutes)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 62; i++) codes.push((await post(app, '/api/auth-extra/email-available', { email: `x${i}@example.com` }, { ip: '203.0.113.77' })).status);
    expect(codes.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(codes.slice(60)).toEqual([429, 429]);
  });
});

describe('sign-in and sessions', () => {
  it('signs in with the right password and refuses a wrong one with INVALID_CREDENTIALS', async () => {
    const user = await signUpUser(app);
    expect(await me(await signIn(app, user.email, user.password))).toMatchObject({ id: user.id });
    const res = await post(app, '/api/auth/sign-in/email', { email: user.email, password: 'Wrong-pass1!' }, { ip: '203.0.113.1' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'INVALID_CREDENTIALS' } });
  });

  it('signs out every session of the user; the old cookies are refused afterwards', async () => {
    const user = await signUpUser(app);
    const second = await signIn(app, user.email, user.password);
    expect(await me(second)).not.toBeNull();
    const res = await post(app, '/api/auth/sign-out', {}, { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(await me(user.cookie)).toBeNull();
    expect(await me(second)).toBeNull();
  });

  it('refuses a password with only one kind of character even when it is long', async () => {
    const res = await post(app, '/api/auth/sign-up/email', { name: 'Only Lower', email: 'lower@example.com', password: 'onlylowercase' });
    expect(await res.json()).toMatchObject({ error: { code: 'PASSWORD_WEAK' } });
  });
});

describe('origin check', () => {
  it('refuses a state-changing request from another origin', async () => {
    const res = await post(app, '/api/auth/sign-in/email', { email: 'a@example.com', password: 'x' }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'ORIGIN_REFUSED' } });
  });

  it('refuses a POST with cookies and no Origin, but lets GETs and cookie-less callbacks through', async () => {
    const user = await signUpUser(app);
    const res = await post(app, '/api/auth/sign-out', {}, { cookie: user.cookie, origin: null });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'ORIGIN_REFUSED' } });
    expect(await me(user.cookie)).not.toBeNull();
    const callback = await app.request('/api/payments/callback', { method: 'POST', headers: { cookie: user.cookie }, body: 'data=x' });
    expect(callback.status).not.toBe(403);
  });
});

describe('admin guard', () => {
  it('answers 401 to visitors, 403 to customers and lets admins through', async () => {
    const anonymous = await app.request('/api/admin/anything');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    const user = await signUpUser(app);
    const customer = await app.request('/api/admin/anything', { headers: { cookie: user.cookie } });
    expect(customer.status).toBe(403);
    expect(await customer.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
    const allowed = await app.request('/api/admin/anything', { headers: { cookie: admin } });
    // Past the guard: no admin route by that name exists.
    expect(allowed.status).toBe(404);
    expect((await me(admin))?.roles).toEqual(['admin', 'user']);
  });
});

describe('profile and password change', () => {
  it('updates the full name (required) and changes the password under the sign-up rule', async () => {
    const user = await signUpUser(app);
    const blank = await post(app, '/api/auth/update-user', { name: '   ' }, { cookie: user.cookie });
    expect(blank.status).toBe(422);
    const ok = await post(app, '/api/auth/update-user', { name: '  New Name ' }, { cookie: user.cookie });
    expect(ok.status).toBe(200);
    expect((await me(user.cookie))?.fullName).toBe('New Name');

    const weak = await post(app, '/api/auth/change-password', { currentPassword: user.password, newPassword: 'abcdef' }, { cookie: user.cookie });
    expect(await weak.json()).toMatchObject({ error: { code: 'PASSWORD_WEAK' } });
    const wrong = await post(app, '/api/auth/change-password', { currentPassword: 'Not-it-1!', newPassword: 'N3w-Strong!' }, { cookie: user.cookie });
    expect(await wrong.json()).toMatchObject({ error: { code: 'INVALID_CREDENTIALS' } });
    const changed = await post(app, '/api/auth/change-password', { currentPassword: user.password, newPassword: 'N3w-Strong!' }, { cookie: user.cookie });
    expect(changed.status).toBe(200);
    expect(await me(await signIn(app, user.email, 'N3w-Strong!'))).toMatchObject({ id: user.id });
  });

  it('refuses profile changes without a session', async () => {
    const res = await post(app, '/api/auth/update-user', { name: 'Nobody Here' });
    expect(res.status).toBe(401);
  });
});

describe('maintenance mode', () => {
  it('refuses non-admin API writes with MAINTENANCE but keeps sign-in and admin writes working', async () => {
    const user = await signUpUser(app);
    await saveSettings(database.db, { maintenance_mode: true });
    try {
      const write = await post(app, '/api/anything', {}, { cookie: user.cookie });
      expect(write.status).toBe(503);
      expect(await write.json()).toMatchObject({ error: { code: 'MAINTENANCE' } });
      const anonymous = await post(app, '/api/anything', {});
      expect(anonymous.status).toBe(503);
      // Reading still works; signing in still works.
      expect((await app.request('/api/me', { headers: { cookie: user.cookie } })).status).toBe(200);
      const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
      const adminWrite = await post(app, '/api/anything', {}, { cookie: admin });
      expect(adminWrite.status).toBe(404); // past the maintenance gate; no such route
    } finally {
      await saveSettings(database.db, { maintenance_mode: false });
    }
    expect((await post(app, '/api/anything', {}, { cookie: user.cookie })).status).toBe(404);
  });

  it('lets through whom the permission table gives maintenance:pass, not a role name', async () => {
    const staff = await signUpUser(app);
    await database.db.insert(userRoles).values({ userId: staff.id, role: 'moderator' });
    const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
    await saveSettings(database.db, { maintenance_mode: true });
    const restore = overrideRolePermissionsForTest({
      moderator: [...ROLE_PERMISSIONS.moderator, 'maintenance:pass'],
      admin: ROLE_PERMISSIONS.admin.filter((p) => p !== 'maintenance:pass'),
    });
    try {
      expect((await post(app, '/api/anything', {}, { cookie: staff.cookie })).status).toBe(404);
      const refused = await post(app, '/api/anything', {}, { cookie: admin });
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ error: { code: 'MAINTENANCE' } });
    } finally {
      restore();
      await saveSettings(database.db, { maintenance_mode: false });
    }
  });
});
