import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { orders, providers } from '../db/schema';
import { createLogger } from '../logger';
import { createTestDatabase } from '../testing/db';
import { keyBox } from './secrets';
import { announceProviders, ensureEnvProvider, ensureEnvProviders, openProviderRegistry, type EnvProvider } from './stored';

const box = keyBox('s'.repeat(40));
const logger = createLogger('silent');
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(orders);
  await database.db.delete(providers);
});

const env = (over: Partial<EnvProvider> = {}): EnvProvider => ({
  name: 'Sandbox',
  protocol: 'smm-v2',
  url: 'http://127.0.0.1:4001/api/v2',
  key: 'sandbox-key-0001',
  callsPerSecond: 20,
  sandbox: true,
  ...over,
});

describe('provider keys at rest', () => {
  it('seal and open round trip; the stored text is not the key and differs each time; another secret cannot open it', () => {
    const key = 'a1b2c3d4e5f6-secret-api-key';
    const sealed = box.seal(key);
    expect(box.open(sealed)).toBe(key);
    expect(sealed).not.toContain(key);
    expect(box.seal(key)).not.toBe(sealed);
    expect(() => keyBox('t'.repeat(40)).open(sealed)).toThrow();
    // An altered text is refused by the tag.
    const altered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(altered)).toThrow();
    expect(() => keyBox('short')).toThrow(/32/);
  });

  it('the key column of the environment’s provider holds the sealed key, never the key', async () => {
    await ensureEnvProvider(database.db, box, env({ sandbox: false, key: 'plain-provider-key-9876', url: 'https://panel.example/api/v2' }));
    const [row] = await database.db.select().from(providers);
    expect(row!.keyEncrypted).not.toContain('plain-provider-key-9876');
    expect(box.open(row!.keyEncrypted)).toBe('plain-provider-key-9876');
    expect(row!.keyHint).toBe('9876');
  });
});

describe('the environment’s provider', () => {
  it('is created once on a fresh shop, however often the shop starts', async () => {
    const real = env({ sandbox: false, name: 'panel.example', url: 'https://panel.example/api/v2', key: 'k-1234' });
    await ensureEnvProvider(database.db, box, real);
    await ensureEnvProvider(database.db, box, real);
    await Promise.all([ensureEnvProvider(database.db, box, real), ensureEnvProvider(database.db, box, real)]);
    const rows = await database.db.select().from(providers);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'panel.example', protocol: 'smm-v2', url: 'https://panel.example/api/v2', callsPerSecond: 20, enabled: true, fromEnv: true });
  });

  it('keeps the environment’s protocol, address and key at each start, and the admin’s name, pace and state', async () => {
    const real = env({ sandbox: false, url: 'https://panel.example/api/v2', key: 'k-1234' });
    await ensureEnvProvider(database.db, box, real);
    await database.db.update(providers).set({ name: 'Main panel', callsPerSecond: 3, enabled: false });
    await ensureEnvProvider(database.db, box, { ...real, url: 'https://other.example/api/v2', protocol: 'qqtube', key: 'k-5678' });
    const [moved] = await database.db.select().from(providers);
    expect(moved).toMatchObject({ url: 'https://other.example/api/v2', protocol: 'qqtube', keyHint: '5678', name: 'Main panel', callsPerSecond: 3, enabled: false });
    expect(box.open(moved!.keyEncrypted)).toBe('k-5678');

    await database.db.delete(providers);
    await ensureEnvProvider(database.db, box, env());
    const [first] = await database.db.select().from(providers);
    await ensureEnvProvider(database.db, box, env({ url: 'http://127.0.0.1:4555/api/v2', key: 'sandbox-key-0002' }));
    const rows = await database.db.select().from(providers);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first!.id, url: 'http://127.0.0.1:4555/api/v2', keyHint: '0002' });
    expect(box.open(rows[0]!.keyEncrypted)).toBe('sandbox-key-0002');
  });

  it('its key, sealed under another secret, is sealed again from the environment', async () => {
    const real = env({ sandbox: false, url: 'https://panel.example/api/v2', key: 'k-1234' });
    await ensureEnvProvider(database.db, keyBox('o'.repeat(40)), real);
    await ensureEnvProvider(database.db, box, real);
    const rows = await database.db.select().from(providers);
    expect(rows).toHaveLength(1);
    expect(box.open(rows[0]!.keyEncrypted)).toBe('k-1234');
  });

  it('is not added to a shop that has providers already', async () => {
    await database.db.insert(providers).values({ name: 'Own', protocol: 'qqtube', url: 'https://own.example/api', keyEncrypted: box.seal('own'), keyHint: 'own' });
    await ensureEnvProvider(database.db, box, env());
    expect((await database.db.select().from(providers)).map((r) => r.name)).toEqual(['Own']);
  });
});

