import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';
import { sourceRenderer } from '../testing/web';
import { productionStylesheets } from '../../web/testing/build';

let database: Database;
let app: Hono;
/** The two stylesheets as `npm run build` makes them (vite.config.ts's inputs): the app's and the public pages'. */
let css: { app: string; public: string };

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await createTestApp(database, { web: sourceRenderer() }));
  css = await productionStylesheets();
}, 120_000);
afterAll(async () => {
  await database.close();
});

/** A class as a selector in Tailwind's output: every character but letters, digits, `-` and `_` escaped. */
const selector = (cls: string) => `.${cls.replace(/[^\w-]/g, (c) => `\\${c}`)}`;
/** Whether a stylesheet has a rule for the class (the selector, then something that ends a simple selector). */
const styles = (sheet: string, cls: string) => {
  const sel = selector(cls);
  for (let at = sheet.indexOf(sel); at >= 0; at = sheet.indexOf(sel, at + 1)) {
    if (!/[\w\\-]/.test(sheet[at + sel.length] ?? '')) return true;
  }
  return false;
};

const unescapeHtml = (text: string) => text.replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&amp;', '&');

/** Every public page of islands (a page's `islands` export), in each language where it has one. */
const PAGES = [
  ...['az', 'tr', 'en'].flatMap((lang) => [`/${lang}`, `/${lang}/about`, `/${lang}/services`, `/${lang}/contact`, `/${lang}/prices`, `/${lang}/blog`, `/${lang}/faq`, `/${lang}/no-such-page`]),
  '/terms',
  '/privacy',
  '/track',
  '/payment-success',
  '/payment-error',
];

describe('the public pages’ stylesheet (styles.public.css)', () => {
  it('is smaller than the app’s', () => {
    expect(css.public.length).toBeLessThan(css.app.length * 0.85);
    // What the app's pages alone use is left out: a width of the team's analytics page, say.
    expect(styles(css.app, 'max-w-[16rem]')).toBe(true);
    expect(styles(css.public, 'max-w-[16rem]')).toBe(false);
  });

  it('styles every class a public page is rendered with that the app’s stylesheet styles', async () => {
    const services = (await (await app.request('/api/content/services?lang=en')).json()) as { services: { id: string }[] };
    const pages = [...PAGES, ...services.services.slice(0, 2).map((s) => `/en/services/${s.id}`)];
    const missing = new Map<string, string[]>();
    for (const path of pages) {
      const res = await app.request(path, { headers: { 'accept-language': 'en' } });
      const html = await res.text();
      expect(html, path).toContain('data-island');
      const classes = new Set([...html.matchAll(/\sclass="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/).filter(Boolean)));
      const lacking = [...classes].map(unescapeHtml).filter((cls) => styles(css.app, cls) && !styles(css.public, cls));
      if (lacking.length) missing.set(path, lacking);
    }
    expect(Object.fromEntries(missing)).toEqual({});
  }, 60_000);
});
