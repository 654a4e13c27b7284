import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usdMicrosToAznQepik } from '../src/core/money';
import { formatMoney } from '../src/web/lib/format';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, visitorHeaders } from './browser';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Payriff sends the customer back to the shop's public address (http://localhost:<port> without PUBLIC_URL). */
const shop = () => baseUrl().replace('127.0.0.1', 'localhost');

/** Chooses Payriff in the top-up dialog, asks for `amount` USD and pays; resolves with Payriff's tab. */
async function startPayriffTopUp(page: Page, amount: string, rate: string): Promise<Page> {
  await page.getByRole('button', { name: 'Top up balance' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Top up your balance' });
  await dialog.waitFor();
  await dialog.getByTestId('topup-method-payriff').check();
  await dialog.getByLabel('Amount (USD)').fill(amount);
  const charge = formatMoney(usdMicrosToAznQepik(Number(amount) * 1_000_000, rate), 'AZN', 'en');
  await expect.poll(() => dialog.getByTestId('topup-azn').textContent()).toBe(charge);
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  const pay = page.getByRole('dialog', { name: 'Payment' });
  await pay.waitFor();
  const [payriff] = await Promise.all([page.context().waitForEvent('page'), pay.getByRole('button', { name: /^Pay / }).click()]);
  await page.getByText('The payment page was opened').first().waitFor();
  await payriff.waitForURL(/\/pay\/ORD-/);
  return payriff;
}

describe.skipIf(!hasChromium())('payments through Payriff', () => {
  let browser: Browser;
  let rate: string;
  beforeAll(async () => {
    browser = await launch();
    rate = String(((await (await fetch(`${baseUrl()}/api/settings`)).json()) as { usd_azn_rate: number }).usd_azn_rate);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('tops up 10 USD with Apple Pay on Payriff’s page, comes back to the success page and sees the balance rise live', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, baseURL: shop(), locale: 'en-US', extraHTTPHeaders: visitorHeaders() });
    const problems: string[] = [];
    context.on('page', (p) => p.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`)));
    const signUp = await context.request.post('/api/auth/sign-up/email', {
      headers: { Origin: shop() },
      data: { name: 'Rəşad Kərimov', email: `payriff-${unique()}@example.com`, password: 'Payments-pass1!' },
    });
    expect(signUp.status()).toBe(200);
    const page = await context.newPage();
    await page.goto('/en/dashboard');
    await hydrated(page);
    await page.getByTestId('balance').filter({ hasText: '$0.00' }).waitFor();

    const payriff = await startPayriffTopUp(page, '10', rate);
    // Payriff's page: the charge in manat, the wallets and the test cards.
    await payriff.getByText(formatMoney(usdMicrosToAznQepik(10_000_000, rate), 'AZN', 'en').replace(/[^\d.]/g, '')).first().waitFor();
    await payriff.getByRole('button', { name: 'Google Pay' }).waitFor();
    await payriff.getByRole('button', { name: 'Apple Pay' }).click();
    await payriff.waitForURL((url) => url.pathname === '/payment-success');
    const reference = new URL(payriff.url()).searchParams.get('order')!;
    expect(reference).toMatch(/^balance-/);
    await payriff.locator('[data-testid="payment-success"][data-status="completed"]').waitFor();

    // The dashboard, never reloaded, shows the credit; the payment is listed as Payriff's.
    await page.getByTestId('balance').filter({ hasText: '$10.00' }).waitFor();
    await page.getByRole('tab', { name: 'Payments' }).click();
    const row = page.locator(`[data-payment="${reference}"]`).locator('visible=true');
    await row.locator('[data-status="completed"]').waitFor();
    expect(await row.textContent()).toContain(formatMoney(usdMicrosToAznQepik(10_000_000, rate), 'AZN', 'en'));
    expect(((await (await context.request.get('/api/wallet')).json()) as { balanceMicros: number }).balanceMicros).toBe(10_000_000);
    expect(problems).toEqual([]);
    await context.close();
  }, 300_000);
});
