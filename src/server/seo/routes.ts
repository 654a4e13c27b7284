import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { LANGUAGES, type Language } from '../../core/i18n';
import type { AppDeps } from '../deps';
import { activeLocalServices } from '../content';
import { blogPosts } from '../db/schema';

/** Paths that crawlers are asked to skip (docs/rules.md#tracking). */
const DISALLOWED = ['/admin', '/dashboard', '/auth', '/reset-password', '/password-recovery', '/payment-success', '/payment-error'];
export const SITEMAPS = ['main', 'services', 'blog', 'blog-az', 'blog-tr', 'pages'] as const;

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

interface Entry {
  /** Path without the language segment, e.g. "/about" ("" for home). */
  path: string;
  /** The page's language segment; null for a page without one (`/terms`), which has no alternates. */
  lang: Language | null;
  lastmod?: string;
  /** Languages the page exists in, for hreflang alternates. */
  alternates?: readonly Language[];
}

function urlset(base: string, entries: Entry[]): string {
  const urls = entries.map((e) => {
    const loc = e.lang ? `${base}/${e.lang}${e.path}` : `${base}${e.path}`;
    const alternates = (e.lang ? (e.alternates ?? LANGUAGES) : [])
      .map((l) => `    <xhtml:link rel="alternate" hreflang="${l}" href="${xmlEscape(`${base}/${l}${e.path}`)}"/>\n`)
      .join('');
    return `  <url>\n    <loc>${xmlEscape(loc)}</loc>\n${e.lastmod ? `    <lastmod>${e.lastmod}</lastmod>\n` : ''}${alternates}  </url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

const everyLanguage = (path: string, lastmod?: string): Entry[] => LANGUAGES.map((lang) => ({ path, lang, lastmod }));

/**
 * Each public page is in one child sitemap: the pages in a language here (the blog's list and
 * posts are in the blog sitemaps), and the public pages without a language, which crawlers may
 * index (robots.txt asks them to skip the others).
 */
const PAGES_IN_A_LANGUAGE = ['/about', '/contact', '/faq', '/api'];
const PAGES_WITHOUT_A_LANGUAGE = ['/terms', '/privacy', '/track'];

/** robots.txt and the sitemap index with its six child sitemaps, built from the database. */
export function seoRoutes(deps: AppDeps) {
  const app = new Hono();
  const db = deps.database.db;
  const base = () => deps.publicUrl.replace(/\/$/, '');
  const xml = (body: string) => new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });

  app.get('/robots.txt', (c) => {
    const lines = ['User-agent: *', 'Crawl-delay: 1', 'Allow: /', ...DISALLOWED.flatMap((p) => [`Disallow: ${p}`, `Disallow: /*${p}`]), '', `Sitemap: ${base()}/sitemap.xml`, ''];
    c.header('Cache-Control', 'public, max-age=3600');
    return c.text(lines.join('\n'));
  });

  app.get('/sitemap.xml', () => {
    const items = SITEMAPS.map((name) => `  <sitemap>\n    <loc>${xmlEscape(`${base()}/sitemaps/${name}.xml`)}</loc>\n  </sitemap>`).join('\n');
    return xml(`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}\n</sitemapindex>\n`);
  });

  app.get('/sitemaps/:name{[a-z-]+\\.xml}', async (c) => {
    const name = c.req.param('name').replace(/\.xml$/, '');
    switch (name) {
      case 'main':
        return xml(urlset(base(), [...everyLanguage(''), ...everyLanguage('/order'), ...everyLanguage('/prices')]));
      case 'pages':
        return xml(
          urlset(base(), [...PAGES_IN_A_LANGUAGE.flatMap((p) => everyLanguage(p)), ...PAGES_WITHOUT_A_LANGUAGE.map((path) => ({ path, lang: null }))]),
        );
      case 'services': {
        // The same rows the services page lists, so every detail address listed answers 200.
        const rows = await activeLocalServices(db, 'az');
        return xml(urlset(base(), [...everyLanguage('/services'), ...rows.flatMap((r) => everyLanguage(`/services/${r.id}`, r.updatedAt.slice(0, 10)))]));
      }
      case 'blog':
      case 'blog-az':
      case 'blog-tr': {
        const lang: Language = name === 'blog' ? 'en' : name === 'blog-az' ? 'az' : 'tr';
        const posts = await db.select({ slug: blogPosts.slug, updatedAt: blogPosts.updatedAt }).from(blogPosts).where(eq(blogPosts.published, true));
        return xml(urlset(base(), [{ path: '/blog', lang }, ...posts.map((p) => ({ path: `/blog/${p.slug}`, lang, lastmod: p.updatedAt.toISOString().slice(0, 10) }))]));
      }
      default:
        return c.notFound();
    }
  });
  return app;
}