describe('a provider the process describes in a slot (the sandbox’s second provider)', () => {
  const second = (over: Partial<EnvProvider> = {}) => env({ name: 'Sandbox 2', protocol: 'qqtube', url: 'http://127.0.0.1:4002/api', key: 'sandbox-2-aaaa', envSlot: 'sandbox-2', ...over });

  it('gets its row once, after the environment’s provider, however often and however many instances start', async () => {
    const [envId, slotId] = await ensureEnvProviders(database.db, box, [env(), second()]);
    await ensureEnvProviders(database.db, box, [env(), second()]);
    await Promise.all([ensureEnvProviders(database.db, box, [env(), second()]), ensureEnvProviders(database.db, box, [env(), second()])]);
    const rows = await database.db.select().from(providers).orderBy(providers.createdAt, providers.id);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.id)).toEqual([envId, slotId]);
    expect(rows[0]).toMatchObject({ name: 'Sandbox', fromEnv: true, envSlot: null });
    expect(rows[1]).toMatchObject({ name: 'Sandbox 2', protocol: 'qqtube', url: 'http://127.0.0.1:4002/api', keyHint: 'aaaa', fromEnv: false, envSlot: 'sandbox-2', enabled: true });
    expect(box.open(rows[1]!.keyEncrypted)).toBe('sandbox-2-aaaa');
    // Two instances inserting together: one row, both told its id.
    await database.db.delete(providers);
    const ids = await Promise.all([ensureEnvProvider(database.db, box, second()), ensureEnvProvider(database.db, box, second())]);
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).toBe(ids[0]);
    expect(await database.db.select().from(providers)).toHaveLength(1);
  });

  it('is brought up to date at each start (new address and key), keeping the admin’s name, pace and state', async () => {
    const [, slotId] = await ensureEnvProviders(database.db, box, [env(), second()]);
    await database.db.update(providers).set({ name: 'Reserve', callsPerSecond: 4, enabled: false }).where(eq(providers.id, slotId!));
    const [, again] = await ensureEnvProviders(database.db, box, [env({ url: 'http://127.0.0.1:4555/api/v2' }), second({ url: 'http://127.0.0.1:4556/api', key: 'sandbox-2-bbbb' })]);
    expect(again).toBe(slotId);
    const rows = await database.db.select().from(providers).where(eq(providers.envSlot, 'sandbox-2'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ url: 'http://127.0.0.1:4556/api', keyHint: 'bbbb', name: 'Reserve', callsPerSecond: 4, enabled: false });
    expect(box.open(rows[0]!.keyEncrypted)).toBe('sandbox-2-bbbb');
  });

  it('is added to a shop that has providers already, where the environment’s provider is not', async () => {
    await database.db.insert(providers).values({ name: 'Own', protocol: 'qqtube', url: 'https://own.example/api', keyEncrypted: box.seal('own'), keyHint: 'own' });
    const [envId, slotId] = await ensureEnvProviders(database.db, box, [env(), second()]);
    expect(envId).toBeUndefined();
    expect(slotId).toBeTruthy();
    expect((await database.db.select().from(providers).orderBy(providers.createdAt)).map((r) => [r.name, r.fromEnv, r.envSlot])).toEqual([
      ['Own', false, null],
      ['Sandbox 2', false, 'sandbox-2'],
    ]);
  });

  it('is called as this process says; a slot this process does not describe takes no new orders here but answers for its own', async () => {
    const [envId, slotId] = await ensureEnvProviders(database.db, box, [env(), second()]);
    const mine = second({ url: 'http://127.0.0.1:4999/api/v2', protocol: 'smm-v2', key: 'sandbox-2-cccc' });
    const registry = await openProviderRegistry(database, { box, logger, listen: false, envProviders: [env(), mine] });
    try {
      const client = registry.get(slotId!)!.client as unknown as { protocol: string; options: { url: string } };
      expect(client.protocol).toBe('smm-v2');
      expect(client.options.url).toBe('http://127.0.0.1:4999/api/v2');
      expect(registry.all().map((p) => [p.id, p.enabled])).toEqual([
        [envId, true],
        [slotId, true],
      ]);
    } finally {
      await registry.close();
    }
    const without = await openProviderRegistry(database, { box, logger, listen: false, envProviders: [env()] });
    try {
      expect(without.get(slotId!)).toMatchObject({ id: slotId, enabled: false });
      expect(without.forOrder({ providerId: slotId! }).id).toBe(slotId);
      expect(without.forService('1').id).toBe(envId);
    } finally {
      await without.close();
    }
  });
});

