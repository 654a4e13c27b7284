import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import type { Database } from '../db/client';
import { blogPosts, localServices } from '../db/schema';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { SITEMAPS } from './routes';

const xsd = (name: string) => ({ fileName: name, contents: readFileSync(fileURLToPath(new URL(`./xsd/${name}`, import.meta.url)), 'utf8') });

let database: Database;
let app: Hono;
beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await createTestApp(database));
  const text = { az: 'Mətn', tr: 'Metin', en: 'Text' };
  await database.db.insert(blogPosts).values({ slug: 'first-post', title: text, excerpt: text, body: text, published: true, publishedOn: '2026-11-01' });
  await database.db.insert(localServices).values({ name: { az: 'SEO', tr: 'SEO', en: 'SEO' }, priceQepik: 8000 });
});
afterAll(() => database.close());

async function validate(path: string, schema: string) {
  const res = await app.request(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/xml');
  const xml = await res.text();
  const result = await validateXML({
    xml: [{ fileName: path, contents: xml }],
    schema: [xsd(schema)],
    preload: [xsd('xhtml-link.xsd')],
  });
  return { result, xml };
}

describe('sitemaps', () => {
  it('the index validates against the sitemap index schema and lists the six sitemaps', async () => {
    const { result, xml } = await validate('/sitemap.xml', 'siteindex.xsd');
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    for (const name of SITEMAPS) expect(xml).toContain(`http://localhost:3000/sitemaps/${name}.xml`);
  });

  for (const name of SITEMAPS) {
    it(`${name}.xml validates against the sitemap schema with absolute URLs and hreflang alternates`, async () => {
      const { result, xml } = await validate(`/sitemaps/${name}.xml`, 'sitemap.xsd');
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
      const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
      expect(locs.length).toBeGreaterThan(0);
      // A page in a language, or one of the public pages without one.
      for (const loc of locs) expect(loc).toMatch(/^http:\/\/localhost:3000\/((az|tr|en)(\/|$)|(terms|privacy|track)$)/);
      expect(xml).toContain('hreflang="az"');
    });
  }

  it('a document that breaks the schema is reported invalid (the check can fail)', async () => {
    const result = await validateXML({
      xml: [{ fileName: 'bad.xml', contents: '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><lastmod>yesterday</lastmod></url></urlset>' }],
      schema: [xsd('sitemap.xsd')],
      preload: [xsd('xhtml-link.xsd')],
    });
    expect(result.valid).toBe(false);
  });
});
