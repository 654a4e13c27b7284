import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceBalanceSoon, CACHE_CHANNEL, cachesOf, enableCaches, forget, readThrough } from './cache';
import { NOTICE_PAYLOAD_LIMIT, noticeParts, openPostgres, type Database } from './db/client';
import { adminSettings, sessions, userRoles, users } from './db/schema';
import { announceDiscountChange, customerFees, setCustomerPricing } from './discounts';
import { balanceAndDiscount } from './discounts/service';
import { authenticateKey, createKey, hashKey, revokeKey } from './reseller/keys';
import { getSettings, saveSettings } from './settings/service';
import { createScratchDatabase, createTestDatabase } from './testing/db';
import { createCustomer } from './testing/users';
import { credit, debit } from './wallet/ledger';

const until = async (check: () => Promise<boolean> | boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('notices in parts', () => {
  it('fill each part up to the payload limit, with the separators and the overhead counted, in order', () => {
    const items = Array.from({ length: 300 }, (_, i) => `balance:${String(i).padStart(40, '0')}`);
    const parts = noticeParts(items, 2);
    expect(parts.flat()).toEqual(items);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.join(',').length + 2).toBeLessThanOrEqual(NOTICE_PAYLOAD_LIMIT);
    // Each part but the last was full: its next item did not fit.
    for (let i = 0; i < parts.length - 1; i++) expect(parts[i]!.join(',').length + 2 + 1 + parts[i + 1]![0]!.length).toBeGreaterThan(NOTICE_PAYLOAD_LIMIT);
    expect(noticeParts([])).toEqual([]);
    expect(noticeParts(['x'.repeat(NOTICE_PAYLOAD_LIMIT + 10), 'y'])).toEqual([['x'.repeat(NOTICE_PAYLOAD_LIMIT + 10)], ['y']]);
  });
});

describe('caches on the embedded database', () => {
  it('keep settings until they change, and are off where nobody listens', async () => {
    const database = await createTestDatabase('pglite');
    try {
      await saveSettings(database.db, { service_fee: 5 });
      expect(cachesOf(database.db)).toBeUndefined();
      const stop = await enableCaches(database);
      expect((await getSettings(database.db)).service_fee).toBe(5);
      // A write that announces nothing is not seen: the value comes from the cache.
      await database.db.update(adminSettings).set({ value: '9' }).where(eq(adminSettings.key, 'service_fee'));
      expect((await getSettings(database.db)).service_fee).toBe(5);
      await saveSettings(database.db, { service_fee: 7 });
      expect((await getSettings(database.db)).service_fee).toBe(7);
      // Role triggers notify on PGlite too.
      const user = await createCustomer(database.db);
      const caches = cachesOf(database.db)!;
      caches.identities.set('tok', { cookie: 'tok.sig', userId: user.id, value: {} });
      await database.db.insert(userRoles).values({ userId: user.id, role: 'admin' });
      await until(() => caches.identities.get('tok') === undefined);
      await stop();
    } finally {
      await database.close();
    }
  });

  it('keep filling while balances change: only a balance read meanwhile is not kept', async () => {
    const database = await createTestDatabase('pglite');
    try {
      const stop = await enableCaches(database);
      const caches = cachesOf(database.db)!;
      const user = await createCustomer(database.db, { balanceMicros: 1_000_000 });
      const other = await createCustomer(database.db);
      // Every order announces a balance change: the settings, services, discounts and identities
      // read meanwhile are still kept (under orders they would otherwise never fill).
      const during = <T>(value: T) => async () => {
        forget(caches, `balance:${other.id}`);
        return value;
      };
      await readThrough(caches, (c) => c.settings, 'k', during('settings'));
      expect(caches.settings.get('k')).toBe('settings');
      await readThrough(caches, (c) => c.discounts, user.id, during('discount'));
      expect(caches.discounts.get(user.id)).toBe('discount');
      // A balance read while a balance changed may be older than the change: not kept.
      await readThrough(caches, (c) => c.balances, user.id, during('stale'));
      expect(caches.balances.get(user.id)).toBeUndefined();
      expect((await balanceAndDiscount(database.db, user.id)).balanceMicros).toBe(1_000_000);
      expect(caches.balances.get(user.id)).toBeDefined();
      // And any other notice (here a discount's) keeps a balance read meanwhile from being kept too.
      forget(caches, `balance:${user.id}`);
      await readThrough(caches, (c) => c.balances, user.id, async () => {
        forget(caches, `discount:${other.id}`);
        return 'stale';
      });
      expect(caches.balances.get(user.id)).toBeUndefined();
      await stop();
    } finally {
      await database.close();
    }
  });
});

