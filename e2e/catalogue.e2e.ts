import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicService, ServiceDetail, ServiceList } from '../src/core/contracts/catalog';
import { quantityBounds } from '../src/core/orderRules';
import { OTHER_PLATFORM, platformDisplayName, PRIORITY_PLATFORMS } from '../src/core/platforms';
import { priceOrder } from '../src/core/pricing';
import { formatMoney, formatNumber } from '../src/web/lib/format';
import { baseUrl, hasChromium, hydrated, launch, openPage, PHONE } from './browser';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const usd = (micros: number) => formatMoney(micros, 'USD', 'en');

async function catalogue(lang = 'en'): Promise<ServiceList> {
  return (await (await fetch(`${baseUrl()}/api/catalog/services?lang=${lang}`)).json()) as ServiceList;
}

/** The service select, once it lists the services of `platform`. */
async function serviceSelectFor(page: Page, platform: string) {
  await page.waitForFunction((p) => {
    const s = document.querySelector<HTMLSelectElement>('#order-service');
    return s?.dataset.platform === p && s.options.length > 1;
  }, platform);
  return page.locator('#order-service');
}

const expectedTotal = (service: PublicService, quantity: number, fees: ServiceList['fees']) => usd(priceOrder(service.tiers, quantity, fees).micros);

