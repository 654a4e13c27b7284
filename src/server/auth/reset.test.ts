import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { devMailbox } from '../db/schema';
import { createMailer, type Mailer } from '../mail/mailer';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { cookiesFrom, post, signIn, signUpUser } from './testing';

let database: Database;
let app: Awaited<ReturnType<typeof createTestApp>>['app'];
let deps: Awaited<ReturnType<typeof createTestApp>>['deps'];

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app, deps } = await createTestApp(database));
});
afterAll(() => database.close());

const mailbox = () => database.db.select().from(devMailbox).orderBy(devMailbox.id);
const tokenOf = (text: string) => /\/password-recovery\?token=([\w-]+)/.exec(text)?.[1];

describe('password reset by e-mail', () => {
  it('answers the same for a real and an unknown account, and mails only the real one', async () => {
    const user = await signUpUser(app);
    const before = (await mailbox()).length;
    const real = await post(app, '/api/auth/request-password-reset', { email: user.email.toUpperCase() }, { ip: '203.0.113.10' });
    const unknown = await post(app, '/api/auth/request-password-reset', { email: 'nobody-here@example.com' }, { ip: '203.0.113.10' });
    expect(real.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await real.json()).toEqual(await unknown.json());
    const mails = (await mailbox()).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(user.email);
    expect(tokenOf(mails[0]!.text)).toBeTruthy();
    expect(mails[0]!.text).toContain('http://localhost:3000/password-recovery?token=');
  });

  it('refuses a malformed e-mail with EMAIL_INVALID', async () => {
    const res = await post(app, '/api/auth/request-password-reset', { email: 'not-an-email' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code: 'EMAIL_INVALID' } });
  });

  it('writes the mail in the language of the lang cookie', async () => {
    const user = await signUpUser(app);
    await app.request('/api/auth/request-password-reset', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie: 'lang=az', 'x-forwarded-for': '203.0.113.11' },
      body: JSON.stringify({ email: user.email }),
    });
    const mail = (await mailbox()).at(-1)!;
    expect(mail.subject).toContain('Şifrənin bərpası');
  });

  it('sets a new password once with the link, refuses weak passwords, reuse and unknown tokens, and ends old sessions', async () => {
    const user = await signUpUser(app);
    await post(app, '/api/auth/request-password-reset', { email: user.email }, { ip: '203.0.113.12' });
    const token = tokenOf((await mailbox()).at(-1)!.text)!;

    const weak = await post(app, '/api/auth/reset-password', { token, newPassword: 'password' });
    expect(await weak.json()).toMatchObject({ error: { code: 'PASSWORD_WEAK' } });

    const ok = await post(app, '/api/auth/reset-password', { token, newPassword: 'Brand-new-1!' });
    expect(ok.status).toBe(200);
    const again = await post(app, '/api/auth/reset-password', { token, newPassword: 'Brand-new-2!' });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: { code: 'RESET_LINK_INVALID' } });
    const bogus = await post(app, '/api/auth/reset-password', { token: 'no-such-token', newPassword: 'Brand-new-2!' });
    expect(await bogus.json()).toMatchObject({ error: { code: 'RESET_LINK_INVALID' } });

    const session = await app.request('/api/me', { headers: { cookie: user.cookie } });
    expect(await session.json()).toEqual({ user: null });
    await expect(signIn(app, user.email, user.password)).rejects.toThrow();
    expect(await signIn(app, user.email, 'Brand-new-1!')).toContain('artim.session_token=');
  });

  it('refuses an expired link', async () => {
    const user = await signUpUser(app);
    await post(app, '/api/auth/request-password-reset', { email: user.email }, { ip: '203.0.113.13' });
    const token = tokenOf((await mailbox()).at(-1)!.text)!;
    await database.query(`update verifications set expires_at = now() - interval '1 second' where identifier = $1`, [`reset-password:${token}`]);
    const res = await post(app, '/api/auth/reset-password', { token, newPassword: 'Brand-new-1!' });
    expect(await res.json()).toMatchObject({ error: { code: 'RESET_LINK_INVALID' } });
  });

  it('says whether a link still works before a password is typed: fresh yes; used, expired, damaged or unknown no', async () => {
    const check = async (token: unknown, ip = '203.0.113.40') => {
      const res = await post(app, '/api/auth-extra/reset-link', { token }, { ip });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const user = await signUpUser(app);
    await post(app, '/api/auth/request-password-reset', { email: user.email }, { ip: '203.0.113.14' });
    const token = tokenOf((await mailbox()).at(-1)!.text)!;
    expect(await check(token)).toEqual({ status: 200, body: { valid: true } });
    expect(await check(`${token.slice(0, -2)}xx`)).toEqual({ status: 200, body: { valid: false } });
    expect(await check('no-such-token')).toEqual({ status: 200, body: { valid: false } });
    // Asking does not use the link up.
    expect(await check(token)).toEqual({ status: 200, body: { valid: true } });
    expect((await post(app, '/api/auth/reset-password', { token, newPassword: 'Brand-new-1!' })).status).toBe(200);
    expect(await check(token)).toEqual({ status: 200, body: { valid: false } });

    await post(app, '/api/auth/request-password-reset', { email: user.email }, { ip: '203.0.113.15' });
    const later = tokenOf((await mailbox()).at(-1)!.text)!;
    await database.query(`update verifications set expires_at = now() - interval '1 second' where identifier = $1`, [`reset-password:${later}`]);
    expect(await check(later)).toEqual({ status: 200, body: { valid: false } });

    expect((await check('')).status).toBe(422);
    expect((await post(app, '/api/auth-extra/reset-link', { token, extra: 1 })).status).toBe(422);
  });

  it('rate-limits link checks per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await post(app, '/api/auth-extra/reset-link', { token: `t-${i}` }, { ip: '203.0.113.41' })).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('rate-limits reset requests per account', async () => {
    const user = await signUpUser(app);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post(app, '/api/auth/request-password-reset', { email: user.email }, { ip: `203.0.113.${100 + i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('answers MAIL_NOT_SENT when the transport fails for a real account', async () => {
    const failing: Mailer = { kind: 'smtp', send: () => Promise.reject(new Error('connection refused')) };
    const other = await createTestApp(database, { mailer: failing });
    const user = await signUpUser(other.app);
    const res = await post(other.app, '/api/auth/request-password-reset', { email: user.email }, { ip: '203.0.113.20' });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ error: { code: 'MAIL_NOT_SENT' } });
  });
});

describe('mail over SMTP', () => {
  it('delivers the reset mail to a real SMTP server', async () => {
    const received: { to: string[]; body: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let body = '';
        stream.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), body });
          done();
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    const port = (server.server.address() as AddressInfo).port;
    try {
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Artım <no-reply@artim.test>' });
      const smtpApp = await createTestApp(database, { mailer });
      const user = await signUpUser(smtpApp.app);
      // The e-mail confirmation went out at sign-up.
      expect(received).toHaveLength(1);
      expect(received[0]!.body.replace(/=\r?\n/g, '')).toContain('/api/auth/verify-email?token=');
      const res = await post(smtpApp.app, '/api/auth/request-password-reset', { email: user.email }, { ip: '203.0.113.30' });
      expect(res.status).toBe(200);
      expect(received).toHaveLength(2);
      expect(received[1]!.to).toEqual([user.email]);
      expect(received[1]!.body.replace(/=\r?\n/g, '')).toContain('/password-recovery?token=');
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });
});

describe('dev mailbox API', () => {
  it('answers admins only, and lists and opens messages with their links', async () => {
    const anonymous = await app.request('/api/dev/mailbox');
    expect(anonymous.status).toBe(401);
    const customer = await signUpUser(app, { email: 'mailbox-reader@example.com' });
    const asCustomer = await app.request('/api/dev/mailbox', { headers: { cookie: customer.cookie } });
    expect(asCustomer.status).toBe(403);
    expect((await app.request('/api/dev/mailbox/1', { headers: { cookie: customer.cookie } })).status).toBe(403);

    const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
    const list = await app.request('/api/dev/mailbox', { headers: { cookie: admin } });
    expect(list.status).toBe(200);
    const { messages } = (await list.json()) as { messages: { id: number; subject: string }[] };
    expect(messages.length).toBeGreaterThan(0);
    const reset = messages.find((m) => /password|şifr/i.test(m.subject))!;
    const one = await app.request(`/api/dev/mailbox/${reset.id}`, { headers: { cookie: admin } });
    const { message } = (await one.json()) as { message: { links: string[] } };
    expect(message.links[0]).toMatch(/\/password-recovery\?token=/);
  });

  it('does not exist in production, even with the sandbox allowed', async () => {
    const prod = await createTestApp(database, { env: { ...deps.env, NODE_ENV: 'production', SANDBOX: true }, publicUrl: 'https://artim.test' });
    const signedIn = await post(prod.app, '/api/auth/sign-in/email', { email: 'admin@test.local', password: 'Admin-Pass-123!' }, { origin: 'https://artim.test' });
    expect(signedIn.status).toBe(200);
    const admin = cookiesFrom(signedIn);
    for (const path of ['/api/dev/mailbox', '/api/dev/mailbox/1']) {
      expect((await prod.app.request(path)).status).toBe(404);
      expect((await prod.app.request(path, { headers: { cookie: admin } })).status).toBe(404);
    }
  });
});

describe('cookies in production', () => {
  it('marks the session cookie Secure, httpOnly and SameSite=Lax', async () => {
    const prod = await createTestApp(database, { env: { ...deps.env, NODE_ENV: 'production' }, publicUrl: 'https://artim.test' });
    const res = await post(prod.app, '/api/auth/sign-up/email', { name: 'Prod User', email: 'prod@example.com', password: 'Str0ng-pass!' }, { origin: 'https://artim.test' });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.includes('session_token='))!;
    expect(cookie).toMatch(/^__Secure-artim\.session_token=/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookiesFrom(res)).toContain('__Secure-artim.session_token=');
  });
});
