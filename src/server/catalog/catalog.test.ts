import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogServiceSchema } from '../../core/catalog';
import { serviceListSchema, serviceDetailSchema } from '../../core/contracts/catalog';
import { priceOrder } from '../../core/pricing';
import { applyNameRules } from '../../core/serviceNames';
import { OTHER_PLATFORM } from '../../core/platforms';
import { credit } from '../wallet/ledger';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { Database } from '../db/client';
import { catalogServices, serviceCustomNames } from '../db/schema';
import { singleProvider, type SmmProvider } from '../providers';
import { post, signUpUser } from '../auth/testing';
import { saveSettings } from '../settings/service';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { and, eq, sql } from 'drizzle-orm';
import { syncCatalog } from './service';
import { sandboxClient } from '../testing/sandbox';

let database: Database;
let sandbox: SandboxProvider;
let provider: SmmProvider;
let app: Awaited<ReturnType<typeof createTestApp>>['app'];

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ serviceCount: 320 });
  provider = sandboxClient(sandbox);
  ({ app } = await createTestApp(database, { providers: singleProvider(provider) }));
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

describe('catalogue sync', () => {
  it('copies every provider service and deactivates the ones that disappear', async () => {
    const first = await syncCatalog(database.db, provider);
    expect(first.services).toBeGreaterThanOrEqual(300);
    const rows = await database.db.select().from(catalogServices);
    expect(rows).toHaveLength(first.services);
    for (const r of rows.slice(0, 20)) catalogServiceSchema.parse({ ...r, platform: r.platform });

    // A service the provider no longer lists is kept but inactive.
    await database.db.insert(catalogServices).values({ ...rows[0]!, id: 'retired-1' });
    const second = await syncCatalog(database.db, provider);
    expect(second.deactivated).toBe(1);
    const [retired] = await database.db.select().from(catalogServices).where(eq(catalogServices.id, 'retired-1'));
    expect(retired!.active).toBe(false);
  });
});

