import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { seed } from '../db/seed';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sourceRenderer } from '../testing/web';

let database: Database;
let app: Hono;
let admin: string;

const send = (method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie: admin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const text = (az: string, tr: string, en: string) => ({ az, tr, en });

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await createTestApp(database, { web: sourceRenderer() }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
});
afterAll(() => database.close());

interface ListedService {
  id: number;
  name: string;
  description: string;
  category: 'standard' | 'social_media';
  priceQepik: number | null;
  orderIndex: number;
}
const list = async (lang: string) => ((await (await app.request(`/api/content/services?lang=${lang}`)).json()) as { services: ListedService[] }).services;

describe("the agency's own services", () => {
  it('the eight marketing services are seeded once, in three languages, with the start prices', async () => {
    await seed(database.db, {});
    const az = await list('az');
    const standard = az.filter((s) => s.category === 'standard');
    expect(standard.map((s) => s.name)).toEqual([
      'SMM Xidməti',
      'Google Reklamları',
      'YouTube Reklamları',
      'SEO Xidməti',
      'Loqo Hazırlanması',
      'Sayt Hazırlanması',
      'TV/Radio Reklam',
      'Facebook/Instagram Reklam',
    ]);
    expect(standard.map((s) => s.priceQepik)).toEqual([15000, 20000, 12000, 8000, 30000, 50000, 16000, null]);
    const en = await list('en');
    expect(en.find((s) => s.id === standard[3]!.id)?.name).toBe('SEO');
    expect((await list('tr')).find((s) => s.id === standard[0]!.id)?.name).toBe('SMM Hizmeti');
  });

  it('a service an admin creates shows on the services page and its detail page opens; inactive ones answer 404', async () => {
    const created = await send('POST', '/api/admin/catalog/services', {
      name: text('Podkast İstehsalı', 'Podcast Prodüksiyonu', 'Podcast production'),
      description: text('Podkastınızı hazırlayırıq.', 'Podcastinizi hazırlıyoruz.', 'We produce your podcast.'),
      priceQepik: 25000,
      category: 'standard',
      orderIndex: 20,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };

    const page = await app.request('/az/services');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Podkast İstehsalı');
    expect(html).toContain(`/az/services/${id}`);

    const detail = await app.request(`/en/services/${id}`);
    expect(detail.status).toBe(200);
    const detailHtml = await detail.text();
    expect(detailHtml).toContain('Podcast production');
    expect(detailHtml).toContain('We produce your podcast.');
    expect(detailHtml).toMatch(/<title>Podcast production · [^<]+<\/title>/);

    expect((await send('PUT', `/api/admin/catalog/services/${id}`, { name: text('a', 'b', 'c'), active: false })).status).toBe(200);
    const gone = await app.request(`/az/services/${id}`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('Xidmət tapılmadı');
    expect((await app.request('/az/services/999999')).status).toBe(404);
    expect((await app.request('/az/services/not-a-number')).status).toBe(404);
    expect((await list('az')).map((s) => s.id)).not.toContain(id);
  });

  it('active services are ordered by category, then position, then price', async () => {
    const ids: number[] = [];
    for (const [name, orderIndex, priceQepik] of [['B', -5, 900], ['A', -5, 100], ['C', -10, 5000]] as const) {
      const res = await send('POST', '/api/admin/catalog/services', { name: text(name, name, name), category: 'social_media', orderIndex, priceQepik });
      ids.push(((await res.json()) as { id: number }).id);
    }
    const social = (await list('en')).filter((s) => s.category === 'social_media').map((s) => s.name);
    expect(social.slice(0, 3)).toEqual(['C', 'A', 'B']);
    const categories = (await list('en')).map((s) => s.category);
    expect(categories).toEqual([...categories].sort());
  });

  it('writes are strict: unknown fields and a missing language are refused with 422, never 500', async () => {
    const good = { name: text('X', 'X', 'X') };
    expect((await send('POST', '/api/admin/catalog/services', { ...good, colour: 'red' })).status).toBe(422);
    expect((await send('POST', '/api/admin/catalog/services', { name: { az: 'X', tr: 'X' } })).status).toBe(422);
    expect((await send('POST', '/api/admin/catalog/services', { name: 'X' })).status).toBe(422);
    const res = await send('POST', '/api/admin/catalog/services', { ...good, priceQepik: -1 });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
  });

  it('the seed never brings back services an admin deleted', async () => {
    const stored = (await (await send('GET', '/api/admin/catalog/services')).json()) as { services: { id: number }[] };
    for (const { id } of stored.services) expect((await send('DELETE', `/api/admin/catalog/services/${id}`)).status).toBe(204);
    await seed(database.db, {});
    expect(await list('az')).toEqual([]);
    expect((await (await app.request('/sitemaps/services.xml')).text()).match(/<loc>/g)).toHaveLength(3);
  });
});
