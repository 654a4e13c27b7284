import { and, eq, sql } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { PriceTier } from '../../core/catalog';
import { markedUpTiers, pricePerUnitDisplay } from '../../core/pricing';
import { signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { auditLog, catalogServices, providerServiceChanges, providerServices, serviceSources } from '../db/schema';
import { createLogger } from '../logger';
import { keyBox, openProviderRegistry, type StoredRegistry } from '../providers';
import { getSettings } from '../settings';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';

const box = keyBox('admin-provider-catalog-secret-0123456789abcdef');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
let database: Database;
let first: SandboxProvider;
let second: SandboxProvider;
let registry: StoredRegistry;
let app: Hono;
let admin: string;
let moderator: Awaited<ReturnType<typeof signUpUser>>;
/** The shop's first provider (its catalogue became the shop's) and a second one. */
let mainId: string;
let otherId: string;

const send = (method: string, path: string, cookie?: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const json = async (method: string, path: string, body?: unknown, status = 200) => {
  const res = await send(method, path, admin, body);
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text);
};

const services = () => database.db.select().from(catalogServices).orderBy(catalogServices.id);
const serviceOf = async (id: string) => (await database.db.select().from(catalogServices).where(eq(catalogServices.id, id)))[0]!;
const providerServiceOf = async (providerId: string, serviceId: string) =>
  (await database.db.select().from(providerServices).where(and(eq(providerServices.providerId, providerId), eq(providerServices.serviceId, serviceId))))[0]!;
const half = (tiers: PriceTier[]): PriceTier[] => tiers.map((t) => ({ ...t, price: String(Number(t.price) / 2) }));

beforeAll(async () => {
  database = await createTestDatabase();
  first = await startSandboxProvider({ seed: 1, serviceCount: 12 });
  second = await startSandboxProvider({ seed: 2, serviceCount: 12 });
  registry = await openProviderRegistry(database, { box, logger: createLogger('silent'), listen: false });
  ({ app } = await createTestApp(database, { providers: registry, providerKeys: box }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  moderator = await signUpUser(app);
  expect((await send('POST', `/api/admin/users/${moderator.id}/roles`, admin, { role: 'moderator' })).status).toBe(201);
  mainId = (await json('POST', '/api/admin/providers', { name: 'Main', protocol: 'smm-v2', url: first.v2Url, key: first.apiKey }, 201)).id;
  otherId = (await json('POST', '/api/admin/providers', { name: 'Other', protocol: 'smm-v2', url: second.v2Url, key: second.apiKey }, 201)).id;
});
afterAll(async () => {
  await registry.close();
  await first.close();
  await second.close();
  await database.close();
});

describe('provider catalogues in the admin', () => {
  it('a catalogue read now: the first provider’s becomes the shop’s services, another’s is only copied; its services listed with cost and use', async () => {
    expect(await json('POST', `/api/admin/providers/${mainId}/catalogue`)).toEqual({ services: 12, changes: 0, paused: 0, imported: 12 });
    expect(await json('POST', `/api/admin/providers/${otherId}/catalogue`)).toEqual({ services: 12, changes: 0, paused: 0, imported: 0 });
    expect(await services()).toHaveLength(12);

    const main = (await json('GET', `/api/admin/providers/${mainId}/services`)).services;
    expect(main).toHaveLength(12);
    const one = main[0];
    expect(one).toMatchObject({ present: true, services: [{ serviceId: one.providerServiceId, position: 0 }] });
    expect(Number(one.costPer1000)).toBeGreaterThan(0);

    const other = (await json('GET', `/api/admin/providers/${otherId}/services`)).services;
    expect(other.every((s: { services: unknown[] }) => s.services.length === 0)).toBe(true);
    const { platform, type, name, providerServiceId } = other[0];
    const byCategory = (await json('GET', `/api/admin/providers/${otherId}/services?platform=${encodeURIComponent(platform)}&type=${encodeURIComponent(type)}`)).services;
    expect(byCategory.length).toBeGreaterThan(0);
    expect(byCategory.every((s: { platform: string; type: string }) => s.platform === platform && s.type === type)).toBe(true);
    const byWords = (await json('GET', `/api/admin/providers/${otherId}/services?q=${encodeURIComponent(name.slice(0, 12))}`)).services;
    expect(byWords.map((s: { providerServiceId: string }) => s.providerServiceId)).toContain(providerServiceId);
    expect((await json('GET', `/api/admin/providers/${otherId}/services?q=${providerServiceId}`)).services.map((s: { providerServiceId: string }) => s.providerServiceId)).toEqual([providerServiceId]);

    const entries = await database.db.select().from(auditLog).where(eq(auditLog.action, 'provider.catalogue'));
    expect(entries).toHaveLength(2);
  });

  it('an import with a markup creates services with new ids, priced as its preview said; the preview writes nothing', async () => {
    const other = (await json('GET', `/api/admin/providers/${otherId}/services`)).services as { providerServiceId: string }[];
    const picked = other.slice(0, 3).map((s) => s.providerServiceId);
    const body = { providerId: otherId, serviceIds: picked, markup: { percent: '20', fixedPer1000: '0.5' } };
    const before = await services();
    const changesBefore = await database.db.select().from(providerServiceChanges);

    const { lines } = await json('POST', '/api/admin/catalog/import/preview', body);
    expect(lines.map((l: { providerServiceId: string }) => l.providerServiceId)).toEqual([...picked].sort());
    for (const l of lines) expect(Number(l.price)).toBeGreaterThan(Number(l.cost));
    expect(await services()).toEqual(before);
    expect(await database.db.select().from(providerServiceChanges)).toEqual(changesBefore);

    const { created } = await json('POST', '/api/admin/catalog/import', body, 201);
    expect(created).toHaveLength(3);
    const maxBefore = Math.max(...before.map((s) => Number(s.id)));
    expect(created.map((c: { id: string }) => c.id)).toEqual([1, 2, 3].map((i) => String(maxBefore + i)));
    const settings = await getSettings(database.db);
    const fees = { serviceFeePercent: settings.service_fee, baseFee: settings.base_fee };
    for (const c of created as { id: string; providerServiceId: string }[]) {
      const service = await serviceOf(c.id);
      const line = lines.find((l: { providerServiceId: string }) => l.providerServiceId === c.providerServiceId);
      expect(pricePerUnitDisplay(service, fees)?.usd).toBe(line.price);
      // The provider's price with 20 % and 0.50 USD per 1000 on top, to the 8th decimal.
      const ps = await providerServiceOf(otherId, c.providerServiceId);
      service.tiers.forEach((t, i) => expect(Number(t.price)).toBeCloseTo(Number(ps.tiers[i]!.price) * 1.2 + (0.5 * t.pricingPer) / 1000, 7));
      expect(service).toMatchObject({ markupFixedMicros: 500_000, active: true });
      expect(Number(service.markupPercent)).toBe(20);
      const sources = await json('GET', `/api/admin/catalog/services/${c.id}/sources`);
      expect(sources).toMatchObject({ markup: { percent: '20', fixedPer1000: '0.50' }, sources: [{ position: 0, providerId: otherId, providerServiceId: c.providerServiceId, present: true }] });
    }
    // Shown as imported on the next preview.
    const again = (await json('POST', '/api/admin/catalog/import/preview', body)).lines;
    expect(again.every((l: { importedAs: string[] }) => l.importedAs.length === 1)).toBe(true);
    expect(await database.db.select().from(auditLog).where(eq(auditLog.action, 'catalog.import'))).toHaveLength(1);
  });

  it('a whole category is imported at once', async () => {
    const other = (await json('GET', `/api/admin/providers/${otherId}/services`)).services as { platform: string; type: string; services: unknown[] }[];
    const last = other[other.length - 1]!;
    const inCategory = other.filter((s) => s.platform === last.platform && s.type === last.type);
    const { lines } = await json('POST', '/api/admin/catalog/import/preview', { providerId: otherId, category: { platform: last.platform, type: last.type }, markup: { percent: '0', fixedPer1000: '0' } });
    expect(lines).toHaveLength(inCategory.length);
  });

  it('refuses an import of unknown provider services or providers (404), and a selection of both kinds or none (422)', async () => {
    const markup = { percent: '10', fixedPer1000: '0' };
    const before = await services();
    const unknown = await send('POST', '/api/admin/catalog/import', admin, { providerId: otherId, serviceIds: ['no-such-id'], markup });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe('NOT_FOUND');
    const other = (await json('GET', `/api/admin/providers/${otherId}/services`)).services as { providerServiceId: string }[];
    expect((await send('POST', '/api/admin/catalog/import', admin, { providerId: otherId, serviceIds: [other[5]!.providerServiceId, 'no-such-id'], markup })).status).toBe(404);
    expect((await send('POST', '/api/admin/catalog/import/preview', admin, { providerId: UNKNOWN, serviceIds: ['1'], markup })).status).toBe(404);
    for (const body of [
      { providerId: otherId, markup },
      { providerId: otherId, serviceIds: ['1'], category: { platform: 'instagram', type: 'Default' }, markup },
      { providerId: otherId, serviceIds: [], markup },
      { providerId: 'not-a-uuid', serviceIds: ['1'], markup },
      { providerId: otherId, serviceIds: ['1'], markup: { percent: '-5' } },
      { providerId: otherId, serviceIds: ['1'], markup: { percent: '5001' } },
      { providerId: otherId, serviceIds: ['1'], markup, extra: 1 },
    ]) {
      const res = await send('POST', '/api/admin/catalog/import', admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).error.code).toBe('VALIDATION_FAILED');
    }
    expect(await services()).toEqual(before);
    expect((await send('GET', `/api/admin/providers/${UNKNOWN}/services`, admin)).status).toBe(404);
    expect((await send('POST', `/api/admin/providers/${UNKNOWN}/catalogue`, admin)).status).toBe(404);
  });

  it('a price change applied reprices the services whose primary it is; one dismissed changes nothing; each is decided once', async () => {
    const imported = await database.db.select().from(serviceSources).where(eq(serviceSources.providerId, otherId)).orderBy(serviceSources.serviceId);
    const [a, b] = imported;
    // The provider's price was half of today's when these services were priced: the next read finds it doubled.
    for (const s of [a!, b!]) {
      const ps = await providerServiceOf(otherId, s.providerServiceId);
      const service = await serviceOf(s.serviceId);
      await database.db.update(providerServices).set({ tiers: half(ps.tiers) }).where(and(eq(providerServices.providerId, otherId), eq(providerServices.serviceId, s.providerServiceId)));
      await database.db.update(catalogServices).set({ tiers: markedUpTiers(half(ps.tiers), { percent: '20', fixedPer1000: '0.5' }) }).where(eq(catalogServices.id, service.id));
    }
    const bOld = (await serviceOf(b!.serviceId)).tiers;
    expect((await json('POST', `/api/admin/providers/${otherId}/catalogue`)).changes).toBe(2);

    const { changes } = await json('GET', '/api/admin/catalog/changes');
    const changeOf = (psId: string) => changes.find((c: { serviceId: string; kind: string }) => c.serviceId === psId && c.kind === 'price');
    const ca = changeOf(a!.providerServiceId);
    const cb = changeOf(b!.providerServiceId);
    expect(ca).toMatchObject({ providerId: otherId, decidedAt: null, services: [{ serviceId: a!.serviceId, position: 0 }] });
    expect(Number(ca.after.tiers[0].price)).toBeCloseTo(Number(ca.before.tiers[0].price) * 2);

    expect(await json('POST', `/api/admin/catalog/changes/${ca.id}`, { decision: 'applied' })).toEqual({ services: [a!.serviceId] });
    const ps = await providerServiceOf(otherId, a!.providerServiceId);
    expect((await serviceOf(a!.serviceId)).tiers).toEqual(markedUpTiers(ps.tiers, { percent: '20', fixedPer1000: '0.5' }));

    expect(await json('POST', `/api/admin/catalog/changes/${cb.id}`, { decision: 'dismissed' })).toEqual({ services: [] });
    expect((await serviceOf(b!.serviceId)).tiers).toEqual(bOld);

    const again = await send('POST', `/api/admin/catalog/changes/${ca.id}`, admin, { decision: 'dismissed' });
    expect(again.status).toBe(409);
    expect((await send('POST', '/api/admin/catalog/changes/999999', admin, { decision: 'applied' })).status).toBe(404);
    expect((await send('POST', `/api/admin/catalog/changes/${cb.id}`, admin, { decision: 'maybe' })).status).toBe(422);

    const open = (await json('GET', '/api/admin/catalog/changes')).changes.map((c: { id: number }) => c.id);
    expect(open).not.toContain(ca.id);
    const all = (await json('GET', '/api/admin/catalog/changes?all=1')).changes;
    expect(all.find((c: { id: number }) => c.id === cb.id)).toMatchObject({ decision: 'dismissed' });
    expect((await database.db.select().from(auditLog).where(sql`${auditLog.action} like 'catalog.change.%'`)).map((e) => e.action).sort()).toEqual(['catalog.change.apply', 'catalog.change.dismiss']);
  });

  it('a new provider service applied with a markup becomes a service of the shop', async () => {
    const unused = (await json('GET', `/api/admin/providers/${otherId}/services`)).services.find((s: { services: unknown[] }) => s.services.length === 0);
    await database.db.delete(providerServices).where(and(eq(providerServices.providerId, otherId), eq(providerServices.serviceId, unused.providerServiceId)));
    await json('POST', `/api/admin/providers/${otherId}/catalogue`);
    const change = (await json('GET', '/api/admin/catalog/changes')).changes.find((c: { serviceId: string; kind: string }) => c.serviceId === unused.providerServiceId && c.kind === 'new');
    expect(change).toMatchObject({ before: null, services: [] });
    const { services: made } = await json('POST', `/api/admin/catalog/changes/${change.id}`, { decision: 'applied', markup: { percent: '50', fixedPer1000: '0' } });
    expect(made).toHaveLength(1);
    const ps = await providerServiceOf(otherId, unused.providerServiceId);
    expect((await serviceOf(made[0])).tiers).toEqual(markedUpTiers(ps.tiers, { percent: '50', fixedPer1000: '0' }));
  });

  it('a service’s sources are set in order with its markup, each provider once and each a known provider service', async () => {
    const [row] = await database.db.select().from(serviceSources).where(and(eq(serviceSources.providerId, mainId), eq(serviceSources.position, 0))).limit(1);
    const id = row!.serviceId;
    const otherPs = (await json('GET', `/api/admin/providers/${otherId}/services`)).services[0].providerServiceId;
    const before = await serviceOf(id);
    const path = `/api/admin/catalog/services/${id}/sources`;

    const bad: [unknown, number][] = [
      [{ sources: [] }, 422],
      [{ sources: [{ providerId: mainId, providerServiceId: row!.providerServiceId }, { providerId: mainId, providerServiceId: otherPs }] }, 422],
      [{ sources: [{ providerId: 'nope', providerServiceId: '1' }] }, 422],
      [{ sources: [{ providerId: mainId, providerServiceId: row!.providerServiceId }], markup: { percent: 'ten' } }, 422],
      [{ sources: [{ providerId: mainId, providerServiceId: row!.providerServiceId, extra: 1 }] }, 422],
      [{ sources: [{ providerId: otherId, providerServiceId: 'no-such-id' }] }, 404],
      [{ sources: [{ providerId: UNKNOWN, providerServiceId: '1' }] }, 404],
    ];
    for (const [body, status] of bad) expect((await send('PUT', path, admin, body)).status, JSON.stringify(body)).toBe(status);
    expect((await send('PUT', '/api/admin/catalog/services/no-such-service/sources', admin, { sources: [{ providerId: mainId, providerServiceId: row!.providerServiceId }] })).status).toBe(404);
    expect((await send('GET', '/api/admin/catalog/services/no-such-service/sources', admin)).status).toBe(404);
    expect(await serviceOf(id)).toEqual(before);

    // Only the order: the price stays.
    const saved = await json('PUT', path, { sources: [{ providerId: mainId, providerServiceId: row!.providerServiceId }, { providerId: otherId, providerServiceId: otherPs }] });
    expect(saved.sources.map((s: { providerId: string; position: number }) => [s.position, s.providerId])).toEqual([
      [0, mainId],
      [1, otherId],
    ]);
    expect(saved.sources.every((s: { costPer1000: string | null; present: boolean }) => s.present && Number(s.costPer1000) > 0)).toBe(true);
    expect((await serviceOf(id)).tiers).toEqual(before.tiers);

    // A markup prices it again from its primary source.
    await json('PUT', path, { sources: [{ providerId: otherId, providerServiceId: otherPs }, { providerId: mainId, providerServiceId: row!.providerServiceId }], markup: { percent: '30', fixedPer1000: '0' } });
    const primary = await providerServiceOf(otherId, otherPs);
    expect((await serviceOf(id)).tiers).toEqual(markedUpTiers(primary.tiers, { percent: '30', fixedPer1000: '0' }));
    expect((await json('GET', path)).markup).toEqual({ percent: '30', fixedPer1000: '0.00' });
    expect(await database.db.select().from(auditLog).where(eq(auditLog.action, 'service.sources'))).toHaveLength(2);
  });

  it('are closed to a moderator and a customer (403)', async () => {
    const customer = await signUpUser(app);
    const markup = { percent: '0', fixedPer1000: '0' };
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/admin/providers/${otherId}/services`],
      ['POST', `/api/admin/providers/${otherId}/catalogue`],
      ['GET', '/api/admin/catalog/changes'],
      ['POST', '/api/admin/catalog/changes/1', { decision: 'dismissed' }],
      ['POST', '/api/admin/catalog/import/preview', { providerId: otherId, serviceIds: ['1'], markup }],
      ['POST', '/api/admin/catalog/import', { providerId: otherId, serviceIds: ['1'], markup }],
      ['GET', '/api/admin/catalog/services/1/sources'],
      ['PUT', '/api/admin/catalog/services/1/sources', { sources: [{ providerId: otherId, providerServiceId: '1' }] }],
    ];
    const before = await services();
    for (const cookie of [moderator.cookie, customer.cookie]) {
      for (const [method, path, body] of calls) expect((await send(method, path, cookie, body)).status, `${method} ${path}`).toBe(403);
    }
    expect(await services()).toEqual(before);
  });
});
