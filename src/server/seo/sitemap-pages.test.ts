import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sourceRenderer } from '../testing/web';

let database: Database;
let app: Hono;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await createTestApp(database, { web: sourceRenderer() }));
  const admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  const post = (path: string, body: unknown) =>
    app.request(path, { method: 'POST', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie: admin }, body: JSON.stringify(body) });
  const text = { az: 'Mətn', tr: 'Metin', en: 'Text' };
  expect((await post('/api/admin/content/blog', { slug: 'first-post', title: text, excerpt: text, body: text, published: true, publishedOn: '2026-11-01' })).status).toBe(201);
  expect((await post('/api/admin/catalog/services', { name: text, category: 'social_media', priceQepik: 4000 })).status).toBe(201);
  expect((await post('/api/admin/catalog/services', { name: text, active: false })).status).toBe(201);
});
afterAll(() => database.close());

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);

describe('the sitemaps list exactly pages that answer 200', () => {
  it('every URL of every child sitemap renders with status 200', async () => {
    const children = locs(await (await app.request('/sitemap.xml')).text());
    expect(children.length).toBe(6);
    const pages = new Set<string>();
    for (const child of children) {
      const res = await app.request(child);
      expect(res.status, child).toBe(200);
      for (const path of locs(await res.text())) pages.add(path);
    }
    expect([...pages].filter((p) => /^\/az\/services\/\d+$/.test(p)).length).toBeGreaterThanOrEqual(9);
    const failures: string[] = [];
    for (const path of pages) {
      const res = await app.request(path);
      if (res.status !== 200) failures.push(`${path} → ${res.status}`);
      // The boot data carries the raw texts; what is shown must have its placeholders filled.
      else if ((await res.text()).replace(/<script[\s\S]*?<\/script>/g, '').includes('{{')) failures.push(`${path} shows an unfilled placeholder`);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('each page is in one child sitemap, the public pages without a language too', async () => {
    const children = locs(await (await app.request('/sitemap.xml')).text());
    const seen = new Map<string, string[]>();
    for (const child of children) {
      for (const path of locs(await (await app.request(child)).text())) seen.set(path, [...(seen.get(path) ?? []), child]);
    }
    expect([...seen].filter(([, where]) => where.length > 1)).toEqual([]);
    for (const path of ['/terms', '/privacy', '/track', '/az/blog', '/tr/blog', '/en/blog', '/en/blog/first-post']) expect(seen.has(path), path).toBe(true);
    // Crawlers are asked to skip these (robots.txt): no sitemap lists them.
    for (const path of seen.keys()) expect(path).not.toMatch(/\/(auth|dashboard|admin|reset-password|password-recovery|payment-success|payment-error)(\/|$)/);
  });
});
