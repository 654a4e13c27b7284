import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceList } from '../src/core/contracts/catalog';
import { priceOrder } from '../src/core/pricing';
import { formatMoney, formatNumber } from '../src/web/lib/format';
import { E2E_ADMIN } from './app-process';
import { baseUrl, hasChromium, hydrated, launch, openPage, PHONE } from './browser';
import { signUpWithBalance, unique } from './customers';

const usd = (micros: number) => formatMoney(micros, 'USD', 'en');

/** Signs a new customer up in this context and gives them `micros` (USD micro-dollars) through the admin API. */
const customerWithBalance = (browser: Browser, context: BrowserContext, name: string, micros: number) =>
  signUpWithBalance(browser, context, { name, email: `orders-${unique()}@example.com`, password: 'Orders-pass1!', micros });

/** Serious and critical accessibility problems axe finds on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const counter = (page: Page, key: string) => page.getByTestId(`counter-${key}`).locator('[data-value]').getAttribute('data-value');
const waitCounter = (page: Page, key: string, value: number, timeout = 10_000) =>
  page.waitForFunction(
    ([k, v]) => document.querySelector(`[data-testid="counter-${k}"] [data-value]`)?.getAttribute('data-value') === String(v),
    [key, value] as const,
    { timeout },
  );
/** The status badge of one order in the history (the table on wide screens, the cards on phones). */
const badge = (page: Page, number: string) => page.locator(`[data-order="${number}"] [data-status]`).locator('visible=true');

