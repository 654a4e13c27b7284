import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, LANGUAGE_STORAGE_KEY, type Language } from '../src/core/i18n';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, openPage, PHONE } from './browser';

type Json = Record<string, any>;
const text = (lang: Language, ns: string): Json =>
  JSON.parse(readFileSync(new URL(`../src/web/i18n/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));

/** The stored site name (the settings' default; no journey leaves it changed). */
const SITE_NAME = 'Artım';
const withSite = (s: string) => s.replace('{{site}}', SITE_NAME);

/** One of the agency's seeded services, by its English name, in a language. */
async function seededService(englishName: string, lang: Language): Promise<{ id: number; name: string }> {
  const list = async (l: Language) => ((await (await fetch(`${baseUrl()}/api/content/services?lang=${l}`)).json()) as { services: { id: number; name: string }[] }).services;
  const id = (await list('en')).find((s) => s.name === englishName)!.id;
  return (await list(lang)).find((s) => s.id === id)!;
}

/** Every public page with the title and main heading it must show, read from the locale files and the seeded services. */
async function publicPages(lang: Language) {
  const home = text(lang, 'home');
  const about = text(lang, 'about');
  const services = text(lang, 'services');
  const contact = text(lang, 'contact');
  const legal = text(lang, 'legal');
  const prices = text(lang, 'prices');
  const brand = SITE_NAME;
  const seo = await seededService('SEO', lang);
  return [
    { path: `/${lang}`, title: withSite(home.meta.title), h1: `${home.hero.title} ${home.hero.highlight}` },
    { path: `/${lang}/about`, title: withSite(about.meta.title), h1: about.title },
    { path: `/${lang}/services`, title: withSite(services.meta.title), h1: services.hero.title },
    {
      path: `/${lang}/services/${seo.id}`,
      title: withSite(services.detail.metaTitle.replace('{{name}}', seo.name)),
      h1: seo.name,
    },
    { path: `/${lang}/contact`, title: withSite(contact.meta.title), h1: contact.hero.title },
    { path: `/${lang}/prices`, title: withSite(prices.meta.title), h1: prices.hero.title },
    { path: '/terms', title: `${legal.terms.title} · ${brand}`, h1: legal.terms.title },
    { path: '/privacy', title: `${legal.privacy.title} · ${brand}`, h1: legal.privacy.title },
  ] as { path: string; title: string; h1: string }[];
}

const decode = (s: string) =>
  s.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'");

/**
 * Marks the price list's rows that repeat the markup of a row kept: kept are each table's first row
 * and, for each ability (refill, cancel), the first row that has it and the first that lacks it:
 * rows differ in their words and figures, and in their classes only there (PricesPage.tsx
 * `PriceTable`, `Abilities`). Answers the attribute set on the others.
 */
async function markRepeatedRows(page: Page): Promise<string> {
  const attribute = 'data-axe-repeated';
  const kept = await page.evaluate((attribute) => {
    const keep = new Set<Element>();
    for (const table of document.querySelectorAll('table')) {
      const first = table.querySelector('tr[data-service]');
      if (first) keep.add(first);
    }
    const rows = [...document.querySelectorAll('tr[data-service]')];
    for (const ability of ['refill', 'cancel'])
      for (const available of ['true', 'false']) {
        const row = rows.find((r) => r.querySelector(`[data-ability="${ability}"][data-available="${available}"]`));
        if (row) keep.add(row);
      }
    for (const row of rows) if (!keep.has(row)) row.setAttribute(attribute, '');
    return keep.size;
  }, attribute);
  expect(kept).toBeGreaterThan(0);
  return attribute;
}

/** Stores a language the way the switcher does, before any page script runs. */
async function storeLanguage(page: Page, lang: Language) {
  await page.context().addInitScript(
    ([key, value]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, value);
    },
    [LANGUAGE_STORAGE_KEY, lang] as const,
  );
}

describe('server-rendered HTML (what a crawler without JavaScript sees)', () => {
  it('redirects a path without a language with 302 to the cookie language, default en, keeping the query', async () => {
    const root = await fetch(`${baseUrl()}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/en');

    const about = await fetch(`${baseUrl()}/about?ref=mail`, { redirect: 'manual', headers: { cookie: 'lang=az' } });
    expect(about.status).toBe(302);
    expect(about.headers.get('location')).toBe('/az/about?ref=mail');

    const unknown = await fetch(`${baseUrl()}/fr/about`, { redirect: 'manual', headers: { cookie: 'lang=xx' } });
    expect(unknown.headers.get('location')).toBe('/en/fr/about');
  });

  for (const lang of LANGUAGES) {
    it(`renders every public page complete in ${lang}: lang, title, description, canonical, hreflang, heading`, async () => {
      for (const p of await publicPages(lang)) {
        const res = await fetch(`${baseUrl()}${p.path}`, { headers: { cookie: `lang=${lang}` } });
        expect(res.status, p.path).toBe(200);
        const html = await res.text();
        expect(html, p.path).toContain(`<html lang="${lang}">`);
        expect(decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? ''), p.path).toBe(p.title);
        expect(html, p.path).toMatch(/<meta name="description" content="[^"]{20,}"/);
        expect(/<link rel="canonical" href="([^"]+)"/.exec(html)?.[1], p.path).toMatch(new RegExp(`^https?://[^/]+${p.path}$`));
        if (p.path.startsWith(`/${lang}`)) {
          for (const l of LANGUAGES) expect(html, p.path).toContain(`hreflang="${l}"`);
        }
        const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? '';
        expect(decode(h1).replace(/\s+/g, ' ').trim(), p.path).toBe(p.h1);
      }
    });
  }

  it('answers an unknown service id and an unknown page with 404 and the not-found content', async () => {
    const service = await fetch(`${baseUrl()}/az/services/no-such-service`);
    expect(service.status).toBe(404);
    expect(await service.text()).toContain(text('az', 'services').detail.notFound);
    const missing = await fetch(`${baseUrl()}/tr/no-such-page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(text('tr', 'common').notFound.title);
  });

  it('preloads the matched page chunks of an app page, and every script a page names exists', async () => {
    const html = await (await fetch(`${baseUrl()}/en/api`)).text();
    const hrefs = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]!);
    expect(hrefs.some((h) => /\/assets\/ApiDocsPage-[\w-]+\.js$/.test(h))).toBe(true);
    for (const href of hrefs) expect((await fetch(`${baseUrl()}${href}`)).status, href).toBe(200);
    // A page of islands names one script, and preloads nothing of the app: a page whose islands
    // all wait names it for the capture script to add after the first paint (docs/decisions/0034),
    // one whose island wakes at load has its script tag.
    const services = await (await fetch(`${baseUrl()}/en/services`)).text();
    expect(services).not.toContain('<script type="module"');
    const named = [...services.matchAll(/<meta name="artim-islands" content="([^"]+)"/g)].map((m) => m[1]!);
    expect(named).toEqual([expect.stringMatching(/^\/assets\/islands-[\w-]+\.js$/)]);
    expect(services).not.toContain('rel="modulepreload"');
    expect((await fetch(`${baseUrl()}${named[0]}`)).status).toBe(200);
    const order = await (await fetch(`${baseUrl()}/en/order`)).text();
    expect([...order.matchAll(/<script type="module"[^>]* src="([^"]+)"/g)].map((m) => m[1]!)).toEqual(named);
    expect(order).not.toContain('<meta name="artim-islands"');
    // Its island's scripts (React's with them) are named too, at low priority, to be fetched while
    // the page is read (docs/decisions/0038); the loader fetches them from the same addresses.
    const early = [...order.matchAll(/<link rel="modulepreload" crossorigin fetchpriority="low" href="([^"]+)"/g)].map((m) => m[1]!);
    expect(early.some((h) => /\/assets\/OrderPage-[\w-]+\.js$/.test(h)) && early.some((h) => /\/assets\/frame-[\w-]+\.js$/.test(h))).toBe(true);
    for (const href of early) expect((await fetch(`${baseUrl()}${href}`)).status, href).toBe(200);
  });
});

describe.skipIf(!hasChromium())('public site in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sends / and /about to the language of the last page seen in one, and client navigations replace the entry', async () => {
    const { page, problems } = await openPage(browser);
    // An English browser that has read a Turkish page: the page remembered its language.
    await page.goto('/tr/contact');
    await hydrated(page);
    await page.goto('/');
    await hydrated(page);
    expect(new URL(page.url()).pathname).toBe('/tr');
    expect(await page.getAttribute('html', 'lang')).toBe('tr');

    await page.goto('/about?ref=ad');
    await hydrated(page);
    expect(page.url()).toBe(`${baseUrl()}/tr/about?ref=ad`);
    // A client navigation keeps the old page until the new one is ready: wait for it.
    await expect.poll(() => page.locator('h1').textContent()).toBe(text('tr', 'about').title);

    // In the app (the API documentation), an address without a language is rewritten by the
    // router, replacing history.
    await page.goto('/tr/api');
    await hydrated(page);
    const before = await page.evaluate(() => history.length);
    await page.evaluate(() => {
      history.pushState(null, '', '/services?x=1');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL(`${baseUrl()}/tr/services?x=1`);
    expect(await page.evaluate(() => history.length)).toBe(before + 1);
    await page.goBack();
    await page.waitForURL(`${baseUrl()}/tr/api`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('switches language by rewriting only the language segment, keeping the query, and remembers it', async () => {
    const { page, problems } = await openPage(browser);
    const googleAds = await seededService('Google Ads', 'az');
    await page.goto(`/en/services/${googleAds.id}?utm=x`);
    await hydrated(page);
    await page.getByRole('button', { name: /^Language: English/ }).click();
    await page.getByRole('link', { name: 'Azərbaycanca' }).click();
    await page.waitForURL(`${baseUrl()}/az/services/${googleAds.id}?utm=x`);
    // A client navigation keeps the old page until the new one is ready: wait for it.
    await expect.poll(() => page.locator('h1').textContent()).toBe(googleAds.name);
    expect(await page.getAttribute('html', 'lang')).toBe('az');
    expect(await page.evaluate((k) => localStorage.getItem(k), LANGUAGE_STORAGE_KEY)).toBe('az');
    expect((await page.context().cookies()).find((c) => c.name === 'lang')?.value).toBe('az');

    // The unprefixed legal pages follow the stored language and switch in place.
    await page.goto('/privacy');
    await hydrated(page);
    // A client navigation keeps the old page until the new one is ready: wait for it.
    await expect.poll(() => page.locator('h1').textContent()).toBe(text('az', 'legal').privacy.title);
    await page.getByRole('button', { name: /^Dil: Azərbaycanca/ }).click();
    await page.getByRole('link', { name: 'Türkçe' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe(text('tr', 'legal').privacy.title);
    expect(new URL(page.url()).pathname).toBe('/privacy');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('operates the language switcher with the keyboard', async () => {
    const { page } = await openPage(browser);
    await page.goto('/en/about');
    await hydrated(page);
    const button = page.getByRole('button', { name: /^Language: English/ });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Azərbaycanca');
    await page.keyboard.press('Escape');
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('false');
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.context().close();
  });

  it('loads the notice library only for a notice: none on a page nobody acts on, and a tracking miss still shows its notice', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto('/en');
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    // The notice list (sonner's labelled live region) is not on the page.
    expect(await page.locator('section[aria-live="polite"][aria-label^="Notifications"]').count()).toBe(0);
    // A number in the address is looked up by the server: the miss is in the page, and with no
    // input the page loads no script but the loader (no React, no notice).
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const notFound = text('en', 'tracking').notFound as string;
    await page.goto('/track?order=ZZ-NO-SUCH-ORDER', { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 500))));
    expect(await page.getByTestId('track-failure').textContent()).toBe(notFound);
    expect(await page.locator('[data-island="Track"]').getAttribute('data-hydrated')).toBeNull();
    expect(scripts.filter((path) => /\/frame-[^/]+\.js$/.test(path))).toEqual([]);
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    // A search made in place (the first touch wakes the lookup) raises the notice.
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: notFound }).waitFor();
    // The tracking call's own 404 is the browser's console line, not a fault of the page.
    expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
    await page.context().close();
  });

  it('marks the current page in the navigation and scrolls the hero button to the services section', async () => {
    const { page } = await openPage(browser);
    await page.goto('/en/about');
    await hydrated(page);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'About' }).getAttribute('aria-current')).resolves.toBe('page');
    await expect(nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).resolves.toBeNull();
    await nav.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(`${baseUrl()}/en`);
    await page.getByRole('link', { name: 'Browse services' }).click();
    await expect.poll(() => page.evaluate(() => Math.round(document.getElementById('services')!.getBoundingClientRect().top))).toBeLessThan(100);
    // The grid shows one tile per platform the catalogue serves, or the empty message.
    const { platforms } = (await (await fetch(`${baseUrl()}/api/catalog/platforms`)).json()) as { platforms: string[] };
    const grid = page.locator('#services');
    if (platforms.length === 0) {
      await expect(grid.getByText(text('en', 'home').platforms.empty).isVisible()).resolves.toBe(true);
    } else {
      const tiles = grid.locator('a[href^="/en/order?platform="]');
      expect(await tiles.count()).toBe(platforms.length);
      const first = platforms[0]!;
      const tile = grid.locator(`a[href="/en/order?platform=${first.toLowerCase()}"]`);
      expect((await tile.innerText()).trim()).toBe(first.charAt(0).toUpperCase() + first.slice(1));
    }
    await page.context().close();
  });

  /** Computed styles of every element of the page that its layout and looks depend on, in document order. */
  const looks = (page: Page) =>
    page.evaluate(() => {
      const props = ['display', 'position', 'visibility', 'opacity', 'color', 'background-color', 'background-image', 'font-size', 'font-weight', 'line-height', 'text-align', 'margin', 'padding', 'border-width', 'border-color', 'border-radius', 'box-shadow', 'width', 'height', 'flex-direction', 'justify-content', 'align-items', 'gap', 'grid-template-columns', 'transform', 'z-index', 'overflow'];
      return [...document.body.querySelectorAll('*')].map((el, i) => {
        const style = getComputedStyle(el);
        return `${i} ${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} ${props.map((p) => `${p}:${style.getPropertyValue(p)}`).join(';')}`;
      });
    });
  /** Holds the public pages' whole stylesheet back until `release` is called. */
  async function holdStylesheet(page: Page) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/public-[\w-]+\.css$/, async (route) => {
      await released;
      await route.continue();
    });
    return { release, loaded: () => applied(page) };
  }
  /** Waits until the whole stylesheet is loaded and applied to the screen (islands/stylesheet.ts fetches it as a print stylesheet). */
  const applied = (page: Page) => page.waitForFunction(() => [...document.styleSheets].some((sheet) => sheet.href?.includes('/assets/public-') && sheet.media.mediaText === 'all'));
  const isApplied = (page: Page) => page.evaluate(() => [...document.styleSheets].some((sheet) => sheet.href?.includes('/assets/public-') && sheet.media.mediaText === 'all'));
  /** Applies the whole stylesheet as the islands loader does when an island wakes, without waking one. */
  const applyWhole = (page: Page) =>
    page.evaluate(() => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.media = 'all';
      link.href = document.querySelector('style[data-stylesheet]')!.getAttribute('data-stylesheet')!;
      document.head.append(link);
    });

  it("styles each public page with its own rules exactly as the whole stylesheet does, at 390 and 1280 px", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      for (const path of ['/en', '/az', '/tr/about', '/en/services', '/en/contact', '/en/prices', '/terms']) {
        const { page, problems } = await openPage(browser, viewport);
        const whole = await holdStylesheet(page);
        // The page as it came: the price list's rest (a later part, placed with the whole stylesheet) is held back.
        await page.route((url) => url.searchParams.has('from'), () => {});
        await page.goto(path, { waitUntil: 'load' });
        const own = await page.evaluate(() => document.querySelector('style[data-stylesheet]')?.textContent?.length ?? 0);
        expect(own, path).toBeGreaterThan(0);
        const before = await looks(page);
        whole.release();
        await applyWhole(page);
        await whole.loaded();
        const after = await looks(page);
        expect(after.length, path).toBe(before.length);
        expect(after.filter((line, i) => line !== before[i]).slice(0, 5), `${path} at ${viewport.width} px`).toEqual([]);
        expect(problems).toEqual([]);
        await page.context().close();
      }
    }
  });

  it('fetches the whole stylesheet once the page is shown, and applies it only when an island wakes', async () => {
    const { page, problems } = await openPage(browser);
    const fetched = page.waitForResponse((res) => /\/assets\/public-[\w-]+\.css$/.test(res.url()));
    await page.goto('/en', { waitUntil: 'load' });
    expect((await fetched).status()).toBe(200);
    // The page is live with no island awake (each waits to be touched).
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(await page.locator('[data-island][data-hydrated]').count()).toBe(0);
    // In the cache, not on the screen: nothing on the page needs more than its own rules yet.
    expect(await isApplied(page)).toBe(false);
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('dialog').waitFor();
    expect(await isApplied(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('asks for the islands loader of a page whose islands all wait only once its first contentful paint is on the screen', async () => {
    const { page, problems } = await openPage(browser);
    for (const path of ['/az', '/tr/services', '/en/contact']) {
      await page.goto(path, { waitUntil: 'load' });
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      const { paint, loader } = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        loader: performance.getEntriesByType('resource').find((e) => /\/assets\/islands-[\w-]+\.js$/.test(e.name))?.startTime ?? null,
      }));
      expect(paint, path).not.toBeNull();
      expect(loader, path).not.toBeNull();
      expect(loader!, path).toBeGreaterThan(paint!);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('renders nothing a live island adds before the whole stylesheet is there: the sign-in dialog waits for it', async () => {
    const { page, problems } = await openPage(browser);
    const whole = await holdStylesheet(page);
    await page.goto('/en', { waitUntil: 'load' });
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
    // The header woke with the tap; its code may be here, the stylesheet is not: no dialog yet.
    await page.waitForTimeout(500);
    expect(await page.getByRole('dialog').count()).toBe(0);
    whole.release();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // Laid out by the rules of the whole stylesheet: above the page, not in its flow.
    expect(await dialog.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens the mobile menu at 390 px and closes it on navigation', async () => {
    const { page, problems } = await openPage(browser, PHONE);
    await page.goto('/en');
    await hydrated(page);
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).isVisible()).resolves.toBe(false);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    const close = page.getByRole('button', { name: 'Close menu' });
    expect(await close.getAttribute('aria-expanded')).toBe('true');
    const mobileNav = page.getByRole('navigation', { name: 'Mobile navigation' });
    await mobileNav.getByRole('link', { name: 'Contact' }).click();
    await page.waitForURL(`${baseUrl()}/en/contact`);
    await expect.poll(() => mobileNav.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
    // Escape closes it too.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => mobileNav.isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the not-found page with a link home, and the unknown service state', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto('/az/no-such-page');
    await hydrated(page);
    // A client navigation keeps the old page until the new one is ready: wait for it.
    await expect.poll(() => page.locator('h1').textContent()).toBe(text('az', 'common').notFound.title);
    await page.locator('main').getByRole('link', { name: text('az', 'common').notFound.home }).click();
    await page.waitForURL(`${baseUrl()}/az`);

    await page.goto('/en/services/no-such-service');
    await hydrated(page);
    // A client navigation keeps the old page until the new one is ready: wait for it.
    await expect.poll(() => page.locator('h1').textContent()).toBe('Service not found');
    await page.locator('main').getByRole('link', { name: 'Back to home' }).click();
    await page.waitForURL(`${baseUrl()}/en`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // Every public page in every language, one walk per language, each page hydrated with its title,
  // heading and language and no console errors. The same walks run axe, once per page and width:
  // every page at both widths, each width in one language, and the third language on the two
  // busiest pages (home and services): a page's languages differ only in their words, which change
  // no contrast, role or name rule, while the widths change the layout, so each width is walked
  // whole (the not-found page too), and the phone walk opens the menu only a phone shows. One test
  // per walk, each with its own time limit: on a busy machine the walks together took longer than
  // one test may.
  it.each([
    { lang: 'az' as const, viewport: DESKTOP, axeOnly: null, width: 'desktop' },
    { lang: 'en' as const, viewport: PHONE, axeOnly: null, width: 'phone' },
    { lang: 'tr' as const, viewport: DESKTOP, axeOnly: ['/tr', '/tr/services'], width: 'desktop' },
  ])('hydrates every public page in $lang with its title and heading and no console errors, and axe finds nothing serious or critical ($width)', async ({ lang, viewport, axeOnly, width }) => {
    const found: string[] = [];
    const checkAxe = async (what: string, exclude?: string) => {
      const axe = new AxeBuilder({ page });
      const { violations } = await (exclude ? axe.exclude(exclude) : axe).analyze();
      for (const v of violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
        found.push(`${width} ${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    };
    const { page, problems } = await openPage(browser, viewport);
    await storeLanguage(page, lang);
    for (const p of await publicPages(lang)) {
      await page.goto(p.path);
      await hydrated(page);
      expect(await page.title(), p.path).toBe(p.title);
      expect((await page.locator('h1').innerText()).replace(/\s+/g, ' ').trim(), p.path).toBe(p.h1);
      expect(await page.getAttribute('html', 'lang'), p.path).toBe(lang);
      expect(await page.locator('header nav, footer, main').count(), p.path).toBeGreaterThanOrEqual(3);
      if (axeOnly && !axeOnly.includes(p.path)) continue;
      // The price list at the phone width: its rows that repeat another's markup are left out (axe
      // took a minute over the whole list); the desktop walk checks every row.
      if (viewport === PHONE && p.path.endsWith('/prices')) await checkAxe(p.path, `[${await markRepeatedRows(page)}]`);
      else await checkAxe(p.path);
    }
    expect(problems, lang).toEqual([]);
    if (viewport === PHONE) {
      const { nav } = text(lang, 'common');
      await page.getByRole('button', { name: nav.openMenu }).click();
      await page.getByRole('navigation', { name: nav.mobileLabel }).waitFor();
      await checkAxe(`${new URL(page.url()).pathname} with the menu open`);
    }
    if (!axeOnly) {
      await page.goto(`/${lang}/no-such-page`);
      await hydrated(page);
      await checkAxe(`/${lang}/no-such-page`);
    }
    await page.context().close();
    expect(found).toEqual([]);
  }, 480_000);
});
