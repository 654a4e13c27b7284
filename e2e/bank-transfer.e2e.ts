import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN } from './app-process';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, PHONE, visitorHeaders } from './browser';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const shop = () => baseUrl().replace('127.0.0.1', 'localhost');
/** A small PNG's first bytes and a body: a receipt as a phone's screenshot would start. */
const RECEIPT = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('receipt of the transfer')]);

describe.skipIf(!hasChromium())('bank transfer with proof', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the customer transfers with the reference and uploads the receipt; the team approves it; the balance rises live', async () => {
    const problems: string[] = [];
    const customer = await browser.newContext({ viewport: PHONE, baseURL: shop(), locale: 'az-AZ', extraHTTPHeaders: visitorHeaders() });
    const team = await browser.newContext({ viewport: DESKTOP, baseURL: shop(), locale: 'en-US' });
    for (const context of [customer, team]) context.on('page', (p) => p.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`)));
    const email = `bank-${unique()}@example.com`;
    expect((await customer.request.post('/api/auth/sign-up/email', { headers: { Origin: shop() }, data: { name: 'Nigar Əliyeva', email, password: 'Transfer-pass1!' } })).status()).toBe(200);
    expect((await team.request.post('/api/auth/sign-in/email', { headers: { Origin: shop() }, data: E2E_ADMIN })).status()).toBe(200);

    // The customer, on a phone in Azerbaijani, chooses a bank transfer of 25 USD.
    const page = await customer.newPage();
    await page.goto('/az/dashboard');
    await hydrated(page);
    await page.getByRole('button', { name: 'Balansı artır' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Balansı artırın' });
    await dialog.getByTestId('topup-method-bank').check();
    await dialog.getByLabel('Məbləğ (USD)').fill('25');
    await expect.poll(() => dialog.getByTestId('topup-azn').textContent()).toMatch(/42,50\sAZN/);
    await dialog.getByRole('button', { name: 'Ödənişə keç' }).click();
    await page.getByRole('dialog', { name: 'Ödəniş' }).getByRole('button', { name: /ödə$/ }).click();

    // The account, the amount and the reference to write on the transfer; then the receipt.
    const transfer = page.getByRole('dialog', { name: 'Bank köçürməsi' });
    await transfer.getByTestId('bank-details').getByText(/IBAN/).waitFor();
    const reference = (await transfer.getByTestId('bank-reference').textContent())!.trim();
    expect(reference).toMatch(/^balance-/);
    await transfer.getByLabel('Qəbz (PNG, JPEG, WebP və ya PDF)').setInputFiles({ name: 'qebz.png', mimeType: 'image/png', buffer: RECEIPT });
    await transfer.getByRole('button', { name: 'Qəbzi göndər' }).click();
    await transfer.getByText('Qəbz göndərildi').waitFor();
    await transfer.getByRole('button', { name: 'Hazırdır' }).click();

    // The team finds it on the payments page, opens the review, sees the receipt and approves.
    const admin = await team.newPage();
    await admin.goto(`/en/admin/payments?q=${encodeURIComponent(email)}`);
    await hydrated(admin);
    await admin.getByRole('button', { name: `Review the transfer ${reference}` }).first().click();
    const review = admin.getByRole('dialog', { name: 'Review the bank transfer' });
    await review.getByRole('img', { name: 'Receipt' }).waitFor();
    await review.getByRole('button', { name: 'Approve and credit' }).click();
    await admin.getByText('Transfer approved; the balance was credited').first().waitFor();

    // The customer's page, never reloaded, shows the credit.
    await page.getByTestId('balance').filter({ hasText: /25,00/ }).first().waitFor();
    expect(((await (await customer.request.get('/api/wallet')).json()) as { balanceMicros: number }).balanceMicros).toBe(25_000_000);
    // A second approval finds nothing to do.
    const payments = (await (await team.request.get(`/api/admin/payments?q=${encodeURIComponent(email)}`)).json()) as { payments: { id: string }[] };
    const again = await team.request.post(`/api/admin/payments/${payments.payments[0]!.id}/review`, { headers: { Origin: shop() }, data: { approve: true } });
    expect(again.status()).toBe(409);
    expect(problems).toEqual([]);
    await customer.close();
    await team.close();
  }, 300_000);
});
