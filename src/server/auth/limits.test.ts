import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { rateLimits } from '../db/schema';
import { type createTestApp } from '../testing/app';
import { delayAfter, RATE_RULES, type RateRule } from '../http/rateLimit';
import { post, signUpUser, TEST_ORIGIN } from './testing';
import { useTestShop } from '../testing/shop';

let app: Awaited<ReturnType<typeof createTestApp>>['app'];
let database: Database;

useTestShop((shop) => ({ app, database } = shop));

const FREE = RATE_RULES.passwordFailuresPerAccount.limit;
const signInAt = (ip: string, email: string, password: string) => post(app, '/api/auth/sign-in/email', { email, password }, { ip });
const retryAfter = async (res: Response) => ((await res.clone().json()) as { error: { details: { retryAfterSeconds: number } } }).error.details.retryAfterSeconds;
const sleep = (seconds: number) => new Promise((ok) => setTimeout(ok, seconds * 1000 + 150));
/** Every answer but 429 means the password was checked. */
const checked = (statuses: number[]) => statuses.filter((s) => s !== 429).length;
/**
 * The most passwords of one account checked by attempts spread over `ms`: the free ones, and one
 * more each time the delay gate, closed 2 s, 4 s, 8 s … in turn, opened within that time. On a
 * quiet machine a burst is over long before the first gate opens; on a busy one it may not be.
 */
function mostChecked(ms: number): number {
  const rule = RATE_RULES.passwordFailuresPerAccount;
  let opened = 0;
  for (let waited = delayAfter(rule, FREE); waited * 1000 <= ms; waited += delayAfter(rule, FREE + opened)) opened++;
  return FREE + opened;
}
/** Runs a burst of attempts, returning their statuses and how long the burst lasted. */
async function burst(attempts: (Response | Promise<Response>)[], started = Date.now()) {
  const statuses = (await Promise.all(attempts)).map((r) => r.status);
  return { statuses, ms: Date.now() - started };
}

describe('the password-check rules', () => {
  it('wait 2 s after the 5th failure on an account, doubling up to at most 5 minutes', () => {
    const rule = RATE_RULES.passwordFailuresPerAccount;
    expect([0, 4].map((n) => delayAfter(rule, n))).toEqual([0, 0]);
    expect([5, 6, 7, 8].map((n) => delayAfter(rule, n))).toEqual([2, 4, 8, 16]);
    expect(delayAfter(rule, 12)).toBe(256);
    expect(delayAfter(rule, 13)).toBe(300);
    expect(delayAfter(rule, 10_000)).toBe(300);
  });
});

describe('a parallel burst of guesses', () => {
  it('from one address: 100 wrong and the right one, at most 5 passwords checked, the right one refused', async () => {
    const user = await signUpUser(app);
    const ip = '203.0.113.101';
    const started = Date.now();
    const wrong = Array.from({ length: 100 }, (_, i) => signInAt(ip, user.email, `Wrong-guess-${i}!`));
    const right = signInAt(ip, user.email, user.password);
    const { statuses, ms } = await burst([...wrong, right], started);
    expect(checked(statuses)).toBeLessThanOrEqual(mostChecked(ms));
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0);
    // The right password, sent last, is refused unless the burst outlasted a closed gate.
    if (mostChecked(ms) === FREE) expect(statuses.at(-1)).toBe(429);
  });

  it('from 100 addresses at one account: at most 5 passwords checked', async () => {
    const user = await signUpUser(app);
    const started = Date.now();
    const { statuses, ms } = await burst(Array.from({ length: 100 }, (_, i) => signInAt(`198.18.1.${i}`, user.email, `Wrong-guess-${i}!`)), started);
    expect(checked(statuses)).toBeLessThanOrEqual(mostChecked(ms));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(100 - mostChecked(ms));
  });

  it('from one address over 80 accounts (spraying): at most 50 passwords checked', async () => {
    const statuses = (await Promise.all(Array.from({ length: 80 }, (_, i) => signInAt('203.0.113.102', `spray${i}@example.com`, 'Summer-2024!')))).map((r) => r.status);
    expect(checked(statuses)).toBeLessThanOrEqual(RATE_RULES.passwordFailuresPerIp.limit);
    expect(checked(statuses)).toBeGreaterThan(0);
  });

  it('of wrong current passwords at the password change: at most 5 checked, the rest 429', async () => {
    const user = await signUpUser(app);
    const started = Date.now();
    const tries = Array.from({ length: 30 }, (_, i) =>
      post(app, '/api/auth/change-password', { currentPassword: `Not-it-${i}!A`, newPassword: 'N3w-Strong!' }, { cookie: user.cookie, ip: '203.0.113.103' }),
    );
    const { statuses, ms } = await burst(tries, started);
    expect(checked(statuses)).toBeLessThanOrEqual(mostChecked(ms));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30 - mostChecked(ms));
  });
});