describe.skipIf(!hasChromium())('order catalogue', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('server-renders the home grid with the platforms, each linking to its order page', async () => {
    const { platforms } = (await (await fetch(`${baseUrl()}/api/catalog/platforms`)).json()) as { platforms: string[] };
    expect(platforms.length).toBeGreaterThan(0);
    const html = await (await fetch(`${baseUrl()}/en`)).text();
    for (const p of platforms) expect(html).toContain(`href="/en/order?platform=${p}"`);
  });

  it('header dropdown lists the platforms in the spec order, works from the keyboard and leads to the order page', async () => {
    const { services } = await catalogue();
    const named = [...new Set(services.map((s) => s.platform.trim().toLowerCase()).filter((p) => p && p !== OTHER_PLATFORM))];
    const rest = named.filter((p) => !(PRIORITY_PLATFORMS as readonly string[]).includes(p)).sort();
    // Services without a platform come last, as "Other".
    const other = services.some((s) => s.platform === OTHER_PLATFORM) ? [OTHER_PLATFORM] : [];
    const expected = [...PRIORITY_PLATFORMS.filter((p) => named.includes(p)), ...rest, ...other].slice(0, 12);

    const { page, problems } = await openPage(browser);
    await page.goto('/en/about');
    await hydrated(page);
    const button = page.getByRole('button', { name: 'Social media' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const menu = page.getByRole('menu', { name: 'Social media' });
    await menu.getByRole('menuitem').first().waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(expected.map(platformDisplayName));

    // Keyboard: the first entry has focus; ArrowDown moves on; Escape closes and returns focus.
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'menuitem');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(platformDisplayName(expected[1]!));
    await page.keyboard.press('Escape');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-haspopup'))).toBe('menu');

    await button.click();
    const target = expected[2]!;
    await menu.getByRole('menuitem', { name: platformDisplayName(target) }).click();
    await page.waitForURL((url) => url.pathname === '/en/order' && url.searchParams.get('platform') === target);
    await serviceSelectFor(page, target);
    expect(await page.getByRole('button', { name: platformDisplayName(target), pressed: true }).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('guest: platform → type → service, price follows the quantity, link and quantity messages, Buy Now asks to sign in', async () => {
    const { services, fees } = await catalogue();
    const { page, problems } = await openPage(browser);
    await page.goto('/en/order?platform=instagram');
    await hydrated(page);
    await serviceSelectFor(page, 'instagram');

    // Another platform from the selector: the address and the list follow.
    await page.getByRole('button', { name: 'TikTok', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('platform') === 'tiktok');
    const select = await serviceSelectFor(page, 'tiktok');

    // A type group: the select lists exactly that group's TikTok services.
    const likes = services.filter((s) => s.platform === 'tiktok' && s.group === 'likes');
    expect(likes.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: /^Likes/ }).click();
    await page.waitForFunction((n) => document.querySelector<HTMLSelectElement>('#order-service')!.options.length === n + 1, likes.length);
    const listed = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(listed.sort()).toEqual(likes.map((s) => s.id).sort());

    // The search narrows the select.
    const service = likes.find((s) => s.max > s.min + s.step) ?? likes[0]!;
    await page.getByLabel('Search').fill(`#${service.id}`);
    await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('#order-service')!.options.length === 2);
    await select.selectOption(service.id);
    await page.getByRole('heading', { name: service.name }).waitFor();

    // Price per 1000 and total follow the quantity, with the same rule the server charges by.
    const { min, max, step } = quantityBounds({ amountMinimum: service.min, amountIncrement: service.step, tiers: service.tiers });
    const total = page.getByTestId('total-price');
    const quantity = page.getByLabel(/^Quantity/);
    expect(await quantity.inputValue()).toBe(String(min));
    await page.waitForFunction((t) => document.querySelector('[data-testid="total-price"]')?.textContent === t, expectedTotal(service, min, fees));
    const larger = min + step * Math.floor((max - min) / step);
    await quantity.fill(String(larger));
    await page.waitForFunction((t) => document.querySelector('[data-testid="total-price"]')?.textContent === t, expectedTotal(service, larger, fees));
    expect(await total.textContent()).not.toBe(expectedTotal(service, min, fees));

    // Messages from the shared rules' codes.
    await quantity.fill(String(max + step));
    await quantity.blur();
    // The bounds are written in the page's number format, as the field's hint writes them.
    const [lo, hi, by] = [min, max, step].map((n) => formatNumber(n, 'en-US'));
    const quantityMessage = step > 1 ? `Quantity must be between ${lo} and ${hi}, in steps of ${by}` : `Quantity must be between ${lo} and ${hi}`;
    await page.getByText(quantityMessage).waitFor();
    expect(await quantity.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => total.textContent()).toBe('—');

    const link = page.getByLabel(/^Link/);
    await link.fill('https://www.instagram.com/p/abc/');
    await link.blur();
    await page.getByText('Enter a valid TikTok link, for example https://tiktok.com/@username').waitFor();
    await link.fill('https://www.tiktok.com/@artim/video/1');
    await page.getByText('Enter a valid TikTok link', { exact: false }).waitFor({ state: 'detached' });

    // A guest gets the sign-in dialog; the page stays put.
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await page.getByTestId('auth-dialog').waitFor();
    expect(new URL(page.url()).pathname).toBe('/en/order');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('signed in: required params are asked for; Buy Now opens the dashboard orders tab carrying the chosen service', async () => {
    const { services } = await catalogue();
    const withParams = services.find((s) => s.platform === 'instagram' && s.group === 'comments' && s.hasParams)!;
    const detail = (await (await fetch(`${baseUrl()}/api/catalog/services/${withParams.id}?lang=en`)).json()) as ServiceDetail;
    const required = detail.params.find((p) => p.required)!;
    const service = services.find((s) => s.platform === 'instagram' && s.group === 'views' && !s.hasParams)!;
    expect(required).toBeDefined();
    expect(service).toBeDefined();

    const { page, problems } = await openPage(browser, PHONE);
    const signUp = await page.context().request.post('/api/auth/sign-up/email', {
      headers: { Origin: baseUrl() },
      data: { name: 'Orxan Quliyev', email: `buyer-${unique()}@example.com`, password: 'Buyer-pass1!' },
    });
    expect(signUp.status()).toBe(200);

    await page.goto('/en/order?platform=instagram');
    await hydrated(page);
    await page.getByRole('button', { name: /^Comments/ }).click();
    const select = await serviceSelectFor(page, 'instagram');
    await select.selectOption(withParams.id);
    // Whether an order of it can be refilled and cancelled is said beside the service, in words.
    const abilities = page.locator('[data-ability]');
    await expect.poll(() => abilities.allTextContents()).toEqual([
      expect.stringMatching(withParams.refill ? /^Refill:\s*(\d+ days?|lifetime|available)$/ : /^Refill:\s*not available$/),
      expect.stringMatching(withParams.cancel ? /^Cancel:\s*while the order runs$/ : /^Cancel:\s*not available$/),
    ]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // Buy Now with a missing link is refused on the spot, focus on the link.
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await page.getByText('Enter the link').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('order-link');
    // …brought into view below the sticky header, not under it.
    await expect.poll(() => page.locator('#order-link').evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeGreaterThanOrEqual(64);
    await page.getByLabel(/^Link/).fill('https://www.instagram.com/p/C8xYz12AbCd/');
    await page.getByText('Enter the link').waitFor({ state: 'detached' });
    // The service's required param, starred, with its own message (or one naming it).
    await page.getByText(required.requiredMessage ?? `${required.fieldLabel || required.fieldName} is required`).waitFor();
    expect(await page.locator(`#order-param-${required.fieldName}`).getAttribute('aria-required')).toBe('true');

    // Another type and a service without params; the link stays.
    await page.getByRole('button', { name: /^Views/ }).click();
    await select.selectOption(service.id);
    // The order page is a page of islands: the dashboard loads from the server, with the order in
    // the history entry's state, where the app's router reads it.
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await page.waitForURL((url) => url.pathname === '/en/dashboard');
    expect(new URL(page.url()).hash).toBe('#orders');
    await hydrated(page);
    expect(await page.locator('#order-link').inputValue()).toBe('https://www.instagram.com/p/C8xYz12AbCd/');
    const carried = await page.evaluate(() => (history.state as { usr?: Record<string, unknown> } | null)?.usr);
    expect(carried).toEqual({
      tab: 'orders',
      serviceId: service.id,
      platform: 'instagram',
      link: 'https://www.instagram.com/p/C8xYz12AbCd/',
      quantity: service.min,
      params: {},
    });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('az: the search finds a service of another type by ID from the Likes tab; picking it switches type and the form asks in Azerbaijani', async () => {
    const { services } = await catalogue('az');
    const target = services.find((s) => s.platform === 'instagram' && s.group === 'comments' && s.hasParams)!;
    expect(target).toBeDefined();
    const detail = (await (await fetch(`${baseUrl()}/api/catalog/services/${target.id}?lang=az`)).json()) as ServiceDetail;
    expect(detail.params.map((p) => p.fieldLabel)).toContain('Şərhlər');

    const { page, problems } = await openPage(browser);
    await page.goto('/az/order?platform=instagram');
    await hydrated(page);
    await page.getByRole('button', { name: /^Bəyənmələr/ }).click();
    const select = await serviceSelectFor(page, 'instagram');
    expect(await select.locator(`option[value="${target.id}"]`).count()).toBe(0);

    // The search looks through every type and names the type of each hit.
    await page.getByLabel('Axtarış').fill(target.id);
    await select.locator(`optgroup[label="Şərhlər"] option[value="${target.id}"]`).waitFor({ state: 'attached' });
    await page.getByText(/bütün növlərdə uyğundur/).waitFor();
    const hit = page.locator(`[data-service-hit="${target.id}"]`);
    expect(await hit.textContent()).toContain('Şərhlər');
    await hit.click();

    // Picking it switches to its type; the form shows the service and its params in Azerbaijani.
    await page.getByRole('button', { name: /^Şərhlər/, pressed: true }).waitFor();
    await page.getByRole('heading', { name: target.name }).waitFor();
    expect(await select.inputValue()).toBe(target.id);
    await page.locator('#order-param-comments').waitFor();
    expect(await page.getByLabel(/^Şərhlər/).getAttribute('id')).toBe('order-param-comments');
    expect(await page.locator('section[aria-labelledby="step-details"]').textContent()).not.toMatch(/Comments|one per line|One comment/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the failure message and a retry button when the list cannot be loaded', async () => {
    const { page } = await openPage(browser);
    let fail = true;
    await page.route('**/api/catalog/services?*', (route) => (fail ? route.fulfill({ status: 503, body: '{}' }) : route.continue()));
    // The page came without its list, as when the server could not read it (docs/decisions/0033): the form asks for it.
    await page.route('**/az/order?platform=instagram', async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(/(<script type="application\/json" id="artim-boot">)([\s\S]*?)(<\/script>)/, (_, open: string, json: string, close: string) => {
        const { answers: _answers, ...boot } = JSON.parse(json) as Record<string, unknown>;
        return `${open}${JSON.stringify(boot).replace(/</g, '\\u003c')}${close}`;
      });
      await route.fulfill({ response, body: html });
    });
    await page.goto('/az/order?platform=instagram');
    await hydrated(page);
    await page.getByText('Xidmətlər yüklənmədi').waitFor();
    fail = false;
    await page.getByRole('button', { name: 'Yenidən cəhd edin' }).click();
    await serviceSelectFor(page, 'instagram');
    await page.context().close();
  });
});
