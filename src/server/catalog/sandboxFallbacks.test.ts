import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { Database } from '../db/client';
import { catalogServices, providers, providerServices, serviceSources } from '../db/schema';
import { createProvider, registryOver, type RegisteredProvider } from '../providers';
import { routeOf } from '../orders/routing';
import { createTestDatabase } from '../testing/db';
import { addSandboxFallbacks, readProviderCatalogue, setServiceSources } from './sources';

/**
 * The sandbox's second provider as the next source of the first one's services (what `npm start`
 * does after its catalogue reads): two sandbox providers with the same catalogue, A speaking SMM
 * v2 and B the QQTube-style protocol at 1.15 times A's prices.
 */

let database: Database;
let sandboxA: SandboxProvider;
let sandboxB: SandboxProvider;
let a: RegisteredProvider;
let b: RegisteredProvider;

async function providerRow(name: string, protocol: 'smm-v2' | 'qqtube', url: string): Promise<string> {
  const [row] = await database.db.insert(providers).values({ name, protocol, url, keyEncrypted: 'sealed', keyHint: 'xxxx' }).returning();
  return row!.id;
}

const sourcesOf = async (serviceId: string) =>
  (await database.db.select().from(serviceSources).where(eq(serviceSources.serviceId, serviceId)).orderBy(asc(serviceSources.position))).map((s) => [s.position, s.providerId, s.providerServiceId]);

beforeAll(async () => {
  database = await createTestDatabase();
  sandboxA = await startSandboxProvider({ serviceCount: 30, seed: 5 });
  sandboxB = await startSandboxProvider({ serviceCount: 30, seed: 5, apiKey: 'second-key', priceFactor: '1.15' });
  a = { id: await providerRow('Sandbox', 'smm-v2', sandboxA.v2Url), name: 'Sandbox', enabled: true, client: createProvider({ protocol: 'smm-v2', url: sandboxA.v2Url, key: sandboxA.apiKey, timeoutMs: 30_000 }) };
  b = { id: await providerRow('Sandbox 2', 'qqtube', sandboxB.qqtubeUrl), name: 'Sandbox 2', enabled: true, client: createProvider({ protocol: 'qqtube', url: sandboxB.qqtubeUrl, key: sandboxB.apiKey, timeoutMs: 30_000 }) };
  expect((await readProviderCatalogue(database.db, a, { isDefault: true })).imported).toBe(30);
  await readProviderCatalogue(database.db, b, { isDefault: false });
});
afterAll(async () => {
  await sandboxA?.close();
  await sandboxB?.close();
  await database?.close();
});

describe('the sandbox’s second provider as every service’s next source', () => {
  it('is added once after each service’s last source, with the primary’s id, only where the second lists it and holds no source yet', async () => {
    const services = await database.db.select().from(catalogServices).orderBy(asc(catalogServices.id));
    const [plain, withB, bFirst, unlisted] = services;
    // One service already bought from B too, one bought from B first, one B does not list any more.
    await setServiceSources(database.db, withB!.id, { sources: [{ providerId: a.id!, providerServiceId: withB!.id }, { providerId: b.id!, providerServiceId: withB!.id }] });
    await setServiceSources(database.db, bFirst!.id, { sources: [{ providerId: b.id!, providerServiceId: bFirst!.id }, { providerId: a.id!, providerServiceId: bFirst!.id }] });
    await database.db.delete(providerServices).where(and(eq(providerServices.providerId, b.id!), eq(providerServices.serviceId, unlisted!.id)));

    expect(await addSandboxFallbacks(database.db, a.id!, b.id!)).toBe(27);
    expect(await sourcesOf(plain!.id)).toEqual([
      [0, a.id, plain!.id],
      [1, b.id, plain!.id],
    ]);
    expect(await sourcesOf(withB!.id)).toEqual([
      [0, a.id, withB!.id],
      [1, b.id, withB!.id],
    ]);
    expect(await sourcesOf(bFirst!.id)).toEqual([
      [0, b.id, bFirst!.id],
      [1, a.id, bFirst!.id],
    ]);
    expect(await sourcesOf(unlisted!.id)).toEqual([[0, a.id, unlisted!.id]]);

    // Idempotent: a second start adds nothing.
    const before = await database.db.select().from(serviceSources);
    expect(await addSandboxFallbacks(database.db, a.id!, b.id!)).toBe(0);
    expect(await database.db.select().from(serviceSources)).toHaveLength(before.length);
    expect(await addSandboxFallbacks(database.db, a.id!, a.id!)).toBe(0);

    // Routing offers A first, then B at its own (dearer) price.
    const route = await routeOf({ db: database.db, providers: registryOver(() => [a, b]) }, plain!, { quantity: plain!.amountMinimum, runs: null, upstreamDrip: false });
    expect(route.map((r) => [r.provider.id, r.providerServiceId])).toEqual([
      [a.id, plain!.id],
      [b.id, plain!.id],
    ]);
    expect(route[1]!.costMicros).toBeGreaterThan(route[0]!.costMicros);
  });
});