describe('progressive delay instead of a lock', () => {
  it('after 5 failures an account answers 429 with the wait, which doubles, across addresses', async () => {
    const user = await signUpUser(app);
    for (let i = 0; i < FREE; i++) expect((await signInAt(`192.0.2.${i}`, user.email, `Wrong-${i}!aA`)).status).toBe(401);
    const blocked = await signInAt('192.0.2.200', user.email.toUpperCase(), user.password);
    expect(blocked.status).toBe(429);
    const first = await retryAfter(blocked);
    expect(await blocked.json()).toMatchObject({ error: { code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } } });
    expect(first).toBeLessThanOrEqual(2);
    await sleep(first);
    const sixth = Date.now();
    expect((await signInAt('192.0.2.201', user.email, 'Wrong-again1!')).status).toBe(401);
    const next = await signInAt('192.0.2.202', user.email, user.password);
    expect(next.status).toBe(429);
    // The gate closed for 4 s when the 6th failure was counted: what is left of it is 4 s less
    // the time since (under a second on a quiet machine, so more than 2 s are left).
    const since = (Date.now() - sixth) / 1000;
    expect(await retryAfter(next)).toBeGreaterThanOrEqual(Math.floor(4 - since));
    expect(await retryAfter(next)).toBeLessThanOrEqual(4);
  });

  it('lets the owner in with the right password from another address after an attacker failed 10 times', async () => {
    const owner = await signUpUser(app);
    const attacker = [];
    for (let i = 0; i < 10; i++) attacker.push((await signInAt('203.0.113.66', owner.email, `Guess-${i}!aA`)).status);
    expect(attacker.slice(0, FREE)).toEqual(Array(FREE).fill(401));
    let res = await signInAt('198.51.100.7', owner.email, owner.password);
    if (res.status === 429) {
      const wait = await retryAfter(res);
      expect(wait).toBeLessThanOrEqual(2);
      await sleep(wait);
      res = await signInAt('198.51.100.7', owner.email, owner.password);
    }
    expect(res.status).toBe(200);
  });

  it('on a shared address, one person mistyping and trying accounts does not block another person there', async () => {
    const ip = '192.0.2.150';
    const mistyper = await signUpUser(app);
    const colleague = await signUpUser(app);
    for (let i = 0; i < 10; i++) await signInAt(ip, mistyper.email, `Typo-${i}!aA`);
    for (let i = 0; i < 10; i++) expect((await signInAt(ip, `old-address${i}@example.com`, 'Typo-pass1!')).status).toBe(401);
    expect((await signInAt(ip, colleague.email, colleague.password)).status).toBe(200);
  });

  it('counts wrong current passwords at the password change on the same account as sign-ins', async () => {
    const user = await signUpUser(app);
    for (let i = 0; i < FREE; i++) {
      const res = await post(app, '/api/auth/change-password', { currentPassword: `Not-it-${i}!A`, newPassword: 'N3w-Strong!' }, { cookie: user.cookie, ip: '203.0.113.104' });
      expect(await res.json()).toMatchObject({ error: { code: 'INVALID_CREDENTIALS' } });
    }
    expect((await signInAt('203.0.113.105', user.email, 'Wrong-pass1!')).status).toBe(429);
  });

  it('does not count right passwords', async () => {
    const user = await signUpUser(app);
    for (let i = 0; i < 12; i++) expect((await signInAt('203.0.113.106', user.email, user.password)).status).toBe(200);
  });
});

describe('the better-auth endpoints the site does not use', () => {
  it.each([
    ['POST', '/api/auth/verify-password', { password: 'Whatever1!' }],
    ['POST', '/api/auth/change-email', { newEmail: 'new@example.com' }],
    ['POST', '/api/auth/delete-user', {}],
    ['POST', '/api/auth/send-verification-email', { email: 'a@example.com' }],
    ['POST', '/api/auth/revoke-sessions', {}],
    ['POST', '/api/auth/update-session', {}],
    ['GET', '/api/auth/list-sessions', undefined],
    ['GET', '/api/auth/list-accounts', undefined],
    ['GET', '/api/auth/get-session', undefined],
    ['GET', '/api/auth/ok', undefined],
    ['POST', '/api/auth/Change-Password', { currentPassword: 'x', newPassword: 'N3w-Strong!' }],
  ])('answer 404: %s %s', async (method, path, body) => {
    const user = await signUpUser(app);
    const res =
      method === 'POST'
        ? await post(app, path, body, { cookie: user.cookie })
        : await app.request(path, { headers: { cookie: user.cookie } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('leave the password unguessable through them: 30 wrong guesses at verify-password check nothing', async () => {
    const user = await signUpUser(app);
    const statuses = (await Promise.all(Array.from({ length: 30 }, (_, i) => post(app, '/api/auth/verify-password', { password: `Guess-${i}!aA` }, { cookie: user.cookie })))).map((r) => r.status);
    expect(new Set(statuses)).toEqual(new Set([404]));
  });
});

/** How a body reaches an account write: the site's JSON and what other clients could send. */
const BODY_TYPES: { name: string; json: boolean; send: (fields: Record<string, string>) => { headers: Record<string, string>; body: BodyInit } }[] = [
  { name: 'JSON', json: true, send: (f) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(f) }) },
  { name: 'JSON with a charset', json: true, send: (f) => ({ headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(f) }) },
  { name: 'JSON in upper case', json: true, send: (f) => ({ headers: { 'content-type': 'APPLICATION/JSON' }, body: JSON.stringify(f) }) },
  { name: 'a form', json: false, send: (f) => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(f).toString() }) },
  { name: 'a form in upper case', json: false, send: (f) => ({ headers: { 'content-type': 'APPLICATION/X-WWW-FORM-URLENCODED' }, body: new URLSearchParams(f).toString() }) },
  {
    name: 'multipart',
    json: false,
    send: (f) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(f)) form.append(k, v);
      return { headers: {}, body: form };
    },
  },
  { name: 'text/plain holding JSON', json: false, send: (f) => ({ headers: { 'content-type': 'text/plain' }, body: JSON.stringify(f) }) },
  { name: 'no content type', json: false, send: (f) => ({ headers: {}, body: JSON.stringify(f) }) },
];

