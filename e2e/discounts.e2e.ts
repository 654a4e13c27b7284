import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceList } from '../src/core/contracts/catalog';
import { priceOrder, pricePerUnitDisplay } from '../src/core/pricing';
import { formatMoney, formatMoneyDecimal } from '../src/web/lib/format';
import { E2E_ADMIN } from './app-process';
import { baseUrl, hasChromium, hydrated, launch, openPage } from './browser';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const usd = (micros: number) => formatMoney(micros, 'USD', 'en');

/**
 * Prices per customer (docs/rules.md#discounts): the team creates a customer group with 12.5 % off
 * and puts a customer in it on the users page; the customer's order form then shows their price
 * per 1000 (the list price struck through, "−12.5%"), and the order is charged that price.
 */
describe.skipIf(!hasChromium())('customer discounts', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a group discount set by the team is the price the customer sees and pays', async () => {
    const { services, fees } = (await (await fetch(`${baseUrl()}/api/catalog/services?lang=en`)).json()) as ServiceList;
    const service = services.find((s) => !s.hasParams && !s.dripfeed && s.platform === 'instagram' && s.group === 'followers') ?? services.find((s) => !s.hasParams)!;
    const own = { ...fees, discountPercent: '12.5' };
    const unit = pricePerUnitDisplay({ tiers: service.tiers, type: service.group === 'other' ? service.type : service.group, name: '' }, own)!;
    const list = pricePerUnitDisplay({ tiers: service.tiers, type: service.group === 'other' ? service.type : service.group, name: '' }, fees)!;
    const total = priceOrder(service.tiers, service.min, own).micros;
    expect(total).toBeLessThan(priceOrder(service.tiers, service.min, fees).micros);

    // The customer signs up.
    const { page, problems } = await openPage(browser);
    const email = `discount-${unique()}@example.com`;
    const signUp = await page.context().request.post('/api/auth/sign-up/email', { headers: { Origin: baseUrl() }, data: { name: 'Rəşad Əliyev', email, password: 'Disc-pass1!' } });
    expect(signUp.status()).toBe(200);
    const me = (await (await page.context().request.get('/api/me')).json()) as { user: { id: string } };

    // The team: a group, the customer in it, and a balance.
    const admin = await openPage(browser);
    const group = `Resellers ${unique()}`;
    try {
      expect((await admin.page.context().request.post('/api/auth/sign-in/email', { headers: { Origin: baseUrl() }, data: E2E_ADMIN })).status()).toBe(200);
      expect((await admin.page.context().request.post(`/api/admin/users/${me.user.id}/balance`, { headers: { Origin: baseUrl() }, data: { amountMicros: 50_000_000, reason: 'journey balance' } })).status()).toBe(200);
      await admin.page.goto('/admin/users');
      await hydrated(admin.page);
      await admin.page.getByRole('button', { name: 'New group' }).click();
      const dialog = admin.page.getByRole('dialog');
      await dialog.getByLabel('Name').fill(group);
      await dialog.getByLabel('Discount').fill('12.5');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await admin.page.locator(`[data-testid="group-row"][data-name="${group}"]`).waitFor();

      await admin.page.getByLabel('Search users').fill(email);
      const row = admin.page.locator(`[data-testid="user-row"][data-email="${email}"]`);
      await row.waitFor();
      await row.getByRole('button', { name: `Actions for ${email}` }).click();
      await admin.page.getByRole('menuitem', { name: 'Discount and group' }).click();
      await admin.page.getByRole('dialog').getByLabel('Customer group').selectOption({ label: `${group} (12.5%)` });
      await admin.page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
      await row.getByTestId('user-pricing').filter({ hasText: `${group}: 12.5%` }).waitFor();
      expect(admin.problems).toEqual([]);
    } finally {
      await admin.page.context().close();
    }

    // The customer's order form: their price, the list price struck through, the discount.
    await page.goto(`/en/order?platform=${service.platform}`);
    await hydrated(page);
    const groups: Record<string, string> = { likes: 'Likes', followers: 'Followers', views: 'Views', shares: 'Shares', comments: 'Comments', other: 'Other' };
    await page.getByRole('button', { name: new RegExp(`^${groups[service.group] ?? 'Other'}`) }).click();
    await page.waitForFunction((id) => [...(document.querySelector<HTMLSelectElement>('#order-service')?.options ?? [])].some((o) => o.value === id), service.id);
    await page.locator('#order-service').selectOption(service.id);
    await page.getByTestId('unit-price').filter({ hasText: formatMoneyDecimal(unit.usd, 'USD', 'en') }).waitFor();
    await page.getByTestId('your-discount').filter({ hasText: '−12.5%' }).waitFor();
    expect(await page.getByTestId('list-price').textContent()).toContain(formatMoneyDecimal(list.usd, 'USD', 'en'));
    await page.getByLabel(/^Link/).fill(`https://www.${service.platform}.com/discount${unique()}`);
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await page.waitForURL((url) => url.pathname === '/en/dashboard');
    await page.getByRole('tab', { name: 'New order', selected: true }).waitFor();
    await page.getByTestId('order-total').filter({ hasText: usd(total) }).waitFor();
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByText('Your order was placed successfully!').waitFor();
    await page.getByTestId('balance').filter({ hasText: usd(50_000_000 - total) }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);
});
