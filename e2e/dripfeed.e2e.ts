import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceList } from '../src/core/contracts/catalog';
import { priceOrder } from '../src/core/pricing';
import { formatMoney } from '../src/web/lib/format';
import { baseUrl, hasChromium, hydrated, launch, openPage } from './browser';
import { signUpWithBalance, unique } from './customers';

const usd = (micros: number) => formatMoney(micros, 'USD', 'en');

const customerWithBalance = (browser: Browser, context: BrowserContext, micros: number) =>
  signUpWithBalance(browser, context, { name: 'Səbinə Quliyeva', email: `drip-${unique()}@example.com`, password: 'Drip-pass1!', micros });

/**
 * A drip-feed order of 3 runs: the form offers runs and interval only for a drip-feed service,
 * charges the whole once, and the history shows its runs sent — to the sandbox provider, which
 * drip-feeds the service itself, as one drip-feed order (an interval minute lasts a second in the
 * journeys: DRIP_FEED_MINUTE_MS in e2e/global-setup.ts).
 */
describe.skipIf(!hasChromium())('drip-feed', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('orders 3 runs of a drip-feed service, charged once, and shows them sent', async () => {
    const { services, fees } = (await (await fetch(`${baseUrl()}/api/catalog/services?lang=en`)).json()) as ServiceList;
    const service = services.find((s) => s.dripfeed && !s.hasParams && s.platform === 'instagram') ?? services.find((s) => s.dripfeed && !s.hasParams)!;
    expect(service).toBeDefined();
    const perRun = priceOrder(service.tiers, service.min, fees).micros;

    const { page, problems } = await openPage(browser);
    await customerWithBalance(browser, page.context(), 1_000_000_000);
    await page.goto(`/en/order?platform=${service.platform}`);
    await hydrated(page);
    const groups: Record<string, string> = { likes: 'Likes', followers: 'Followers', views: 'Views', shares: 'Shares', comments: 'Comments', other: 'Other' };
    await page.getByRole('button', { name: new RegExp(`^${groups[service.group] ?? 'Other'}`) }).click();
    await page.waitForFunction((id) => [...(document.querySelector<HTMLSelectElement>('#order-service')?.options ?? [])].some((o) => o.value === id), service.id);
    await page.locator('#order-service').selectOption(service.id);
    await page.getByLabel(/^Link/).fill(`https://www.${service.platform}.com/drip${unique()}`);
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await page.waitForURL((url) => url.pathname === '/en/dashboard');
    await page.getByRole('tab', { name: 'New order', selected: true }).waitFor();

    await page.getByLabel('Drip-feed').check();
    await page.getByLabel('Runs', { exact: true }).fill('3');
    await page.getByLabel('Interval (minutes)').fill('1');
    await page.getByTestId('order-total').filter({ hasText: usd(3 * perRun) }).waitFor();
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByText('Your order was placed successfully!').waitFor();
    // Charged once, for all three runs.
    await page.getByTestId('balance').filter({ hasText: usd(1_000_000_000 - 3 * perRun) }).waitFor();

    await page.getByRole('tab', { name: 'Order history', selected: true }).waitFor();
    const runs = page.getByTestId('drip-runs').locator('visible=true').first();
    await expect.poll(() => runs.textContent(), { timeout: 180_000 }).toContain('3 of 3 runs sent');
    expect(await page.getByTestId('balance').textContent()).toContain(usd(1_000_000_000 - 3 * perRun));
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);
});