describe('public catalogue API', () => {
  it('lists active services with fee-inclusive display prices, and revalidates with ETag', async () => {
    const res = await app.request('/api/catalog/services?lang=en');
    expect(res.status).toBe(200);
    const list = serviceListSchema.parse(await res.json());
    expect(list.services.length).toBeGreaterThanOrEqual(300);
    expect(list.services.some((s) => s.id === 'retired-1')).toBe(false);
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();

    const again = await app.request('/api/catalog/services?lang=en', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);

    // Changing the fee changes the prices and therefore the ETag.
    await saveSettings(database.db, { service_fee: 10 });
    const changed = await app.request('/api/catalog/services?lang=en', { headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    const withFee = serviceListSchema.parse(await changed.json());
    expect(withFee.fees.serviceFeePercent).toBe(10);
    const s = withFee.services.find((x) => x.displayPrice && Number(x.displayPrice) > 0.1)!;
    const before = list.services.find((x) => x.id === s.id)!;
    expect(Number(s.displayPrice)).toBeGreaterThan(Number(before.displayPrice));
    await saveSettings(database.db, { service_fee: 0 });
  });

  it('tells of each service whether it may be refilled (and for how long) and cancelled', async () => {
    const [a, b] = await database.db.select().from(catalogServices).where(eq(catalogServices.active, true)).orderBy(catalogServices.id).limit(2);
    await database.db.update(catalogServices).set({ refill: true, refillDays: 30, cancel: false, syncedAt: new Date() }).where(eq(catalogServices.id, a!.id));
    await database.db.update(catalogServices).set({ refill: false, refillDays: null, cancel: true, syncedAt: new Date() }).where(eq(catalogServices.id, b!.id));
    const list = serviceListSchema.parse(await (await app.request('/api/catalog/services?lang=en')).json());
    expect(list.services.find((s) => s.id === a!.id)).toMatchObject({ refill: true, refillDays: 30, cancel: false });
    expect(list.services.find((s) => s.id === b!.id)).toMatchObject({ refill: false, refillDays: null, cancel: true });
  });

  it('serves one service in full; unknown ids answer SERVICE_NOT_FOUND', async () => {
    const list = serviceListSchema.parse(await (await app.request('/api/catalog/services')).json());
    const withParams = list.services.find((s) => s.hasParams)!;
    const res = await app.request(`/api/catalog/services/${withParams.id}?lang=en`);
    expect(res.status).toBe(200);
    const detail = serviceDetailSchema.parse(await res.json());
    expect(detail.params.length).toBeGreaterThan(0);
    expect(priceOrder(detail.tiers, detail.min, { serviceFeePercent: 0, baseFee: 0 }).micros).toBeGreaterThanOrEqual(0);

    for (const bad of ['999999', '../etc', 'x'.repeat(100)]) {
      const r = await app.request(`/api/catalog/services/${encodeURIComponent(bad)}`);
      expect(r.status).toBe(404);
      expect(await r.json()).toMatchObject({ error: { code: 'SERVICE_NOT_FOUND' } });
    }
  });

  it('reads only the language from the query: an unknown language is the default one, any other parameter is refused', async () => {
    expect((await app.request('/api/catalog/services?lang=xx')).status).toBe(200);
    for (const path of ['/api/catalog/services?lang=en&sort=price', '/api/catalog/services/1234?lang=en&expand=all']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(422);
      expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: { issues: [{ code: 'unrecognized_keys' }] } } });
    }
    const blog = await app.request('/api/content/blog?lang=az&page=2');
    expect(blog.status).toBe(422);
  });

  it('never calls the provider for an id the database does not have: 50 unknown ids, 0 provider calls, nothing stored', async () => {
    const [row] = await database.db.select().from(catalogServices).limit(1);
    // One id the provider still lists but the database no longer has, and 49 nobody has.
    await database.db.delete(catalogServices).where(eq(catalogServices.id, row!.id));
    const ids = [row!.id, ...Array.from({ length: 49 }, (_, i) => String(900_000 + i))];
    const stored = (await database.db.select({ n: sql<number>`count(*)::int` }).from(catalogServices))[0]!.n;
    sandbox.control.reset();
    for (const id of ids) {
      const res = await app.request(`/api/catalog/services/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'SERVICE_NOT_FOUND' } });
    }
    // An order for it is refused the same way, also without asking the provider.
    const customer = await signUpUser(app);
    const order = await post(app, '/api/orders', { serviceId: row!.id, link: 'https://instagram.com/unknown', quantity: 100, params: {}, idempotencyKey: randomUUID() }, { cookie: customer.cookie });
    expect(order.status).toBe(404);
    expect(await order.json()).toMatchObject({ error: { code: 'SERVICE_NOT_FOUND' } });
    expect(sandbox.control.calls()).toEqual({});
    expect((await database.db.select({ n: sql<number>`count(*)::int` }).from(catalogServices))[0]!.n).toBe(stored);
    // The next catalogue sync brings it back.
    await syncCatalog(database.db, provider);
    expect((await app.request(`/api/catalog/services/${row!.id}`)).status).toBe(200);
  });

  it('uses per-language custom names by keyword, longest keyword first, keeping the rest of the provider name', async () => {
    const list = serviceListSchema.parse(await (await app.request('/api/catalog/services?lang=en')).json());
    const target = list.services.find((s) => s.platform === 'instagram' && s.group === 'followers')!;
    const keyword = target.name.split(' ').slice(0, 2).join(' ');
    await database.db.insert(serviceCustomNames).values([
      { apiServiceName: keyword.split(' ')[0]!, languageCode: 'az', customName: 'Qısa ad' },
      { apiServiceName: keyword.toUpperCase(), languageCode: 'az', customName: 'Instagram izləyiciləri' },
    ]);
    const az = serviceListSchema.parse(await (await app.request('/api/catalog/services?lang=az')).json());
    // The rest of the name in the glossary's wording (src/core/serviceGlossary.ts), as without the rule.
    const rest = applyNameRules({ id: target.id, name: target.name.slice(keyword.length) }, 'az', []);
    expect(rest).not.toBe(target.name.slice(keyword.length));
    expect(az.services.find((s) => s.id === target.id)!.name).toBe(`Instagram izləyiciləri${rest}`);
    const tr = serviceListSchema.parse(await (await app.request('/api/catalog/services?lang=tr')).json());
    expect(tr.services.find((s) => s.id === target.id)!.name).toBe(applyNameRules(target, 'tr', []));
  });

  it('never makes services with different provider names read alike; a name limited to one service renames that one', async () => {
    await database.db.delete(serviceCustomNames);
    const en = serviceListSchema.parse(await (await app.request('/api/catalog/services?lang=en')).json());
    const followers = en.services.filter((s) => s.platform === 'instagram' && /^Instagram Followers\b/.test(s.name));
    expect(followers.length).toBeGreaterThan(2);
    await database.db.insert(serviceCustomNames).values([
      { apiServiceName: 'Instagram Followers', languageCode: 'az', customName: 'İnstaqram İzləyiciləri' },
      { apiServiceName: 'Followers', languageCode: 'tr', customName: 'Takipçi' },
      { apiServiceName: followers[0]!.name, languageCode: 'tr', customName: 'Seçilmiş takipçiler', serviceId: followers[0]!.id },
    ]);
    for (const lang of ['az', 'tr'] as const) {
      const list = serviceListSchema.parse(await (await app.request(`/api/catalog/services?lang=${lang}`)).json());
      const byId = new Map(list.services.map((s) => [s.id, s.name]));
      const providerNames = new Map<string, string>();
      for (const s of en.services) {
        const other = providerNames.get(byId.get(s.id)!);
        expect(other === undefined || other === s.name, `${lang}: ${s.name} reads like ${other}`).toBe(true);
        providerNames.set(byId.get(s.id)!, s.name);
      }
      for (const s of followers.slice(1)) {
        const rest = applyNameRules({ id: s.id, name: s.name.replace(/^Instagram Followers/, '') }, lang, []);
        expect(byId.get(s.id)).toBe(lang === 'az' ? `İnstaqram İzləyiciləri${rest}` : `Instagram Takipçi${rest}`);
      }
    }
    const one = await (await app.request(`/api/catalog/services/${followers[0]!.id}?lang=tr`)).json();
    expect(one.name).toBe('Seçilmiş takipçiler');
    await database.db.delete(serviceCustomNames);
  });

  it('lists platforms in the spec order, capped at 12, without empty ones, "other" last', async () => {
    const res = await app.request('/api/catalog/platforms');
    const { platforms } = (await res.json()) as { platforms: string[] };
    expect(platforms.slice(0, 4)).toEqual(['instagram', 'tiktok', 'youtube', 'facebook']);
    expect(platforms).not.toContain('');
    expect(platforms.length).toBeLessThanOrEqual(12);
    expect(platforms).toEqual(expect.arrayContaining(['linkedin', 'telegram', 'twitter']));
    expect(platforms.at(-1)).toBe(OTHER_PLATFORM);
  });

  it('lists the services a provider names no platform for under "other", and the site orders them like any other', async () => {
    const unplaced = await database.db.select().from(catalogServices).where(and(eq(catalogServices.active, true), eq(catalogServices.platform, '')));
    expect(unplaced.length).toBeGreaterThan(0);
    const list = serviceListSchema.parse(await (await app.request('/api/catalog/services?lang=tr')).json());
    const other = list.services.filter((s) => s.platform === OTHER_PLATFORM);
    expect(other.map((s) => s.id).sort()).toEqual(unplaced.map((s) => s.id).sort());
    expect(list.services.filter((s) => !s.platform)).toEqual([]);
    const service = unplaced.find((s) => s.params.length === 0)!;
    const detail = serviceDetailSchema.parse(await (await app.request(`/api/catalog/services/${service.id}?lang=az`)).json());
    expect(detail.platform).toBe(OTHER_PLATFORM);

    const customer = await signUpUser(app);
    await credit(database.db, { userId: customer.id, amountMicros: 1_000_000_000, kind: 'topup', reference: `other-${customer.id}` });
    const body = { serviceId: service.id, link: 'https://artim.az/landing', quantity: service.amountMinimum, params: {}, idempotencyKey: randomUUID() };
    const placed = await post(app, '/api/orders', body, { cookie: customer.cookie });
    expect(placed.status).toBe(201);
    expect((await placed.json()).platform).toBe(OTHER_PLATFORM);
    const mine = (await (await app.request('/api/orders', { headers: { cookie: customer.cookie } })).json()) as { orders: { serviceId: string; platform: string }[] };
    expect(mine.orders.find((o) => o.serviceId === service.id)?.platform).toBe(OTHER_PLATFORM);
  });
});
