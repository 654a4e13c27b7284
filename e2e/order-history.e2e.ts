import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceList } from '../src/core/contracts/catalog';
import type { OrderView } from '../src/core/contracts/orders';
import { formatNumber } from '../src/web/lib/format';
import { baseUrl, hasChromium, hydrated, launch, openPage, PHONE } from './browser';
import { signUpWithBalance, unique } from './customers';


const customerWithBalance = (browser: Browser, context: BrowserContext, micros: number) =>
  signUpWithBalance(browser, context, { name: 'Aynur Məmmədova', email: `history-${unique()}@example.com`, password: 'History-pass1!', micros });

async function placeByApi(context: BrowserContext, body: Record<string, unknown>): Promise<OrderView> {
  const res = await context.request.post('/api/orders', { headers: { Origin: baseUrl() }, data: { params: {}, idempotencyKey: `journey-${unique()}`, ...body } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as OrderView;
}

/** Serious and critical contrast problems axe finds inside `selector`. */
async function contrastProblems(page: Page, selector: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include(selector).withRules(['color-contrast']).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const selectedTab = (page: Page, list: string) => page.locator(`[role="tablist"][aria-label="${list}"] [role="tab"][aria-selected="true"]`).textContent();

/**
 * The order history a customer can find orders in: tabs by status and a search kept in the
 * address, whole links, a tracking link per order; the dashboard's tabs and form on a phone; the
 * drip-feed's price; the service facts and notifications readable. (A mass order of a service whose
 * extra fields are all optional: src/web/features/dashboard/massOrder.test.ts and the server's test.)
 */
describe.skipIf(!hasChromium())('order history', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('on a phone: the new-order form starts in the first screen and every dashboard tab is in view, chosen by keyboard', async () => {
    const { page, problems } = await openPage(browser, PHONE);
    await customerWithBalance(browser, page.context(), 10_000_000);
    await page.goto('/az/dashboard');
    await hydrated(page);
    const form = page.getByRole('form', { name: 'Yeni sifariş' });
    await form.waitFor();
    const formTop = (await form.boundingBox())!.y;
    expect(formTop).toBeLessThan(PHONE.height - 120);
    // The tab bar fits: no sideways scroll anywhere, every tab inside the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const tablist = page.getByRole('tablist', { name: 'İdarə paneli bölmələri' });
    expect(await tablist.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const tabs = tablist.getByRole('tab');
    expect(await tabs.count()).toBe(7);
    for (const box of await Promise.all((await tabs.all()).map((tab) => tab.boundingBox()))) {
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    }
    // Keyboard: the selected tab takes the focus, arrows move the choice.
    await tablist.getByRole('tab', { selected: true }).focus();
    await page.keyboard.press('End');
    await tablist.getByRole('tab', { name: 'Parametrlər', selected: true }).waitFor();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await tablist.getByRole('tab', { name: 'Toplu sifariş', selected: true }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('finds orders by tab and search kept in the address, shows whole links, tracks one, and follows a hash change', async () => {
    const { services } = (await (await fetch(`${baseUrl()}/api/catalog/services?lang=en`)).json()) as ServiceList;
    const plain = services.find((s) => s.platform === 'youtube' && !s.hasParams && !s.dripfeed && s.tiers.length > 0)!;
    const drip = services.find((s) => s.dripfeed && !s.hasParams && s.platform === 'instagram') ?? services.find((s) => s.dripfeed && !s.hasParams)!;
    expect(plain && drip).toBeTruthy();

    const { page, problems } = await openPage(browser);
    await customerWithBalance(browser, page.context(), 1_000_000_000);
    const token = unique();
    const longLink = `https://www.youtube.com/watch?v=${token}&list=PLartimJourneyWithAVeryLongPlaylistName${token}&index=12`;
    const first = await placeByApi(page.context(), { serviceId: plain.id, link: longLink, quantity: plain.min });
    const other = await placeByApi(page.context(), { serviceId: plain.id, link: `https://www.youtube.com/watch?v=other${token}`, quantity: plain.min });

    // The drip-feed's price: runs × quantity = the quantity of all runs, beside the total of all runs.
    await page.goto('/en/dashboard');
    await hydrated(page);
    await page.getByRole('tab', { name: 'New order', selected: true }).waitFor();
    await page.goto(`/en/order?platform=${drip.platform}`);
    await hydrated(page);
    const groups: Record<string, string> = { likes: 'Likes', followers: 'Followers', views: 'Views', shares: 'Shares', comments: 'Comments', other: 'Other' };
    await page.getByRole('button', { name: new RegExp(`^${groups[drip.group] ?? 'Other'}`) }).click();
    await page.waitForFunction((id) => [...(document.querySelector<HTMLSelectElement>('#order-service')?.options ?? [])].some((o) => o.value === id), drip.id);
    await page.locator('#order-service').selectOption(drip.id);
    // The service's facts read at AA contrast on the order page.
    await page.locator('section[aria-labelledby="service-info-title"]').waitFor();
    expect(await contrastProblems(page, 'section[aria-labelledby="service-info-title"]')).toEqual([]);
    await page.getByLabel('Drip-feed').check();
    await page.getByLabel('Runs', { exact: true }).fill('3');
    await page.getByLabel(/^Quantity/).fill(String(drip.min));
    await page.getByTestId('total-quantity').filter({ hasText: `3 × ${formatNumber(drip.min, 'en-US')} = ${formatNumber(3 * drip.min, 'en-US')}` }).waitFor();
    await page.getByText('for 3 runs').waitFor();

    // Order history: a hash change made after the page opened chooses the tab.
    await page.goto('/en/dashboard');
    await hydrated(page);
    await page.getByRole('tab', { name: 'New order', selected: true }).waitFor();
    await page.evaluate(() => (window.location.hash = 'payments'));
    await page.getByRole('tab', { name: 'Payments', selected: true }).waitFor();
    await page.evaluate(() => (window.location.hash = 'history'));
    await page.getByRole('tab', { name: 'Order history', selected: true }).waitFor();

    const row = (number: string) => page.locator(`[data-order="${number}"]`).locator('visible=true');
    await row(first.number).waitFor();
    await row(other.number).waitFor();
    // The whole link, wrapped inside its cell.
    const link = row(first.number).getByTestId('order-link');
    expect((await link.textContent())!.trim()).toBe(longLink);
    const [cell, anchor] = await Promise.all([row(first.number).locator('td').nth(2).boundingBox(), link.boundingBox()]);
    expect(anchor!.x + anchor!.width).toBeLessThanOrEqual(cell!.x + cell!.width + 1);

    // Tabs and search in the address; a reload opens the same list.
    await page.getByRole('tablist', { name: 'Order statuses' }).getByRole('tab', { name: 'Failed' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'failed' && url.hash === '#history');
    await page.getByText('No matching orders').waitFor();
    await page.getByRole('tablist', { name: 'Order statuses' }).getByRole('tab', { name: 'Active' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'active');
    await row(first.number).waitFor();
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(`PLartimJourney`);
    await page.waitForURL((url) => url.searchParams.get('q') === 'PLartimJourney');
    await expect.poll(() => row(other.number).count()).toBe(0);
    await row(first.number).waitFor();
    await page.reload();
    await hydrated(page);
    await page.getByRole('tab', { name: 'Order history', selected: true }).waitFor();
    expect(await selectedTab(page, 'Order statuses')).toBe('Active');
    expect(await page.getByRole('searchbox', { name: 'Search orders' }).inputValue()).toBe('PLartimJourney');
    await row(first.number).waitFor();
    expect(await row(other.number).count()).toBe(0);
    // By number, any case.
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(other.number.toLowerCase());
    await row(other.number).waitFor();
    await expect.poll(() => row(first.number).count()).toBe(0);

    // Each order links to its tracking page; the footer links to tracking too.
    expect(await page.locator('footer a[href="/track"]').count()).toBe(1);
    await row(other.number).getByRole('link', { name: `Track order ${other.number}` }).click();
    await page.waitForURL((url) => url.pathname === '/track' && url.searchParams.get('order') === other.number);
    await page.getByText(other.number).first().waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('a success notification reads at AA contrast', async () => {
    const { services } = (await (await fetch(`${baseUrl()}/api/catalog/services?lang=en`)).json()) as ServiceList;
    const plain = services.find((s) => s.platform === 'tiktok' && !s.hasParams && s.tiers.length > 0)!;
    const { page, problems } = await openPage(browser);
    await customerWithBalance(browser, page.context(), 1_000_000_000);
    await page.goto('/en/dashboard#mass');
    await hydrated(page);
    await page.getByRole('tab', { name: 'Mass order', selected: true }).waitFor();
    await page.locator('#mass-text').fill(`${plain.id}|https://www.tiktok.com/@mass${unique()}|${plain.min}`);
    await page.locator('[data-testid="mass-preview"] [data-line="1"][data-ok="true"]').waitFor();
    await page.getByTestId('mass-valid').filter({ hasText: '1 / 1' }).waitFor();
    await page.getByTestId('mass-place').click();
    await page.getByTestId('mass-confirm').click();
    await page.getByTestId('mass-result').waitFor();
    // The notification the placed orders raise, checked while it shows.
    const toast = page.locator('[data-sonner-toast][data-type="success"]').first();
    await toast.waitFor();
    expect(await contrastProblems(page, '[data-sonner-toast][data-type="success"]')).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 180_000);
});