const url = process.env.TEST_DATABASE_URL;
describe.skipIf(!url)('caches across two instances (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    scratch = await createScratchDatabase('cache', url);
    one = await openPostgres(scratch.url, 3);
    two = await openPostgres(scratch.url, 3);
    await enableCaches(one);
    await enableCaches(two);
    await two.listen(MARKS, (payload) => heard.add(payload));
  });
  /**
   * Until every notice committed so far has reached the other instance: notices reach a listener
   * in commit order, so once a later one is heard, the earlier ones were. (Creating a customer
   * announces their role and balance; on a busy machine those may still be on their way.)
   */
  const MARKS = 'artim_cache_test_mark';
  const heard = new Set<string>();
  let marks = 0;
  const settled = async () => {
    const mark = String(++marks);
    await one.notify(MARKS, mark);
    await until(() => heard.has(mark));
  };
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await scratch?.drop();
  });

  it('a setting saved on one instance is read fresh on the other once the notice arrives', async () => {
    await saveSettings(one.db, { base_fee: 1 });
    await until(async () => (await getSettings(two.db)).base_fee === 1);
    expect((await getSettings(two.db)).base_fee).toBe(1);
    await saveSettings(one.db, { base_fee: 3 });
    await until(async () => (await getSettings(two.db)).base_fee === 3);
  });

  it('a customer’s discount set on one instance prices fresh on the other once the change is announced', async () => {
    const user = await createCustomer(one.db);
    // Read until kept (a notice of the customer's creation may arrive while reading: not kept then).
    await until(async () => (await customerFees(two.db, user.id)).discountPercent === undefined && cachesOf(two.db)!.discounts.get(user.id) !== undefined);
    await one.db.transaction((tx) => setCustomerPricing(tx, user.id, { discountPercent: '10', groupId: null }));
    // Unannounced, the other instance still prices from its cache.
    expect((await customerFees(two.db, user.id)).discountPercent).toBeUndefined();
    await announceDiscountChange(one.db, [user.id]);
    expect((await customerFees(one.db, user.id)).discountPercent).toBe('10');
    await until(async () => (await customerFees(two.db, user.id)).discountPercent === '10');
    // A group's change is announced for every customer.
    await one.db.transaction((tx) => setCustomerPricing(tx, user.id, { discountPercent: '5', groupId: null }));
    await announceDiscountChange(one.db);
    await until(async () => (await customerFees(two.db, user.id)).discountPercent === '5');
  });

  it('a reseller API key revoked on one instance is refused by the other once the notice arrives', async () => {
    const user = await createCustomer(one.db);
    const { key, view } = await createKey(one.db, user.id, 'panel');
    await until(async () => (await authenticateKey(two.db, key, '203.0.113.1'))?.userId === user.id && cachesOf(two.db)!.apiKeys.get(hashKey(key)) !== undefined);
    await revokeKey(one.db, user.id, view.id);
    expect(await authenticateKey(one.db, key, '203.0.113.1')).toBeNull();
    await until(async () => (await authenticateKey(two.db, key, '203.0.113.1')) === null);
  });

  it('a customer’s balance changed on one instance, by whatever writes it, is read fresh on the other once the commit’s notice arrives', async () => {
    const user = await createCustomer(one.db, { balanceMicros: 4_000_000 });
    const cached = () => cachesOf(two.db)!.balances.get(user.id) as { balanceMicros: number } | undefined;
    await settled();
    expect((await balanceAndDiscount(two.db, user.id)).balanceMicros).toBe(4_000_000);
    expect(cached()?.balanceMicros).toBe(4_000_000);

    // A debit inside a transaction: nothing is told before it commits, then every instance forgets.
    await one.db.transaction(async (tx) => {
      await debit(tx, { userId: user.id, amountMicros: 1_500_000, kind: 'admin_adjustment', reference: `d-${user.id}` });
      await new Promise((r) => setTimeout(r, 100));
      expect(cached()?.balanceMicros).toBe(4_000_000);
    });
    await until(async () => (await balanceAndDiscount(two.db, user.id)).balanceMicros === 2_500_000);

    // A credit, and a statement of its own outside the ledger's functions (as an order's debit is).
    await credit(one.db, { userId: user.id, amountMicros: 500_000, kind: 'order_refund', reference: `r-${user.id}` });
    await until(async () => (await balanceAndDiscount(two.db, user.id)).balanceMicros === 3_000_000 && cached() !== undefined);
    await one.db.update(users).set({ balanceMicros: 2_000_000 }).where(eq(users.id, user.id));
    await until(async () => (await balanceAndDiscount(two.db, user.id)).balanceMicros === 2_000_000);

    // The discount is kept with it: a discount's announced change is seen too.
    await one.db.transaction((tx) => setCustomerPricing(tx, user.id, { discountPercent: '7', groupId: null }));
    await announceDiscountChange(one.db, [user.id]);
    await until(async () => (await balanceAndDiscount(two.db, user.id)).discount?.percent === '7');
  });

  it('an order’s debit is not announced in its transaction; the balances changed in the same milliseconds are announced together after it', async () => {
    const notices: string[] = [];
    const stop = await two.listen(CACHE_CHANNEL, (payload) => notices.push(payload));
    try {
      const customers = await Promise.all(Array.from({ length: 12 }, () => createCustomer(one.db, { balanceMicros: 5_000_000 })));
      await settled();
      for (const c of customers) expect((await balanceAndDiscount(two.db, c.id)).balanceMicros).toBe(5_000_000);
      notices.length = 0;
      // A debit whose transaction says its change is announced by the app (as the order statement's
      // does: migration 0041) sends nothing at its commit.
      for (const c of customers) {
        await one.db.execute(sql`update ${users} set balance_micros = balance_micros - 1000000 where id = ${c.id} and set_config('artim.balance_told', 'on', true) = 'on'`);
      }
      await settled();
      expect(notices).toEqual([]);
      for (const c of customers) expect((cachesOf(two.db)!.balances.get(c.id) as { balanceMicros: number }).balanceMicros).toBe(5_000_000);
      // The setting lasted only for its transaction: a later write is announced by the trigger.
      await one.db.update(users).set({ balanceMicros: 4_500_000 }).where(eq(users.id, customers[0]!.id));
      await settled();
      expect(notices).toEqual([`balance:${customers[0]!.id}`]);
      notices.length = 0;

      // Announced after the commits: this instance forgets at once, the other with one notice for all.
      for (const c of customers) announceBalanceSoon(one.db, c.id);
      for (const c of customers) expect(cachesOf(one.db)!.balances.get(c.id)).toBeUndefined();
      await until(() => notices.length > 0);
      await settled();
      expect(notices).toHaveLength(1);
      expect(notices[0]!.split('\n').sort()).toEqual(customers.map((c) => `balance:${c.id}`).sort());
      for (const c of customers.slice(1)) expect((await balanceAndDiscount(two.db, c.id)).balanceMicros).toBe(4_000_000);
    } finally {
      await stop();
    }
  });

  it('a session ended or a role, name, e-mail or second factor changed anywhere is forgotten by every instance', async () => {
    const user = await createCustomer(one.db);
    await one.db.insert(sessions).values({ id: 's1', token: 'tok-1', userId: user.id, expiresAt: new Date(Date.now() + 3_600_000) });
    const caches = cachesOf(two.db)!;
    const remember = async () => {
      await settled();
      caches.identities.set('tok-1', { cookie: 'tok-1.sig', userId: user.id, value: { id: user.id } });
    };

    await remember();
    await one.db.insert(userRoles).values({ userId: user.id, role: 'admin' });
    await until(() => caches.identities.get('tok-1') === undefined);

    await remember();
    await one.db.update(users).set({ name: 'Renamed' }).where(eq(users.id, user.id));
    await until(() => caches.identities.get('tok-1') === undefined);

    // The second factor turned on or off: the admin gate reads it from the cached identity.
    await remember();
    await one.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, user.id));
    await until(() => caches.identities.get('tok-1') === undefined);

    // A balance change (every order) forgets the customer's balance, never their identity.
    await remember();
    const balances = caches.balances.generation;
    await one.db.update(users).set({ balanceMicros: 50_000 }).where(eq(users.id, user.id));
    await settled();
    expect(caches.balances.generation).toBeGreaterThan(balances);
    expect(caches.identities.get('tok-1')).toBeDefined();

    await one.db.delete(sessions).where(eq(sessions.token, 'tok-1'));
    await until(() => caches.identities.get('tok-1') === undefined);
  });
});
