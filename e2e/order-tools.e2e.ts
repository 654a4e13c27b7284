import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicService, ServiceList } from '../src/core/contracts/catalog';
import type { OrderView } from '../src/core/contracts/orders';
import { priceOrder } from '../src/core/pricing';
import { formatMoney } from '../src/web/lib/format';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, openPage, PHONE } from './browser';
import { signUpWithBalance, unique } from './customers';

/**
 * The everyday order tools on the dashboard: API keys, the mass order, refill and cancel from the
 * history, and "Order again". Refill and cancel run on the shop as it starts, whose sandbox
 * provider speaks the SMM Panel API v2 and gives its services their refill and cancel.
 */

const usd = (micros: number) => formatMoney(micros, 'USD', 'en');
const LINKS: Record<string, () => string> = {
  instagram: () => `https://www.instagram.com/p/tools${unique()}/`,
  tiktok: () => `https://www.tiktok.com/@tools/video/${Date.now()}${Math.floor(Math.random() * 1000)}`,
};

/** Signs a new customer up in this context and gives them `micros` (USD micro-dollars) through the admin API. */
const customerWithBalance = (browser: Browser, context: BrowserContext, micros: number, url = baseUrl()) =>
  signUpWithBalance(browser, context, { name: 'Leyla Həsənova', email: `tools-${unique()}@example.com`, password: 'Tools-pass1!', micros, url });

const catalogue = async (url: string) => (await (await fetch(`${url}/api/catalog/services?lang=en`)).json()) as ServiceList;

/** Services without extra details on platforms whose links the journey can write, with their refill and cancel flags. */
async function plainServices(url = baseUrl()): Promise<{ list: ServiceList; services: PublicService[] }> {
  const list = await catalogue(url);
  return { list, services: list.services.filter((s) => !s.hasParams && LINKS[s.platform]) };
}