describe.skipIf(!hasChromium())('orders', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the total on an open dashboard follows the fees live, and a price that changed between view and Buy is refused with the new one', async () => {
    const admin = await browser.newContext({ baseURL: baseUrl() });
    expect((await admin.request.post('/api/auth/sign-in/email', { headers: { Origin: baseUrl() }, data: E2E_ADMIN })).status()).toBe(200);
    const saved = (await (await admin.request.get('/api/admin/settings')).json()) as { service_fee: number; base_fee: number };
    const setFees = async (service_fee: number, base_fee: number) =>
      expect((await admin.request.put('/api/admin/settings', { headers: { Origin: baseUrl() }, data: { service_fee, base_fee } })).status()).toBe(200);
    try {
      const { services } = (await (await fetch(`${baseUrl()}/api/catalog/services?lang=en`)).json()) as ServiceList;
      const service = services.find((s) => s.platform === 'instagram' && s.group === 'views' && !s.hasParams)!;
      const priceAt = (serviceFeePercent: number, baseFee: number) => priceOrder(service.tiers, service.min, { serviceFeePercent, baseFee }).micros;

      const { page, problems } = await openPage(browser);
      await customerWithBalance(browser, page.context(), 'Rəşad Quliyev', 50_000_000);
      await page.goto('/en/order?platform=instagram');
      await hydrated(page);
      await page.getByRole('button', { name: /^Views/ }).click();
      await page.waitForFunction(() => (document.querySelector<HTMLSelectElement>('#order-service')?.options.length ?? 0) > 1);
      await page.locator('#order-service').selectOption(service.id);
      await page.getByLabel(/^Link/).fill(`https://www.instagram.com/p/fees${unique()}/`);
      await page.getByRole('button', { name: 'Buy Now' }).click();
      await page.waitForURL((url) => url.pathname === '/en/dashboard');
      await page.getByTestId('order-total').filter({ hasText: usd(priceAt(saved.service_fee, saved.base_fee)) }).waitFor();
      await page.evaluate(() => ((window as unknown as { journeyMarker: boolean }).journeyMarker = true));

      // The admin raises the fees: the open page shows the new total without a reload.
      await setFees(50, 1);
      await page.getByTestId('order-total').filter({ hasText: usd(priceAt(50, 1)) }).waitFor();

      // The fees change again while this page still shows the old total (its catalogue answer is
      // held back): Buy is refused with the new total, which the page then shows; a second Buy pays it.
      const held = await (await page.context().request.get('/api/catalog/services?lang=en')).text();
      let heldAnswers = 0;
      await page.route('**/api/catalog/services?*', (route) => {
        heldAnswers++;
        return route.fulfill({ status: 200, contentType: 'application/json', body: held });
      });
      await setFees(20, 0.5);
      // The page has heard of the change and asked again (answered with the old prices), however
      // busy the machine: only then may the real answers flow again.
      await expect.poll(() => heldAnswers, { timeout: 60_000 }).toBeGreaterThan(0);
      await page.waitForTimeout(1500);
      await page.getByTestId('order-total').filter({ hasText: usd(priceAt(50, 1)) }).waitFor();
      await page.unroute('**/api/catalog/services?*');
      await page.getByRole('button', { name: 'Buy', exact: true }).click();
      const newTotal = priceAt(20, 0.5);
      await page.getByTestId('price-changed').filter({ hasText: usd(newTotal) }).waitFor();
      expect((await (await page.context().request.get('/api/wallet')).json()).balanceMicros).toBe(50_000_000);
      await page.getByTestId('order-total').filter({ hasText: usd(newTotal) }).waitFor();
      await page.getByRole('button', { name: 'Buy', exact: true }).click();
      await page.getByText('Your order was placed successfully!').waitFor();
      await page.getByTestId('balance').filter({ hasText: usd(50_000_000 - newTotal) }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { journeyMarker?: boolean }).journeyMarker)).toBe(true);
      expect(problems.filter((p) => !p.includes('status of 409'))).toEqual([]);
      await page.context().close();
    } finally {
      await setFees(saved.service_fee, saved.base_fee);
      await admin.close();
    }
  }, 300_000);

  it('orders from the catalogue through the dashboard, follows it live to completed, is refused a second order on the link, and tracks it', async () => {
    const { services, fees } = (await (await fetch(`${baseUrl()}/api/catalog/services?lang=en`)).json()) as ServiceList;
    const service = services.find((s) => s.platform === 'instagram' && s.group === 'views' && !s.hasParams)!;
    expect(service).toBeDefined();
    const total = priceOrder(service.tiers, service.min, fees).micros;

    const { page, problems } = await openPage(browser);
    await customerWithBalance(browser, page.context(), 'Nigar Məmmədova', 20_000_000);
    const link = `https://www.instagram.com/p/e2e${unique()}/`;

    // The catalogue: service, link, Buy Now → the dashboard's orders tab with the same choices.
    await page.goto('/en/order?platform=instagram');
    await hydrated(page);
    await page.getByRole('button', { name: /^Views/ }).click();
    await page.waitForFunction(() => (document.querySelector<HTMLSelectElement>('#order-service')?.options.length ?? 0) > 1);
    await page.locator('#order-service').selectOption(service.id);
    await page.getByLabel(/^Link/).fill(link);
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await page.waitForURL((url) => url.pathname === '/en/dashboard');
    // The server renders the form with its list but not the choices, which travel in the history's
    // state: they are the form's once the page is live.
    await hydrated(page);
    await page.getByRole('tab', { name: 'New order', selected: true }).waitFor();
    expect(await page.locator('#order-service').inputValue()).toBe(service.id);
    expect(await page.getByLabel(/^Link/).inputValue()).toBe(link);
    await page.getByTestId('order-total').filter({ hasText: usd(total) }).waitFor();
    await page.getByTestId('balance').filter({ hasText: '$20.00' }).waitFor();
    await waitCounter(page, 'total', 0);

    // Live from here on: the page is never reloaded (this marker would be gone).
    await page.evaluate(() => ((window as unknown as { journeyMarker: boolean }).journeyMarker = true));

    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByText('Your order was placed successfully!').waitFor();
    await page.getByTestId('balance').filter({ hasText: usd(20_000_000 - total) }).waitFor();
    await waitCounter(page, 'total', 1);
    await waitCounter(page, 'active', 1);

    // After 1.5 s the history shows the order, newest first, as processing.
    await page.getByRole('tab', { name: 'Order history', selected: true }).waitFor();
    const row = page.locator('[data-order]').locator('visible=true').first();
    const number = (await row.getAttribute('data-order'))!;
    expect(number).toMatch(/^AR-/);
    await expect.poll(() => badge(page, number).textContent()).toBe('Processing');
    expect(await row.textContent()).toContain(service.name);

    // A second order on the same link: the button is disabled with the reason, and the server refuses too.
    await page.getByRole('tab', { name: 'New order' }).click();
    await page.getByLabel(/^Link/).fill(link.replace('https://www.', 'https://'));
    await page.getByTestId('buy-hint').filter({ hasText: 'There is already an active order for this URL' }).waitFor();
    expect(await page.getByRole('button', { name: 'Buy', exact: true }).isDisabled()).toBe(true);
    const again = await page.context().request.post('/api/orders', {
      headers: { Origin: baseUrl() },
      data: { serviceId: service.id, link, quantity: service.min, params: {}, idempotencyKey: `again-${unique()}` },
    });
    expect(again.status()).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('ACTIVE_ORDER_EXISTS');

    // The provider moves the order on; the history and the counters follow without a reload. The
    // status sync may first see it running or, on a slow machine whose sync passes straddle the
    // provider's 24 s of delivery, already completed.
    await page.getByRole('tab', { name: 'Order history' }).click();
    await page.waitForFunction(
      (n) => ['processing', 'in_progress', 'active', 'running', 'completed'].includes(document.querySelector(`[data-order="${n}"] [data-status]`)?.getAttribute('data-status') ?? ''),
      number,
      { timeout: 180_000 },
    );
    const [status, text] = await badge(page, number).evaluate((el) => [el.getAttribute('data-status'), el.textContent]);
    if (status !== 'completed') expect(text).toBe('Processing');
    await page.waitForFunction((n) => document.querySelector(`[data-order="${n}"] [data-status]`)?.getAttribute('data-status') === 'completed', number, {
      timeout: 70_000,
    });
    expect(await badge(page, number).textContent()).toBe('Completed');
    await waitCounter(page, 'completed', 1);
    expect(await counter(page, 'active')).toBe('0');
    expect(await counter(page, 'total')).toBe('1');
    expect(await page.evaluate(() => (window as unknown as { journeyMarker?: boolean }).journeyMarker)).toBe(true);

    // Public tracking finds it by number, signed out too.
    const { page: visitor, problems: visitorProblems } = await openPage(browser, PHONE);
    await visitor.goto('/track');
    await hydrated(visitor);
    await visitor.getByRole('button', { name: 'Search' }).click();
    await visitor.getByText('Enter the order ID').waitFor();
    await visitor.getByLabel(/^Order ID/).fill(number.toLowerCase());
    await visitor.getByRole('button', { name: 'Search' }).click();
    const result = visitor.getByTestId('track-result');
    await result.waitFor();
    expect(await result.getAttribute('data-status')).toBe('completed');
    expect(await result.getByRole('heading', { name: number }).count()).toBe(1);
    expect(await result.locator('[data-kind]').getAttribute('data-kind')).toBe('success');
    expect(await result.locator('[data-fact="total"]').textContent()).toBe(usd(total));
    expect(await result.locator('[data-fact="quantity"]').textContent()).toBe(formatNumber(service.min, 'en'));
    expect(new URL(visitor.url()).searchParams.get('order')).toBe(number);
    expect(await seriousViolations(visitor)).toEqual([]);

    // An unknown number clears the result.
    await visitor.getByLabel(/^Order ID/).fill('AR-0000000000');
    await visitor.getByRole('button', { name: 'Search' }).click();
    await visitor.getByTestId('track-failure').filter({ hasText: 'Order not found or invalid order ID' }).waitFor();
    expect(await visitor.getByTestId('track-result').count()).toBe(0);

    // ?order= fills the field and arrives with the result, rendered by the server; once the
    // lookup is touched, it hydrates as rendered and searches again in place.
    await visitor.goto(`/track?order=${number}`);
    expect(await visitor.getByTestId('track-result').getAttribute('data-status')).toBe('completed');
    expect(await visitor.getByLabel(/^Order ID/).inputValue()).toBe(number);
    await hydrated(visitor);
    expect(await visitor.getByTestId('track-result').getAttribute('data-status')).toBe('completed');
    await visitor.getByLabel(/^Order ID/).fill('AR-0000000000');
    await visitor.getByRole('button', { name: 'Search' }).click();
    await visitor.getByTestId('track-failure').filter({ hasText: 'Order not found or invalid order ID' }).waitFor();
    expect(new URL(visitor.url()).searchParams.get('order')).toBe('AR-0000000000');

    expect(problems).toEqual([]);
    // The unknown number answers 404 on purpose; nothing else may fail.
    expect(visitorProblems.filter((p) => !p.includes('404'))).toEqual([]);
    await visitor.context().close();
    await page.context().close();
  }, 300_000);

  it('keeps the dashboard usable at 390 px: tabs by keyboard, the hash opens a tab, signed-out visitors go home', async () => {
    const { page, problems } = await openPage(browser, PHONE);
    // Signed out: home with the sign-in sheet.
    await page.goto('/en/dashboard');
    await page.waitForURL((url) => url.pathname === '/en');
    await page.getByTestId('auth-sheet').waitFor();

    await customerWithBalance(browser, page.context(), 'Kamran Əliyev', 1_000_000);
    await page.goto('/en/dashboard#payments');
    await hydrated(page);
    await page.getByRole('tab', { name: 'Payments', selected: true }).waitFor();
    await page.getByText('No payments yet').waitFor();
    await page.getByTestId('counter-total').locator('[data-value="0"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Arrow keys move between the tabs and select them.
    await page.getByRole('tab', { name: 'Payments' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('tab', { name: 'Support', selected: true }).waitFor();
    await page.getByRole('tabpanel').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('tab', { name: 'Order history', selected: true }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tab');
    expect(new URL(page.url()).hash).toBe('#history');
    await page.getByText('No orders yet').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('End');
    await page.getByRole('tab', { name: 'Settings', selected: true }).waitFor();
    await page.getByRole('tab', { name: 'Profile' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'New order' }).click();
    await page.locator('#order-service').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Nothing is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
