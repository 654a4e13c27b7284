import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicService } from '../src/core/contracts/catalog';
import { formatMoney } from '../src/web/lib/format';
import { E2E_ADMIN } from './app-process';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, PHONE, visitorHeaders } from './browser';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The card gateway sends the customer back to the shop's public address (http://localhost:<port>): the journey uses that host. */
const shop = () => baseUrl().replace('127.0.0.1', 'localhost');

const wallet = async (request: APIRequestContext) => ((await (await request.get('/api/wallet')).json()) as { balanceMicros: number }).balanceMicros;

/** Opens the top-up dialog, pays `amount` USD with the card that succeeds, and closes the gateway's tab once it sent the customer back. */
async function topUpWithCard(page: Page, amount: string): Promise<string> {
  await page.getByRole('button', { name: 'Top up balance' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Top up your balance' });
  await dialog.getByLabel('Amount (USD)').fill(amount);
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  const pay = page.getByRole('dialog', { name: 'Payment' });
  await pay.waitFor();
  const [gateway] = await Promise.all([page.context().waitForEvent('page'), pay.getByRole('button', { name: /^Pay / }).click()]);
  await gateway.waitForURL(/\/pay\//);
  await gateway.locator('#number').fill('4242 4242 4242 4242');
  await gateway.locator('#expiry').fill('12/30');
  await gateway.locator('#cvc').fill('123');
  await gateway.locator('#name').fill('RASHAD KARIMOV');
  await gateway.locator('button[value="pay"]').click();
  await gateway.waitForURL((url) => url.pathname === '/payment-success');
  const reference = new URL(gateway.url()).searchParams.get('order')!;
  await gateway.locator('[data-testid="payment-success"][data-status="completed"]').waitFor();
  await gateway.close();
  return reference;
}

describe.skipIf(!hasChromium())('chargeback', () => {
  let browser: Browser;
  let customerContext: BrowserContext;
  let adminContext: BrowserContext;
  const problems: string[] = [];
  const email = `chargeback-${unique()}@example.com`;

  beforeAll(async () => {
    browser = await launch();
    customerContext = await browser.newContext({ viewport: DESKTOP, baseURL: shop(), locale: 'en-US', extraHTTPHeaders: visitorHeaders() });
    const signUp = await customerContext.request.post('/api/auth/sign-up/email', { headers: { Origin: shop() }, data: { name: 'Aysel Məmmədova', email, password: 'Chargeback-pass1!' } });
    expect(signUp.status()).toBe(200);
    adminContext = await browser.newContext({ viewport: DESKTOP, baseURL: shop(), locale: 'en-US' });
    expect((await adminContext.request.post('/api/auth/sign-in/email', { headers: { Origin: shop() }, data: E2E_ADMIN })).status()).toBe(200);
    for (const context of [customerContext, adminContext]) context.on('page', (page) => page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`)));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the bonus rules and coupons whole at 1280 px in each language: nothing scrolls sideways, the edit buttons in view', async () => {
    const request = adminContext.request;
    const post = (path: string, data: unknown) => request.post(path, { headers: { Origin: shop() }, data });
    const code = `WIDE${unique().replace(/[^A-Za-z0-9]/g, '').slice(-8).toUpperCase()}`;
    const ruleName = `Kart ilə yükləmə bonusu — payız kampaniyası ${unique()}`;
    expect((await post('/api/admin/bonuses/rules', { name: ruleName, method: null, minMicros: 20_000_000, percentBp: 1250, capMicros: 15_000_000, startsAt: '2026-11-01T00:00:00.000Z', endsAt: '2027-12-31T20:00:00.000Z', enabled: false })).status()).toBe(201);
    expect((await post('/api/admin/bonuses/coupons', { code, kind: 'percent', amountMicros: null, percentBp: 1000, capMicros: 25_000_000, minTopUpMicros: 10_000_000, perCustomer: 1, totalUses: 500, expiresAt: '2027-12-31T20:00:00.000Z', enabled: false })).status()).toBe(201);
    const page = await adminContext.newPage();
    for (const lang of ['az', 'tr', 'en']) {
      await page.goto(`/${lang}/admin/payments`);
      await hydrated(page);
      await page.locator('[data-testid="coupon-row"]').first().waitFor();
      const tables = await page.evaluate(() => [...document.querySelectorAll('table')].filter((t) => t.querySelector('[data-testid="rule-row"], [data-testid="coupon-row"]')).map((t) => ({ table: t.parentElement!.scrollWidth, panel: t.parentElement!.clientWidth })));
      expect(tables, lang).toHaveLength(2);
      for (const { table, panel } of tables) expect(table, lang).toBeLessThanOrEqual(panel);
    }
    await page.close();
  });

  it('the team books a chargeback of a spent top-up: the customer owes, cannot order, tops up and orders again', async () => {
    const request = customerContext.request;
    const order = async (service: PublicService) =>
      request.post('/api/orders', {
        headers: { Origin: shop() },
        data: { serviceId: service.id, link: `https://www.instagram.com/chargeback_${unique()}/`, quantity: service.min, params: {}, idempotencyKey: `chargeback-${unique()}` },
      });

    // The customer tops up 10 USD by card and spends part of it.
    const page = await customerContext.newPage();
    await page.goto('/en/dashboard');
    await hydrated(page);
    const reference = await topUpWithCard(page, '10');
    await page.getByTestId('balance').filter({ hasText: '$10.00' }).waitFor();
    const catalogue = (await (await request.get('/api/catalog/services?lang=en')).json()) as { services: PublicService[] };
    const service = catalogue.services.find((s) => s.platform.toLowerCase() === 'instagram' && !s.hasParams && s.displayPrice)!;
    const first = await order(service);
    expect(first.status()).toBe(201);
    const charge = ((await first.json()) as { chargeMicros: number }).chargeMicros;
    expect(charge).toBeGreaterThan(0);
    expect(charge).toBeLessThan(5_000_000);
    expect(await wallet(request)).toBe(10_000_000 - charge);

    // The team finds the payment on the payments page, filtered by the customer's e-mail in the address, and books the chargeback.
    const admin = await adminContext.newPage();
    await admin.goto(`/en/admin/payments?q=${encodeURIComponent(email)}&status=completed`);
    await hydrated(admin);
    const row = admin.locator(`[data-testid="payment-row"][data-reference="${reference}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('$10.00');
    // The export takes the same filters.
    expect(await admin.getByTestId('payments-export').getAttribute('href')).toBe(`/api/admin/payments/export?${new URLSearchParams({ status: 'completed', q: email })}`);
    const csv = await adminContext.request.get(`/api/admin/payments/export?${new URLSearchParams({ q: email })}`);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect((await csv.text()).split('\r\n').filter((line) => line.includes(reference))).toHaveLength(1);
    await row.getByRole('button', { name: `Book a chargeback of ${reference}` }).click();
    const dialog = admin.getByRole('dialog', { name: 'Book a chargeback' });
    await dialog.getByRole('button', { name: 'Book chargeback' }).click();
    await dialog.getByText('Give a reason of at least 3 characters.').waitFor();
    await dialog.getByLabel('Reason').fill('Bank chargeback 4837: cardholder dispute');
    await dialog.getByRole('button', { name: 'Book chargeback' }).click();
    await admin.getByText('Chargeback booked').first().waitFor();
    const owed = charge;
    await admin.getByText(`New balance: ${formatMoney(-owed, 'USD', 'en')}`).first().waitFor();

    // The payment shows its reversal (the filter on status keeps it: it stays completed, and reads "Reversed").
    await row.getByText('Reversed', { exact: true }).waitFor();
    await row.getByTestId('payment-reversal').getByText(/Bank chargeback 4837: cardholder dispute/).waitFor();
    expect(await row.getByTestId('payment-reversal').textContent()).toContain(E2E_ADMIN.email);
    expect(await row.getByRole('button', { name: `Book a chargeback of ${reference}` }).count()).toBe(0);

    // The customer's dashboard, never reloaded, shows the debt in red with why.
    const balance = page.getByTestId('balance');
    await balance.filter({ hasText: formatMoney(-owed, 'USD', 'en') }).waitFor();
    expect(await balance.getAttribute('data-owed')).toBe('true');
    await page.getByTestId('balance-owed').getByText(`you owe ${formatMoney(owed, 'USD', 'en')}`).waitFor();
    // Their payments list says the top-up was taken back.
    await page.getByRole('tab', { name: 'Payments' }).click();
    await page.locator(`[data-payment="${reference}"]`).locator('visible=true').locator('[data-status="reversed"]').waitFor();

    // The team's users list says the customer owes.
    await admin.goto(`/en/admin/users`);
    await hydrated(admin);
    await admin.getByLabel('Search users').fill(email);
    const user = admin.locator(`[data-testid="user-row"][data-email="${email}"]`);
    await user.getByTestId('user-owed').getByText(`Owes ${formatMoney(owed, 'USD', 'en')}`).waitFor();
    await user.getByRole('button', { name: `Actions for ${email}` }).click();
    await admin.getByRole('menuitem', { name: 'Payments' }).click();
    const history = admin.getByRole('dialog', { name: 'Payment history' });
    await history.getByTestId('user-payments').locator(`[data-reference="${reference}"]`).locator('visible=true').getByText('Reversed', { exact: true }).waitFor();
    await admin.keyboard.press('Escape');

    // Owing, the customer cannot order.
    const refused = await order(service);
    expect(refused.status()).toBe(402);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('BALANCE_OWED');

    // A top-up of 5 USD settles it: the balance is back above zero, the notice goes, orders are taken again.
    await topUpWithCard(page, '5');
    await expect.poll(() => wallet(request)).toBe(5_000_000 - owed);
    await page.reload();
    await hydrated(page);
    await balance.filter({ hasText: formatMoney(5_000_000 - owed, 'USD', 'en') }).waitFor();
    await page.getByTestId('balance-owed').waitFor({ state: 'detached' });
    expect(await balance.getAttribute('data-owed')).toBeNull();
    const again = await order(service);
    expect(again.status()).toBe(201);
    expect(await wallet(request)).toBe(5_000_000 - owed - charge);

    expect(problems).toEqual([]);
  }, 300_000);

  it('the payments page at 390 px: cards, filters from the address, nothing wider than the screen', async () => {
    const phone = await browser.newContext({ viewport: PHONE, baseURL: shop(), locale: 'en-US' });
    expect((await phone.request.post('/api/auth/sign-in/email', { headers: { Origin: shop() }, data: E2E_ADMIN })).status()).toBe(200);
    const page = await phone.newPage();
    await page.goto(`/en/admin/payments?status=reversed&q=${encodeURIComponent(email)}`);
    await hydrated(page);
    const card = page.getByTestId('payment-card').first();
    await card.getByText('Reversed', { exact: true }).waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('reversed');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.close();
  }, 120_000);
});
