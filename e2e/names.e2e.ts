import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceDetail, ServiceList } from '../src/core/contracts/catalog';
import { OTHER_PLATFORM } from '../src/core/platforms';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, openPage, PHONE } from './browser';
import { signUpWithBalance, unique } from './customers';


async function catalogue(lang: string): Promise<ServiceList> {
  return (await (await fetch(`${baseUrl()}/api/catalog/services?lang=${lang}`)).json()) as ServiceList;
}

/** English words of provider names that a fresh shop's az and tr names no longer show. */
const ENGLISH = /\b(Followers|Likes|Views|Comments|Shares|Subscribers|Members|Reviews|Plays|Traffic|Quality|Refill|Users|Drop)\b/i;

/** Signs a new customer up in this context and gives them `micros` through the admin API. */
const customerWithBalance = (browser: Browser, context: BrowserContext, micros: number) =>
  signUpWithBalance(browser, context, { name: 'Elif Yılmaz', email: `names-${unique()}@example.com`, password: 'Names-pass1!', micros });

describe.skipIf(!hasChromium())('service names and the Other platform on a fresh shop', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('az, phone: provider services read in Azerbaijani, with a description made from their facts before the provider’s own', async () => {
    const en = await catalogue('en');
    const az = await catalogue('az');
    const instagram = az.services.filter((s) => s.platform === 'instagram');
    expect(instagram.length).toBeGreaterThan(0);
    for (const s of az.services) expect(s.name, en.services.find((x) => x.id === s.id)?.name).not.toMatch(ENGLISH);
    const followers = instagram.find((s) => s.group === 'followers')!;
    expect(followers.name).toMatch(/^Instagram izləyiciləri\b/);
    // A follower service without a description of its own, if the provider left one without.
    const details = await Promise.all(
      instagram.filter((s) => s.group === 'followers').map(async (s) => (await (await fetch(`${baseUrl()}/api/catalog/services/${s.id}?lang=az`)).json()) as ServiceDetail),
    );
    const bare = details.find((d) => !d.description);

    const { page, problems } = await openPage(browser, PHONE);
    await page.goto('/az/order?platform=instagram');
    await hydrated(page);
    await page.getByRole('button', { name: /^İzləyicilər/ }).click();
    await page.waitForFunction(() => [...(document.querySelector<HTMLSelectElement>('#order-service')?.options ?? [])].some((o) => o.text.startsWith('Instagram izləyiciləri')));
    const options = await page.locator('#order-service option').allTextContents();
    expect(options.some((o) => o.startsWith('Instagram izləyiciləri'))).toBe(true);
    for (const o of options) expect(o).not.toMatch(ENGLISH);
    const chosen = bare ?? details[0]!;
    await page.locator('#order-service').selectOption(chosen.id);
    await page.locator('#service-info-title').filter({ hasText: chosen.name }).waitFor();
    // In Azerbaijani the description made from the service's facts comes first, the provider's own (English) below it.
    const description = page.locator('[data-description="generated"]');
    await description.waitFor();
    const text = await description.innerText();
    expect(text).toContain('Instagram izləyiciləri — göstərdiyiniz linkə çatdırılır.');
    expect(text).toMatch(/Sifariş miqdarı: minimum [\d.]+, maksimum [\d.]+\./);
    if (bare) expect(await page.locator('[data-description="own"]').count()).toBe(0);
    else await page.getByRole('heading', { name: 'Provayderin təsviri (orijinal)' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('tr, desktop: "Diğer" is last in the header menu, lists the services without a platform, finds them by search, and orders one', async () => {
    const tr = await catalogue('tr');
    const others = tr.services.filter((s) => s.platform === OTHER_PLATFORM);
    expect(others.length).toBeGreaterThan(0);
    expect(tr.services.filter((s) => !s.platform)).toEqual([]);
    const plays = others.find((s) => /^Spotify/.test(s.name) && !s.hasParams) ?? others.find((s) => !s.hasParams)!;

    const { page, problems } = await openPage(browser, DESKTOP);
    await customerWithBalance(browser, page.context(), 50_000_000);
    await page.goto('/tr/about');
    await hydrated(page);
    const button = page.getByRole('button', { name: 'Sosyal medya' });
    await button.click();
    const menu = page.getByRole('menu', { name: 'Sosyal medya' });
    await menu.getByRole('menuitem').first().waitFor();
    const entries = await menu.getByRole('menuitem').allTextContents();
    expect(entries.length).toBeLessThanOrEqual(12);
    expect(entries.slice(0, 4)).toEqual(['Instagram', 'TikTok', 'YouTube', 'Facebook']);
    expect(entries.at(-1)).toBe('Diğer');
    // From the keyboard: End reaches it, Enter opens its order page.
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'menuitem');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Diğer');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/tr/order' && url.searchParams.get('platform') === OTHER_PLATFORM);
    // The heading names the platform of the address from the first paint; its button once the list is in.
    await page.getByRole('heading', { level: 1, name: 'Diğer hizmetler' }).waitFor();
    await page.getByRole('button', { name: 'Diğer', pressed: true }).waitFor();
    await page.waitForFunction((p) => {
      const s = document.querySelector<HTMLSelectElement>('#order-service');
      return s?.dataset.platform === p && s.options.length > 1;
    }, OTHER_PLATFORM);

    // The search finds it among every type of the platform; choosing it picks it.
    await page.getByLabel('Ara').fill(`#${plays.id}`);
    await page.locator(`[data-service-hit="${plays.id}"]`).click();
    expect(await page.locator('#order-service').inputValue()).toBe(plays.id);
    await page.locator('#service-info-title').filter({ hasText: plays.name }).waitFor();
    await page.getByLabel(/^Bağlantı/).fill(`https://open.spotify.com/track/${unique()}`);
    await page.getByRole('button', { name: 'Hemen Al' }).click();
    await page.waitForURL((url) => url.pathname === '/tr/dashboard');
    // The choices travel in the history's state: the form's once the page is live.
    await hydrated(page);
    expect(await page.locator('#order-service').inputValue()).toBe(plays.id);
    // Its platform follows the chosen service once the dashboard's list is in.
    await page.getByRole('button', { name: 'Diğer', pressed: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Diğer', pressed: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Satın al', exact: true }).click();
    await page.getByText('Sipariş başarıyla verildi!').first().waitFor();
    const mine = (await (await page.context().request.get('/api/orders')).json()) as { orders: { serviceId: string; platform: string }[] };
    expect(mine.orders.find((o) => o.serviceId === plays.id)?.platform).toBe(OTHER_PLATFORM);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
