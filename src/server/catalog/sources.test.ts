import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { CatalogService } from '../../core/catalog';
import { markedUpTiers, pricePerUnitDisplay } from '../../core/pricing';
import type { Database } from '../db/client';
import { catalogServices, orders, providerServiceChanges, providers, serviceSources } from '../db/schema';
import { createLogger } from '../logger';
import { createProvider, registryOver, type RegisteredProvider, type SmmProvider } from '../providers';
import { submitOrder, syncOrderStatuses } from '../orders';
import { createTestDatabase } from '../testing/db';
import { placeOrderBody } from '../testing/orders';
import { createCustomer } from '../testing/users';
import { decideChange, importProviderServices, listChanges, previewImport, readProviderCatalogue, serviceSourcesOf, setServiceSources } from './sources';

/**
 * The shop's services and their provider services (catalog/sources.ts): a provider's catalogue
 * read over HTTP from the sandbox, changed between reads by `alter` as a provider would change it.
 */

const logger = createLogger('silent');
let sandbox: SandboxProvider;
let alter: (list: CatalogService[]) => CatalogService[] = (l) => l;

/** A client of the sandbox whose catalogue answer passes through `alter`. */
function alteredClient(): SmmProvider {
  const real = createProvider({ protocol: 'smm-v2', url: sandbox.v2Url, key: sandbox.apiKey, timeoutMs: 30_000 });
  return Object.assign(Object.create(real) as SmmProvider, { services: async () => alter(await real.services()) });
}

async function shopWithProvider(): Promise<{ database: Database; provider: RegisteredProvider }> {
  const database = await createTestDatabase();
  const [row] = await database.db.insert(providers).values({ name: 'A', protocol: 'smm-v2', url: sandbox.v2Url, keyEncrypted: 'sealed', keyHint: 'xxxx' }).returning();
  return { database, provider: { id: row!.id, name: 'A', enabled: true, client: alteredClient() } };
}

beforeAll(async () => {
  sandbox = await startSandboxProvider({ serviceCount: 30, seed: 3, clock: 'manual', orderSeconds: 100 });
});
afterAll(() => sandbox.close());

const services = (database: Database) => database.db.select().from(catalogServices);
const serviceOf = async (database: Database, id: string) => (await database.db.select().from(catalogServices).where(eq(catalogServices.id, id)))[0]!;
const double = (s: CatalogService): CatalogService => ({ ...s, tiers: s.tiers.map((t) => ({ ...t, price: String(Number(t.price) * 2) })) });

describe('a provider’s first catalogue read', () => {
  it('on a shop without services imports the default provider’s catalogue as the shop’s own, same ids, no markup, each bought there', async () => {
    const { database, provider } = await shopWithProvider();
    alter = (l) => l;
    const read = await readProviderCatalogue(database.db, provider, { isDefault: true });
    expect(read).toMatchObject({ services: 30, imported: 30, changes: 0, paused: 0 });
    const rows = await services(database);
    const listed = await provider.client.services();
    expect(rows.map((r) => r.id).sort()).toEqual(listed.map((s) => s.id).sort());
    for (const s of listed) expect((await serviceOf(database, s.id)).tiers).toEqual(s.tiers);
    const sources = await database.db.select().from(serviceSources);
    expect(sources).toHaveLength(30);
    expect(sources.every((s) => s.position === 0 && s.providerId === provider.id && s.providerServiceId === s.serviceId)).toBe(true);
    await database.close();
  });

  it('on a shop from before keeps the services’ ids, buys the listed ones there, and pauses the others', async () => {
    const { database, provider } = await shopWithProvider();
    const listed = await provider.client.services();
    const old = listed.slice(0, 5);
    const now = new Date();
    await database.db.insert(catalogServices).values([...old, { ...old[0]!, id: 'retired-1' }].map((s) => ({ ...s, syncedAt: now })));
    const read = await readProviderCatalogue(database.db, provider, { isDefault: true });
    expect(read.imported).toBe(0);
    const rows = await services(database);
    expect(rows.map((r) => r.id).sort()).toEqual([...old.map((s) => s.id), 'retired-1'].sort());
    expect(rows.find((r) => r.id === 'retired-1')!.active).toBe(false);
    expect(rows.filter((r) => r.active)).toHaveLength(5);
    expect(await database.db.select().from(serviceSources)).toHaveLength(5);
    await database.close();
  });
});

