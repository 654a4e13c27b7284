import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { devMailbox, ledgerEntries, users } from '../db/schema';
import { saveSettings } from '../settings/service';
import { creditSignUpBonus } from './service';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { verifyLedger } from '../wallet/ledger';
import { post, signIn, signUpUser } from './testing';

let database: Database;
let app: Awaited<ReturnType<typeof createTestApp>>['app'];

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await createTestApp(database));
});
afterEach(() => saveSettings(database.db, { default_balance: 0 }));
afterAll(() => database.close());

const balance = async (cookie: string) => ((await (await app.request('/api/me', { headers: { cookie } })).json()) as { user: { balanceMicros: number } }).user.balanceMicros;
const bonusEntries = (userId: string) => database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId));
/** The confirmation link of the newest mail to `to`, as a path on the app. */
async function confirmationLink(to: string): Promise<string> {
  const [mail] = await database.db.select().from(devMailbox).where(eq(devMailbox.to, to.toLowerCase())).orderBy(desc(devMailbox.id)).limit(1);
  const link = /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(mail?.text ?? '')?.[0];
  if (!link) throw new Error(`no confirmation link mailed to ${to}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

describe('e-mail confirmation and the sign-up bonus', () => {
  it('credits the bonus when the e-mail is confirmed, not at sign-up, and only once', async () => {
    await saveSettings(database.db, { default_balance: 1.5 });
    const user = await signUpUser(app);
    expect(await balance(user.cookie)).toBe(0);
    expect(await bonusEntries(user.id)).toEqual([]);

    const link = await confirmationLink(user.email);
    const first = await app.request(link);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/?verified=1');
    expect((await database.db.select().from(users).where(eq(users.id, user.id)))[0]?.emailVerified).toBe(true);
    expect(await balance(user.cookie)).toBe(1_500_000);

    // Following it again, also in parallel, changes nothing.
    const again = await Promise.all([app.request(link), app.request(link), app.request(link)]);
    expect(again.map((r) => r.status)).toEqual([302, 302, 302]);
    expect(await balance(user.cookie)).toBe(1_500_000);
    expect(await bonusEntries(user.id)).toMatchObject([{ kind: 'signup_bonus', reference: `signup:${user.email}`, amountMicros: 1_500_000 }]);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('credits a bonus set to a fraction of a cent to the micro', async () => {
    await saveSettings(database.db, { default_balance: 0.021272 });
    const user = await signUpUser(app);
    expect((await app.request(await confirmationLink(user.email))).status).toBe(302);
    expect(await balance(user.cookie)).toBe(21_272);
  });

  it('gives no bonus when the setting is 0, and still confirms the address', async () => {
    const user = await signUpUser(app);
    expect((await app.request(await confirmationLink(user.email))).status).toBe(302);
    expect(await balance(user.cookie)).toBe(0);
    expect(await bonusEntries(user.id)).toEqual([]);
  });

  it('lets an unconfirmed account sign in', async () => {
    const user = await signUpUser(app);
    expect((await database.db.select().from(users).where(eq(users.id, user.id)))[0]?.emailVerified).toBe(false);
    expect(await signIn(app, user.email, user.password)).toContain('artim.session_token=');
  });

  it('sends the confirmation in the language of the lang cookie', async () => {
    const email = `lang-${Date.now().toString(36)}@example.com`;
    const res = await app.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie: 'lang=tr', 'x-forwarded-for': '203.0.113.120' },
      body: JSON.stringify({ name: 'Dil Deneme', email, password: 'Str0ng-pass!' }),
    });
    expect(res.status).toBe(200);
    const [mail] = await database.db.select().from(devMailbox).where(eq(devMailbox.to, email));
    expect(mail?.subject).toContain('E-posta adresinizi doğrulayın');
  });

  it('refuses a forged link, lands with the error and credits nothing', async () => {
    await saveSettings(database.db, { default_balance: 1.5 });
    const user = await signUpUser(app);
    const link = await confirmationLink(user.email);
    const forged = link.replace(/token=([^&]+)/, (_, t: string) => `token=${t.slice(0, -4)}AAAA`);
    const res = await app.request(forged);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/\?verified=1&error=/);
    expect(await balance(user.cookie)).toBe(0);
  });

  it('answers a sign-up from the browser even when the sign-up bonus is set (the bonus waits)', async () => {
    await saveSettings(database.db, { default_balance: 2 });
    const res = await post(app, '/api/auth/sign-up/email', { name: 'Bonus Later', email: `later-${Date.now().toString(36)}@example.com`, password: 'Str0ng-pass!' }, { ip: '203.0.113.121' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { emailVerified: boolean } }).user.emailVerified).toBe(false);
  });

  it('credits the bonus once per mailbox: a tag, the case, and the dots and googlemail.com at Gmail make no new mailbox', async () => {
    await saveSettings(database.db, { default_balance: 1.5 });
    const stamp = Date.now().toString(36);
    const signUp = (email: string) => signUpUser(app, { email });
    const confirm = async (user: { email: string; cookie: string }) => {
      expect((await app.request(await confirmationLink(user.email))).status).toBe(302);
      return balance(user.cookie);
    };
    const farm = [`farm${stamp}+1@gmail.com`, `farm${stamp}+2@gmail.com`, `f.arm${stamp}@gmail.com`, `FARM${stamp}+3@googlemail.com`, `farm${stamp}@gmail.com`];
    const credited = [];
    for (const email of farm) credited.push(await confirm(await signUp(email)));
    expect(credited).toEqual([1_500_000, 0, 0, 0, 0]);
    // Other mailboxes are credited: another provider, where dots count, and tags do not.
    const others = [`farm${stamp}@example.com`, `f.arm${stamp}@example.com`, `farm${stamp}+9@example.com`];
    const creditedOthers = [];
    for (const email of others) creditedOthers.push(await confirm(await signUp(email)));
    expect(creditedOthers).toEqual([1_500_000, 1_500_000, 0]);
    expect(await verifyLedger(database.db)).toEqual([]);
  });

  it('credits the bonus once when the accounts of one mailbox confirm at the same moment (PostgreSQL when TEST_DATABASE_URL is set)', async () => {
    await saveSettings(database.db, { default_balance: 2 });
    for (let round = 0; round < 3; round += 1) {
      const base = `race${round}${Date.now().toString(36)}`;
      const accounts = await Promise.all([`${base}+1@gmail.com`, `${base}+2@gmail.com`, `${base.slice(0, 3)}.${base.slice(3)}@googlemail.com`, `${base.toUpperCase()}@gmail.com`].map((email) => signUpUser(app, { email })));
      const links = await Promise.all(accounts.map((a) => confirmationLink(a.email)));
      const answers = await Promise.all(links.map((link) => app.request(link)));
      expect(answers.map((r) => r.status)).toEqual([302, 302, 302, 302]);
      const balances = await Promise.all(accounts.map((a) => balance(a.cookie)));
      expect(balances.filter((b) => b === 2_000_000)).toHaveLength(1);
      expect(balances.reduce((sum, b) => sum + b, 0)).toBe(2_000_000);
      const bonuses = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.reference, `signup:${base}@gmail.com`));
      expect(bonuses).toHaveLength(1);
    }
    // The bonus itself, called at once for many accounts of one mailbox: one credit.
    const base = `burst${Date.now().toString(36)}`;
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => signUpUser(app, { email: `${base}+${i}@gmail.com` })));
    await Promise.all(burst.map((a) => creditSignUpBonus(database.db, a)));
    expect((await Promise.all(burst.map((a) => balance(a.cookie)))).sort((x, y) => y - x)).toEqual([2_000_000, ...Array<number>(11).fill(0)]);
    expect(await verifyLedger(database.db)).toEqual([]);
  }, 60_000);
});