describe('the registry', () => {
  const add = async (name: string, over: Partial<typeof providers.$inferInsert> = {}) =>
    (
      await database.db
        .insert(providers)
        .values({ name, protocol: 'smm-v2', url: `https://${name}.example/api/v2`, keyEncrypted: box.seal(`${name}-key`), keyHint: 'key', ...over })
        .returning()
    )[0]!;

  it('resolves each order to the provider recorded on it, and an order without one to the default provider', async () => {
    const first = await add('first', { createdAt: new Date(Date.now() - 60_000) });
    const second = await add('second', { protocol: 'qqtube' });
    const registry = await openProviderRegistry(database, { box, logger, listen: false });
    try {
      expect(registry.all().map((p) => p.name)).toEqual(['first', 'second']);
      expect(registry.forOrder({ providerId: second.id })).toMatchObject({ id: second.id, name: 'second' });
      expect(registry.forOrder({ providerId: second.id }).client.protocol).toBe('qqtube');
      expect(registry.forOrder({ providerId: first.id }).id).toBe(first.id);
      expect(registry.forOrder({ providerId: null }).id).toBe(first.id);
      expect(registry.forService('1').id).toBe(first.id);
      expect(registry.get(second.id)?.name).toBe('second');
      expect(() => registry.forOrder({ providerId: '00000000-0000-0000-0000-000000000000' })).toThrow(/provider/i);

      // Disabled, the default provider still holds its orders; new orders are refused, not sent to
      // another provider where the service ids mean other services.
      await database.db.update(providers).set({ enabled: false }).where(eq(providers.id, first.id));
      await registry.refresh();
      expect(registry.forOrder({ providerId: first.id }).id).toBe(first.id);
      expect(registry.forOrder({ providerId: null }).id).toBe(first.id);
      expect(() => registry.forService('1')).toThrow(/provider/i);
    } finally {
      await registry.close();
    }
  });

  it('calls the environment’s provider as this process’s environment says, whatever another instance wrote', async () => {
    await ensureEnvProvider(database.db, box, env({ url: 'http://127.0.0.1:4001/api/v2' }));
    const [row] = await database.db.select().from(providers);
    const mine = env({ url: 'http://127.0.0.1:4999/api/v2', protocol: 'qqtube' });
    const registry = await openProviderRegistry(database, { box, logger, listen: false, envProviders: [mine] });
    try {
      const client = registry.get(row!.id)!.client as unknown as { protocol: string; options: { url: string } };
      expect(client.protocol).toBe('qqtube');
      expect(client.options.url).toBe('http://127.0.0.1:4999/api/v2');
    } finally {
      await registry.close();
    }
  });

  it('keeps a client while its row keeps its address, key and pace, and builds a new one when they change', async () => {
    const one = await add('one');
    const registry = await openProviderRegistry(database, { box, logger, listen: false });
    try {
      const before = registry.get(one.id)!.client;
      await database.db.update(providers).set({ name: 'renamed', balance: '12.50', balanceCurrency: 'USD' }).where(eq(providers.id, one.id));
      await registry.refresh();
      expect(registry.get(one.id)).toMatchObject({ name: 'renamed' });
      expect(registry.get(one.id)!.client).toBe(before);
      await database.db.update(providers).set({ url: 'https://moved.example/api/v2' }).where(eq(providers.id, one.id));
      await registry.refresh();
      expect(registry.get(one.id)!.client).not.toBe(before);
    } finally {
      await registry.close();
    }
  });

  it('hears of a change made by another instance', async () => {
    const registry = await openProviderRegistry(database, { box, logger });
    try {
      expect(registry.all()).toEqual([]);
      const added = await add('later');
      await announceProviders(database.db);
      await expect.poll(() => registry.get(added.id)?.name, { timeout: 5000 }).toBe('later');
    } finally {
      await registry.close();
    }
  });

  it('leaves out, and logs, a provider whose key was sealed under another secret', async () => {
    await add('foreign', { keyEncrypted: keyBox('o'.repeat(40)).seal('x') });
    const ok = await add('mine');
    const registry = await openProviderRegistry(database, { box, logger, listen: false });
    try {
      expect(registry.all().map((p) => p.id)).toEqual([ok.id]);
    } finally {
      await registry.close();
    }
  });
});


describe('orders grouped by provider', () => {
  it('one group per provider, in the order given; an order whose provider cannot be called waits, the others go on', async () => {
    const { groupByProvider, registryOver } = await import('./registry');
    const client = {} as never;
    const a = { id: 'a', name: 'A', enabled: true, client };
    const b = { id: 'b', name: 'B', enabled: false, client };
    const registry = registryOver(() => [a, b]);
    const orders = [
      { n: 1, providerId: 'b' },
      { n: 2, providerId: null },
      { n: 3, providerId: 'gone' },
      { n: 4, providerId: 'a' },
      { n: 5, providerId: 'b' },
    ];
    const groups = groupByProvider(registry, orders);
    expect([...groups].map(([p, list]) => [p.id, list.map((o) => o.n)])).toEqual([
      ['b', [1, 5]],
      ['a', [2, 4]],
    ]);
  });
});
