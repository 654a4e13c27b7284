import { randomUUID } from 'node:crypto';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN } from './app-process';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, openPage, PHONE } from './browser';
import { formatMoney } from '../src/web/lib/format';

/**
 * The owner's figures (docs/rules.md#owner-figures): a customer orders, and the analytics page
 * shows the period's sales, cost and profit from the API's own answer, with the chart, the
 * tables and their CSV, at 1280 and 390 px; a custom range that is not one is refused in words;
 * the dashboard's counts lead to their filtered lists. Other journeys order at the same time, so
 * figures are compared with what the page was answered, not with fixed amounts.
 */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
// As the page writes it (a loss too: another journey's discounted order may sell below cost today).
const usd = (micros: number) => formatMoney(micros, 'USD', 'en');

async function signInAdmin(page: Page) {
  const res = await page.context().request.post('/api/auth/sign-in/email', { headers: { Origin: baseUrl() }, data: E2E_ADMIN });
  expect(res.status()).toBe(200);
}

const isFigures = (r: Response) => new URL(r.url()).pathname === '/api/admin/analytics' && r.request().method() === 'GET';
type Totals = { salesMicros: number; costMicros: number; grossProfitMicros: number; orders: number };

describe.skipIf(!hasChromium())('analytics', () => {
  let browser: Browser;
  let chargeMicros = 0;
  beforeAll(async () => {
    browser = await launch();
    // A customer with a balance orders today: today's sales include its charge.
    const { page } = await openPage(browser, DESKTOP);
    await signInAdmin(page);
    const admin = page.context().request;
    const { page: customer } = await openPage(browser, DESKTOP);
    const email = `analytics-${unique()}@example.com`;
    expect((await customer.context().request.post('/api/auth/sign-up/email', { headers: { Origin: baseUrl() }, data: { name: 'Nərmin Əliyeva', email, password: 'Analytics-pass1!' } })).status()).toBe(200);
    const me = (await (await customer.context().request.get('/api/me')).json()) as { user: { id: string } };
    expect((await admin.post(`/api/admin/users/${me.user.id}/balance`, { headers: { Origin: baseUrl() }, data: { amountMicros: 50_000_000, reason: 'journey balance' } })).status()).toBe(200);
    const services = (await (await customer.context().request.get('/api/catalog/services')).json()) as { services: { id: string; platform: string; min: number; hasParams: boolean }[] };
    const svc = services.services.find((s) => s.platform === 'instagram' && !s.hasParams)!;
    const placed = await customer.context().request.post('/api/orders', {
      headers: { Origin: baseUrl() },
      data: { serviceId: svc.id, link: `https://www.instagram.com/p/analytics${unique()}/`, quantity: svc.min, params: {}, idempotencyKey: randomUUID() },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    chargeMicros = ((await placed.json()) as { chargeMicros: number }).chargeMicros;
    await page.context().close();
    await customer.context().close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [name, viewport] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    it(`shows today's sales, cost and profit as answered, with the chart, the tables and their CSV, at ${name} px`, async () => {
      const { page, problems } = await openPage(browser, viewport);
      await signInAdmin(page);
      const answered = page.waitForResponse(isFigures);
      await page.goto('/en/admin/analytics?period=today&group=day');
      await hydrated(page);
      const totals = ((await (await answered).json()) as { totals: Totals }).totals;
      expect(totals.salesMicros).toBeGreaterThanOrEqual(chargeMicros);
      expect(totals.orders).toBeGreaterThanOrEqual(1);
      await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
      await page.getByTestId('total-sales').getByText(usd(totals.salesMicros)).waitFor();
      await page.getByTestId('total-cost').getByText(usd(totals.costMicros)).waitFor();
      await page.getByTestId('total-profit').getByText(usd(totals.grossProfitMicros)).waitFor();
      await page.getByTestId('series-chart').getByRole('img').waitFor();
      await page.getByRole('region', { name: 'Sales, cost and profit' }).waitFor();
      await page.getByRole('region', { name: 'By platform' }).getByText('Instagram').first().waitFor();
      // Breakdowns are tabs: the customers' one is asked for when opened.
      await page.getByRole('tab', { name: 'Top 20 customers' }).click();
      await page.getByRole('region', { name: 'Top 20 customers' }).waitFor();

      // The page itself never scrolls sideways; wide tables scroll inside their own region.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      // The series table's CSV: UTF-8 with a BOM, today's row in decimals.
      const href = await page.getByTestId('export-series').getAttribute('href');
      const csv = await page.context().request.get(href!);
      expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
      const body = await csv.body();
      expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = body.subarray(3).toString('utf8').trim().split('\r\n');
      expect(lines[0]).toMatch(/^period_start,sales_usd,refunds_usd,cost_usd,gross_profit_usd,/);
      expect(lines).toHaveLength(2);
      expect(Number(lines[1]!.split(',')[1])).toBeGreaterThanOrEqual(chargeMicros / 1_000_000);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it('groups by week, and refuses a custom range that ends before it starts, in words', async () => {
    const { page, problems } = await openPage(browser, DESKTOP);
    await signInAdmin(page);
    await page.goto('/en/admin/analytics');
    await hydrated(page);
    await page.getByTestId('total-sales').waitFor();
    const weekly = page.waitForResponse((r) => isFigures(r) && new URL(r.url()).searchParams.get('group') === 'week');
    await page.getByLabel('Group by').selectOption('week');
    expect((await weekly).status()).toBe(200);
    await page.getByRole('region', { name: 'Sales, cost and profit' }).getByRole('columnheader', { name: 'Week from' }).waitFor();
    expect(new URL(page.url()).searchParams.get('group')).toBe('week');

    await page.getByLabel('Period', { exact: true }).selectOption('custom');
    await page.getByLabel('First day').fill('2026-03-31');
    const refused = page.waitForResponse((r) => isFigures(r) && r.status() === 400);
    await page.getByLabel('Last day').fill('2026-03-01');
    await refused;
    await page.getByTestId('period-invalid').getByText('The period is not valid').waitFor();
    // The refusal is the answer expected, not a problem of the page.
    expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
    await page.context().close();
  });

  it('the dashboard leads from each count to its filtered list, and to analytics', async () => {
    const { page, problems } = await openPage(browser, DESKTOP);
    await signInAdmin(page);
    await page.goto('/en/admin');
    await hydrated(page);
    await page.getByTestId('stat-today-sales').waitFor();
    expect(await page.getByTestId('attention-unknown').getAttribute('href')).toBe('/en/admin/orders?status=unknown');
    expect(await page.getByTestId('attention-flagged').getAttribute('href')).toBe('/en/admin/payments?flagged=1');
    await page.getByTestId('attention-funds').click();
    await page.waitForURL(/\/en\/admin\/orders\?funds=1$/);
    await hydrated(page);
    expect(await page.getByLabel('Delay', { exact: true }).inputValue()).toBe('funds');

    await page.goto('/en/admin');
    await hydrated(page);
    await page.getByTestId('attention-tickets').click();
    await page.waitForURL(/\/en\/admin\/support\?status=open$/);
    expect(await page.getByLabel('Filter by status').inputValue()).toBe('open');

    await page.goto('/en/admin');
    await hydrated(page);
    await page.getByRole('link', { name: /open analytics/ }).click();
    await page.waitForURL(/\/en\/admin\/analytics$/);
    await page.getByTestId('total-sales').waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