describe('account writes read the account from the body the password check uses', () => {
  let ipNo = 0;
  const nextIp = () => `198.18.9.${++ipNo}`;
  const send = (path: string, type: (typeof BODY_TYPES)[number], fields: Record<string, string>, opts: { ip: string; cookie?: string }) => {
    const { headers, body } = type.send(fields);
    return app.request(path, { method: 'POST', headers: { ...headers, origin: TEST_ORIGIN, 'x-forwarded-for': opts.ip, ...(opts.cookie ? { cookie: opts.cookie } : {}) }, body });
  };
  const counted = async (rule: RateRule, subject: string) => {
    const rows = await database.db.select({ count: rateLimits.count }).from(rateLimits).where(eq(rateLimits.key, `${rule.name}:${subject.toLowerCase()}`));
    return rows[0]?.count ?? 0;
  };
  const failures = (email: string) => counted(RATE_RULES.passwordFailuresPerAccount, email);
  /** The answer to a body that is not JSON: refused before anything is read or counted. */
  const expectRefused = async (res: Response, what: string) => {
    expect(res.status, what).toBe(400);
    expect(await res.json(), what).toMatchObject({ error: { code: 'BAD_REQUEST' } });
  };

  it.each(BODY_TYPES)('sign-in sent as $name: a wrong password counts on the attacked account, or is refused unchecked', async (type) => {
    const user = await signUpUser(app);
    const ip = nextIp();
    const wrong = await send('/api/auth/sign-in/email', type, { email: user.email, password: 'Wrong-guess-1!' }, { ip });
    if (type.json) {
      expect(wrong.status).toBe(401);
      expect(await failures(user.email)).toBe(1);
    } else {
      await expectRefused(wrong, type.name);
      // Nothing was counted anywhere, so no password was checked: not on the account, not on the address.
      expect(await failures(user.email)).toBe(0);
      expect(await failures('')).toBe(0);
      expect(await counted(RATE_RULES.passwordFailuresPerIp, ip)).toBe(0);
      // And the right password in that form signs nobody in.
      await expectRefused(await send('/api/auth/sign-in/email', type, { email: user.email, password: user.password }, { ip: nextIp() }), type.name);
    }
  });

  it.each(BODY_TYPES)('password change sent as $name: a wrong current password counts on the account, or is refused unchecked', async (type) => {
    const user = await signUpUser(app);
    const ip = nextIp();
    const wrong = await send('/api/auth/change-password', type, { currentPassword: 'Not-it-1!A', newPassword: 'N3w-Strong!' }, { ip, cookie: user.cookie });
    if (type.json) {
      expect(wrong.status).toBe(401);
      expect(await failures(user.email)).toBe(1);
    } else {
      await expectRefused(wrong, type.name);
      expect(await failures(user.email)).toBe(0);
      expect(await counted(RATE_RULES.passwordFailuresPerIp, ip)).toBe(0);
      // The right current password in that form changes nothing: the old password still signs in.
      await expectRefused(await send('/api/auth/change-password', type, { currentPassword: user.password, newPassword: 'N3w-Strong!' }, { ip: nextIp(), cookie: user.cookie }), type.name);
      expect((await signInAt(nextIp(), user.email, user.password)).status).toBe(200);
    }
  });

  it.each(BODY_TYPES)('a reset link asked for as $name counts on the e-mail asked for, or is refused unsent', async (type) => {
    const user = await signUpUser(app);
    const ip = nextIp();
    const res = await send('/api/auth/request-password-reset', type, { email: user.email }, { ip });
    if (type.json) {
      expect(res.status).toBe(200);
      expect(await counted(RATE_RULES.resetPerAccount, user.email)).toBe(1);
    } else {
      await expectRefused(res, type.name);
      expect(await counted(RATE_RULES.resetPerAccount, user.email)).toBe(0);
    }
  });

  it.each(BODY_TYPES)('the e-mail check sent as $name reads the e-mail, or is refused', async (type) => {
    const user = await signUpUser(app);
    const res = await send('/api/auth-extra/email-available', type, { email: user.email }, { ip: nextIp() });
    if (type.json) expect(await res.json()).toEqual({ available: false });
    else await expectRefused(res, type.name);
  });
});
