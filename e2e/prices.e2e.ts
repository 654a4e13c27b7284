import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceList } from '../src/core/contracts/catalog';
import { platformDisplayName } from '../src/core/platforms';
import { pricePerUnitDisplay } from '../src/core/pricing';
import { formatMoneyDecimal } from '../src/web/lib/format';
import { PRICE_LIST_FIRST_ROWS, PRICE_LIST_PART_ROWS } from '../src/web/features/catalog/priceList';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, openPage, PHONE, visitorHeaders } from './browser';

async function catalogue(lang: string): Promise<ServiceList> {
  return (await (await fetch(`${baseUrl()}/api/catalog/services?lang=${lang}`)).json()) as ServiceList;
}

/**
 * The price list at a phone's and a desktop's width: every service by platform, search and
 * filters answered by the server, and a row that opens the order form with its service chosen
 * at the price the row showed.
 */
describe.skipIf(!hasChromium())('price list', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [width, viewport, lang] of [['phone', PHONE, 'az'], ['desktop', DESKTOP, 'en']] as const) {
    it(`at ${viewport.width} px (${lang}): from the header, search, filter, and a row opens the order form with the service chosen`, async () => {
      const { services, fees } = await catalogue(lang);
      const { page, problems } = await openPage(browser, viewport);
      await page.goto(`/${lang}/about`);
      await hydrated(page);
      // Reached from the navigation (the phone's menu, the desktop's header).
      if (width === 'phone') await page.getByRole('button', { name: lang === 'az' ? 'Menyunu aç' : 'Open menu' }).click();
      await page.locator(`header a[href="/${lang}/prices"]:visible`).first().click();
      await page.waitForURL(`${baseUrl()}/${lang}/prices`);
      await hydrated(page);
      expect(await page.locator('tr[data-service]').count()).toBe(services.length);
      // The page is no wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      // Search by id, from the keyboard: one row.
      const wanted = services.find((s) => s.platform && s.group === 'followers' && s.cancel) ?? services.find((s) => s.platform)!;
      const search = page.getByRole('searchbox');
      await search.fill(wanted.id);
      await search.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('q') === wanted.id);
      await expect.poll(() => page.locator('tr[data-service]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-service')))).toEqual([wanted.id]);

      // Filters: platform and type, the search cleared; every row shown is of them, and all of them are.
      await search.fill('');
      await page.getByRole('combobox', { name: lang === 'az' ? 'Platforma' : 'Platform' }).selectOption(wanted.platform);
      await page.getByRole('combobox', { name: lang === 'az' ? 'Xidmət növü' : 'Service type' }).selectOption(wanted.group);
      await page.getByRole('checkbox', { name: lang === 'az' ? 'Ləğv oluna bilənlər' : 'Can be cancelled' }).check();
      await page.getByRole('button', { name: lang === 'az' ? 'Göstər' : 'Show' }).click();
      await page.waitForURL((url) => url.searchParams.get('platform') === wanted.platform && url.searchParams.get('cancel') === '1');
      const expected = services.filter((s) => s.platform === wanted.platform && s.group === wanted.group && s.cancel).map((s) => s.id);
      await expect.poll(() => page.locator('tr[data-service]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-service')))).toEqual(expected);
      expect(await page.locator('section[data-platform] h2').first().innerText()).toContain(platformDisplayName(wanted.platform));

      // The row's price is the rate orders are charged by; its link opens the order form with it chosen.
      const row = page.locator(`tr[data-service="${wanted.id}"]`);
      const shown = pricePerUnitDisplay({ tiers: wanted.tiers, amountMinimum: wanted.min, amountIncrement: wanted.step, type: wanted.group === 'other' ? wanted.type : wanted.group, name: '' }, fees)!;
      expect(await row.locator('[data-price]').getAttribute('data-price')).toBe(shown.usd);
      await row.getByRole('link', { name: wanted.name, exact: true }).click();
      await page.waitForURL((url) => url.pathname === `/${lang}/order` && url.searchParams.get('platform') === wanted.platform);
      await hydrated(page);
      await expect.poll(() => page.locator('#order-service').inputValue()).toBe(wanted.id);
      await expect.poll(() => page.getByTestId('unit-price').innerText()).toBe(formatMoneyDecimal(shown.usd, 'USD', lang));
      expect(await page.locator('#order-quantity').inputValue()).toBe(String(wanted.min));
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it('comes with its first rows and brings the rest in parts once painted; without a script, each part is a page of its own', async () => {
    const { services } = await catalogue('tr');
    expect(services.length).toBeGreaterThan(PRICE_LIST_FIRST_ROWS + PRICE_LIST_PART_ROWS);
    const { page, problems } = await openPage(browser, PHONE);
    const rest = page.waitForRequest((req) => new URL(req.url()).searchParams.get('from') === String(PRICE_LIST_FIRST_ROWS));
    await page.goto('/tr/prices', { waitUntil: 'commit' });
    await rest;
    await hydrated(page);
    // The whole list in the catalogue's order by platform and type, as the service list gives it.
    expect(await page.locator('tr[data-service]').count()).toBe(services.length);
    // Asked for after the first paint; one heading per platform, no id twice.
    const { paint, asked, headings, platforms, ids } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
      asked: performance.getEntriesByType('resource').find((e) => e.name.includes('from='))!.startTime,
      headings: document.querySelectorAll('section[data-platform] > h2').length,
      platforms: new Set([...document.querySelectorAll('section[data-platform]')].map((s) => s.getAttribute('data-platform'))).size,
      ids: [...document.querySelectorAll('[id]')].map((el) => el.id),
    }));
    expect(asked).toBeGreaterThan(paint);
    expect(headings).toBe(platforms);
    expect(new Set(ids).size).toBe(ids.length);
    // A row of the rest looks like a row of the first part, and the page is no wider than the phone.
    const looks = (index: number) =>
      page.locator('tr[data-service]').nth(index).evaluate((tr) => [...tr.querySelectorAll('td')].map((td) => { const s = getComputedStyle(td); return `${s.display} ${s.paddingLeft} ${s.paddingTop} ${s.verticalAlign}`; }).join('|'));
    expect(await looks(services.length - 1)).toBe(await looks(0));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(problems).toEqual([]);
    await page.context().close();

    // Without scripts: the link leads to the next part, which links to the one after it, and back.
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE, baseURL: baseUrl(), extraHTTPHeaders: visitorHeaders() });
    const plain = await context.newPage();
    await plain.goto('/tr/prices');
    expect(await plain.locator('tr[data-service]').count()).toBe(PRICE_LIST_FIRST_ROWS);
    await plain.getByRole('link', { name: `Daha fazla hizmet göster (${services.length - PRICE_LIST_FIRST_ROWS} kaldı)` }).click();
    await plain.waitForURL((url) => url.searchParams.get('from') === String(PRICE_LIST_FIRST_ROWS));
    expect(await plain.locator('tr[data-service]').count()).toBe(PRICE_LIST_PART_ROWS);
    const after = services.length - PRICE_LIST_FIRST_ROWS - PRICE_LIST_PART_ROWS;
    expect(await plain.getByRole('link', { name: `Daha fazla hizmet göster (${after} kaldı)` }).getAttribute('href')).toBe(`/tr/prices?from=${PRICE_LIST_FIRST_ROWS + PRICE_LIST_PART_ROWS}`);
    await plain.getByRole('link', { name: 'Listenin başına dön' }).click();
    await plain.waitForURL(`${baseUrl()}/tr/prices`);
    expect(await plain.locator('tr[data-service]').count()).toBe(PRICE_LIST_FIRST_ROWS);
    await context.close();
  });
});