/** Serious and critical accessibility problems axe finds on the page as it is now. */
async function seriousViolations(page: Page, only?: string): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  const { violations } = await (only ? axe.include(only) : axe).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const wallet = async (page: Page) => ((await (await page.context().request.get('/api/wallet')).json()) as { balanceMicros: number }).balanceMicros;
const myOrders = async (page: Page) => ((await (await page.context().request.get('/api/orders')).json()) as { orders: OrderView[] }).orders;
async function placeByApi(page: Page, url: string, service: PublicService, link: string): Promise<OrderView> {
  const res = await page.context().request.post('/api/orders', {
    headers: { Origin: url },
    data: { serviceId: service.id, link, quantity: service.min, params: {}, idempotencyKey: `tools-${unique()}` },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as OrderView;
}
const statusOf = (page: Page, number: string) => page.locator(`[data-order="${number}"] [data-status]`).locator('visible=true').getAttribute('data-status');
/** A control inside one visible history row. */
const inRow = (page: Page, number: string) => page.locator(`[data-order="${number}"]`).locator('visible=true');

describe.skipIf(!hasChromium())('order tools', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates an API key that is shown once and works with the reseller API', async () => {
    const { page, problems } = await openPage(browser);
    await customerWithBalance(browser, page.context(), 12_340_000);
    await page.goto('/en/dashboard#api');
    await hydrated(page);
    await page.getByRole('tab', { name: 'API', selected: true }).waitFor();
    await page.getByText('You have no API keys yet.').waitFor();
    await page.getByLabel('Key name (optional)').fill('Journey panel');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-api-key');
    await shown.waitFor();
    const key = (await shown.locator('code').textContent())!.trim();
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    await page.getByText('Journey panel').waitFor();

    // The key works where panels use it.
    const balance = await (await fetch(`${baseUrl()}/api/v2`, { method: 'POST', body: new URLSearchParams({ key, action: 'balance' }) })).json();
    expect(balance).toEqual({ balance: '12.34', currency: 'USD' });

    // Shown once: after a reload only its name and first characters are left.
    await page.reload();
    await hydrated(page);
    await page.getByRole('tab', { name: 'API', selected: true }).waitFor();
    await page.getByText('Journey panel').waitFor();
    await page.getByText(`${key.slice(0, 6)}…`).waitFor();
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('places a mass order of 3 lines with one bad line: each line checked and priced, one confirmation, each line its order or its error', async () => {
    const { page, problems } = await openPage(browser);
    await customerWithBalance(browser, page.context(), 50_000_000);
    const { list, services } = await plainServices();
    const [a, b] = [services[0]!, services[1] ?? services[0]!];
    const lines = [`${a.id}|${LINKS[a.platform]!()}|${a.min}`, `999999|${LINKS.instagram!()}|100`, `${b.id}|${LINKS[b.platform]!()}|${b.min}`];
    const total = priceOrder(a.tiers, a.min, list.fees).micros + priceOrder(b.tiers, b.min, list.fees).micros;

    await page.goto('/en/dashboard');
    await hydrated(page);
    await page.getByRole('tab', { name: 'Mass order' }).click();
    await page.getByLabel('Orders, one per line').fill(lines.join('\n'));
    await page.getByTestId('mass-valid').filter({ hasText: '2 / 3' }).waitFor();
    await page.locator('[data-testid="mass-preview"] [data-line="2"]').filter({ hasText: 'There is no service with ID 999999' }).waitFor();
    await expect.poll(() => page.getByTestId('mass-total').textContent()).toBe(usd(total));
    await expect.poll(() => page.getByTestId('mass-after').textContent()).toBe(usd(50_000_000 - total));
    expect(await seriousViolations(page)).toEqual([]);
    // On a phone nothing is wider than the screen.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Place 2 orders' }).click();
    await page.getByText(`Place 2 orders for ${usd(total)}?`).waitFor();
    await page.getByRole('button', { name: 'Confirm and place' }).click();
    const result = page.getByTestId('mass-result');
    await result.getByText('2 of 3 lines placed').waitFor();
    const numbers = await result.locator('[data-ok="true"] [data-order-number]').allTextContents();
    expect(numbers).toHaveLength(2);
    for (const n of numbers) expect(n).toMatch(/^AR-/);
    expect(await result.locator('[data-line="2"] [data-error]').getAttribute('data-error')).toBe('SERVICE_NOT_FOUND');
    await page.getByTestId('balance').filter({ hasText: usd(50_000_000 - total) }).waitFor();
    expect(await wallet(page)).toBe(50_000_000 - total);
    // The result (the notice that slides in meanwhile is checked elsewhere).
    expect(await seriousViolations(page, '[data-testid="mass-result"]')).toEqual([]);
    expect((await myOrders(page)).map((o) => o.number).sort()).toEqual([...numbers].sort());

    await page.getByRole('tab', { name: 'Order history' }).click();
    for (const n of numbers) await inRow(page, n).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);
});

describe.skipIf(!hasChromium())('refill and cancel from the history', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('cancels a pending order from the history with its refund, then orders it again from the same row', async () => {
    const { page, problems } = await openPage(browser);
    await customerWithBalance(browser, page.context(), 50_000_000);
    const { services } = await plainServices();
    const service = services.find((s) => s.cancel)!;
    expect(service).toBeDefined();
    const link = LINKS[service.platform]!();
    const order = await placeByApi(page, baseUrl(), service, link);
    expect(order.status).toBe('pending');

    await page.goto('/en/dashboard#history');
    await hydrated(page);
    await page.getByRole('tab', { name: 'Order history', selected: true }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await inRow(page, order.number).getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Cancel requested').first().waitFor();
    // Cancelled, or partial when the provider had delivered some already: the rest comes back.
    await expect.poll(() => statusOf(page, order.number), { timeout: 180_000 }).toMatch(/^(cancelled|partial)$/);
    const after = (await myOrders(page)).find((o) => o.id === order.id)!;
    expect(after.refundedMicros).toBeGreaterThan(0);
    await inRow(page, order.number).getByText(`${usd(after.refundedMicros)} refunded`).waitFor();
    expect(await wallet(page)).toBe(50_000_000 - order.chargeMicros + after.refundedMicros);
    await page.getByTestId('balance').filter({ hasText: usd(50_000_000 - order.chargeMicros + after.refundedMicros) }).waitFor();

    // Order again: the new-order form opens with the same service, link and quantity.
    await inRow(page, order.number).getByRole('button', { name: `Order ${order.number} again` }).click();
    await page.getByRole('tab', { name: 'New order', selected: true }).waitFor();
    await expect.poll(() => page.locator('#order-service').inputValue()).toBe(service.id);
    expect(await page.locator('#order-link').inputValue()).toBe(link);
    expect(await page.locator('#order-quantity').inputValue()).toBe(String(service.min));
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByText('Your order was placed successfully!').waitFor();
    await expect.poll(async () => (await myOrders(page)).length).toBe(2);
    const again = (await myOrders(page)).find((o) => o.id !== order.id)!;
    expect(again).toMatchObject({ serviceId: service.id, link, quantity: service.min });
    expect(problems.filter((p) => !p.includes('status of 409'))).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('requests a refill of a completed order from the history', async () => {
    const { page, problems } = await openPage(browser);
    await customerWithBalance(browser, page.context(), 50_000_000);
    const { services } = await plainServices();
    const service = services.find((s) => s.refill)!;
    expect(service).toBeDefined();
    const order = await placeByApi(page, baseUrl(), service, LINKS[service.platform]!());

    await page.goto('/en/dashboard#history');
    await hydrated(page);
    await inRow(page, order.number).waitFor();
    // The sandbox delivers in 30 s; the history follows live.
    await expect.poll(() => statusOf(page, order.number), { timeout: 120_000, interval: 1000 }).toBe('completed');
    const refill = inRow(page, order.number).getByRole('button', { name: 'Refill', exact: true });
    await refill.waitFor();
    await refill.click();
    await page.getByText('Refill requested').waitFor();
    await inRow(page, order.number).locator('[data-refill]').waitFor();
    expect(await inRow(page, order.number).locator('[data-refill]').getAttribute('data-refill')).toMatch(/^(pending|in_progress|completed)$/);
    // One refill at a time: the button is gone while it runs.
    await expect.poll(() => inRow(page, order.number).getByRole('button', { name: 'Refill', exact: true }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);
});