describe('later reads and the team’s decisions', () => {
  let database: Database;
  let provider: RegisteredProvider;
  let listed: CatalogService[];
  let deps: Parameters<typeof submitOrder>[0];
  beforeAll(async () => {
    ({ database, provider } = await shopWithProvider());
    alter = (l) => l;
    await readProviderCatalogue(database.db, provider, { isDefault: true });
    listed = await provider.client.services();
    deps = { db: database.db, providers: registryOver(() => [provider]), logger };
  });
  afterAll(() => database.close());

  it('records what changed — price, min/max, new, removed — and sells at the old price until the team applies it', async () => {
    const [priced, limited, removed] = [listed[0]!, listed[1]!, listed[2]!];
    // The team sells this one 10 % above the provider's price.
    await setServiceSources(database.db, priced.id, { sources: [{ providerId: provider.id!, providerServiceId: priced.id }], markup: { percent: '10', fixedPer1000: '0' } });
    const before = await serviceOf(database, priced.id);
    expect(before.tiers).toEqual(markedUpTiers(priced.tiers, { percent: '10', fixedPer1000: '0' }));
    alter = (l) => [
      ...l.filter((s) => s.id !== removed.id).map((s) => (s.id === priced.id ? double(s) : s.id === limited.id ? { ...s, amountMinimum: s.amountMinimum * 2 } : s)),
      { ...listed[3]!, id: 'w-new', name: 'Brand new service' },
    ];
    const read = await readProviderCatalogue(database.db, provider, { isDefault: true });
    expect(read).toMatchObject({ changes: 4, paused: 1, imported: 0 });
    const open = await listChanges(database.db);
    const kinds = Object.fromEntries(open.map((c) => [c.serviceId, c.kind]));
    expect(kinds).toEqual({ [priced.id]: 'price', [limited.id]: 'limits', [removed.id]: 'removed', 'w-new': 'new' });
    expect(open.find((c) => c.serviceId === priced.id)!.services).toEqual([{ serviceId: priced.id, position: 0 }]);
    // Nothing sells at the new terms yet; the service whose provider service is gone is paused, not deleted.
    expect((await serviceOf(database, priced.id)).tiers).toEqual(before.tiers);
    expect((await serviceOf(database, limited.id)).amountMinimum).toBe(limited.amountMinimum);
    expect((await serviceOf(database, removed.id)).active).toBe(false);
    // A second read finds the same changes: they are brought up to date, not repeated.
    await readProviderCatalogue(database.db, provider, { isDefault: true });
    expect(await listChanges(database.db)).toHaveLength(4);
  });

  it('applying a price change reprices the services whose primary it is, with their markup; dismissing changes nothing; a change is decided once', async () => {
    const [priced, limited] = [listed[0]!, listed[1]!];
    expect((await serviceOf(database, priced.id)).tiers).toEqual(markedUpTiers(priced.tiers, { percent: '10', fixedPer1000: '0' }));
    const open = await listChanges(database.db);
    const price = open.find((c) => c.serviceId === priced.id)!;
    expect(await decideChange(database.db, price.id, 'applied', 'admin@test')).toEqual({ services: [priced.id] });
    expect((await serviceOf(database, priced.id)).tiers).toEqual(markedUpTiers(double(priced).tiers, { percent: '10', fixedPer1000: '0' }));
    await expect(decideChange(database.db, price.id, 'dismissed', 'admin@test')).rejects.toMatchObject({ code: 'CONFLICT' });

    const limits = open.find((c) => c.serviceId === limited.id)!;
    await decideChange(database.db, limits.id, 'dismissed', 'admin@test');
    expect((await serviceOf(database, limited.id)).amountMinimum).toBe(limited.amountMinimum);
    const [decided] = await database.db.select().from(providerServiceChanges).where(eq(providerServiceChanges.id, limits.id));
    expect(decided).toMatchObject({ decision: 'dismissed', decidedBy: 'admin@test' });
  });

  it('applying a new service imports it with the markup under a new id of the shop', async () => {
    const change = (await listChanges(database.db)).find((c) => c.serviceId === 'w-new')!;
    const maxBefore = Math.max(...(await services(database)).map((s) => Number(s.id)).filter(Number.isFinite));
    const { services: created } = await decideChange(database.db, change.id, 'applied', 'admin@test', { percent: '25', fixedPer1000: '0.1' });
    expect(created).toEqual([String(maxBefore + 1)]);
    const s = await serviceOf(database, created[0]!);
    expect(s).toMatchObject({ name: 'Brand new service', active: true, markupPercent: '25.0000', markupFixedMicros: 100_000 });
    expect(s.tiers).toEqual(markedUpTiers(listed[3]!.tiers, { percent: '25', fixedPer1000: '0.1' }));
    expect((await serviceSourcesOf(database.db, s.id)).sources).toMatchObject([{ providerId: provider.id, providerServiceId: 'w-new', present: true }]);
  });

  it('a paused service’s open orders are still followed, and its provider service’s return wakes it once applied', async () => {
    const removed = listed[2]!;
    // An order of it placed while it was sold, still open at the provider.
    alter = (l) => l;
    await readProviderCatalogue(database.db, provider, { isDefault: true });
    const back = (await listChanges(database.db)).find((c) => c.serviceId === removed.id && c.kind === 'new')!;
    expect(back).toBeDefined();
    expect((await serviceOf(database, removed.id)).active).toBe(false);
    await decideChange(database.db, back.id, 'applied', 'admin@test');
    expect((await serviceOf(database, removed.id)).active).toBe(true);

    const user = await createCustomer(database.db, { balanceMicros: 1_000_000_000 });
    const svc = await serviceOf(database, removed.id);
    const placed = await placeOrderBody(deps, user.id, { serviceId: svc.id, link: `https://www.instagram.com/paused_${Date.now()}/`, quantity: svc.amountMinimum, params: Object.fromEntries(svc.params.filter((p) => p.required).map((p) => [p.fieldName, p.options[0]?.value ?? 'x'])), idempotencyKey: randomUUID() });
    const sent = await submitOrder(deps, (await database.db.select().from(orders).where(eq(orders.id, placed.id)))[0]!);
    expect(sent.providerOrderId).toBeTruthy();
    alter = (l) => l.filter((s) => s.id !== removed.id);
    await readProviderCatalogue(database.db, provider, { isDefault: true });
    expect((await serviceOf(database, removed.id)).active).toBe(false);
    sandbox.control.advance(1_000_000);
    await syncOrderStatuses(deps, { olderThanMs: 0 });
    const [followed] = await database.db.select().from(orders).where(eq(orders.id, placed.id));
    expect(followed!.status).toBe('completed');
  });

  it('imports a whole category with a markup, priced as its preview said, and the preview writes nothing', async () => {
    alter = (l) => l;
    const { platform, type } = listed[5]!;
    const sel = { providerId: provider.id!, category: { platform, type }, markup: { percent: '20', fixedPer1000: '0.05' } };
    const fees = { serviceFeePercent: 5, baseFee: 0 };
    const count = (await services(database)).length;
    const preview = await previewImport(database.db, sel, fees);
    expect(preview.length).toBeGreaterThan(0);
    expect((await services(database)).length).toBe(count);
    const created = await importProviderServices(database.db, sel);
    expect(created.map((c) => c.providerServiceId)).toEqual(preview.map((p) => p.providerServiceId));
    for (const c of created) {
      const s = await serviceOf(database, c.id);
      expect(Number(c.id)).toBeGreaterThan(0);
      expect(pricePerUnitDisplay(s, fees)?.usd).toBe(preview.find((p) => p.providerServiceId === c.providerServiceId)!.price);
    }
    // Imported again: preview names the services already bought from it.
    expect((await previewImport(database.db, sel, fees))[0]!.importedAs).toContain(created[0]!.id);
  });

  it('sets a service’s sources only to known provider services, each provider once', async () => {
    const id = listed[4]!.id;
    await expect(setServiceSources(database.db, id, { sources: [] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      setServiceSources(database.db, id, { sources: [{ providerId: provider.id!, providerServiceId: id }, { providerId: provider.id!, providerServiceId: listed[5]!.id }] }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(setServiceSources(database.db, id, { sources: [{ providerId: provider.id!, providerServiceId: 'nope' }] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await database.db.select().from(serviceSources).where(and(eq(serviceSources.serviceId, id)))).toHaveLength(1);
    expect(await database.db.select().from(providerServiceChanges).where(isNull(providerServiceChanges.decidedAt))).not.toHaveLength(0);
  });
});
