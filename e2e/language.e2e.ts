import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../src/core/i18n';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, PHONE, visitorHeaders } from './browser';

type Json = Record<string, any>;
const text = (lang: Language, ns: string): Json =>
  JSON.parse(readFileSync(new URL(`../src/web/i18n/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A visitor whose browser speaks `locale` (its Accept-Language and navigator.languages). */
async function visitor(browser: Browser, locale: string, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), locale, extraHTTPHeaders: visitorHeaders() });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  return { context, page, problems };
}

async function signUp(context: BrowserContext, name: string) {
  const email = `lang-${unique()}@example.com`;
  const password = 'Lang-pass-123!';
  const res = await context.request.post('/api/auth/sign-up/email', { headers: { Origin: baseUrl() }, data: { name, email, password } });
  expect(res.status()).toBe(200);
  return { email, password };
}

describe.skipIf(!hasChromium())('their language from the first visit', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('an Azerbaijani phone lands on /az, and tracking and sign-in are in Azerbaijani', async () => {
    const { context, page, problems } = await visitor(browser, 'az-AZ', PHONE);
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/az');
    await hydrated(page);
    for (const path of ['/track', '/auth']) {
      await page.goto(path);
      await hydrated(page);
      expect(await page.getAttribute('html', 'lang'), path).toBe('az');
    }
    await page.locator('h1', { hasText: text('az', 'auth').page.title }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a Turkish page read in an English browser is remembered for the pages without a language', async () => {
    const { context, page, problems } = await visitor(browser, 'en-US');
    await page.goto('/tr/about');
    await hydrated(page);
    expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('tr');
    await page.goto('/track');
    await hydrated(page);
    expect(await page.getAttribute('html', 'lang')).toBe('tr');
    await page.locator('h1', { hasText: text('tr', 'tracking').title }).waitFor();
    // The next page in another language is remembered in its turn.
    await page.goto('/en/contact');
    await hydrated(page);
    await page.goto('/privacy');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an expired or damaged reset link is refused as its page opens, before anything is typed', async () => {
    const { context, page } = await visitor(browser, 'az-AZ');
    await page.goto('/password-recovery?token=no-such-token');
    await page.getByText(text('az', 'auth').recovery.invalidLink).first().waitFor();
    await page.waitForURL((url) => url.pathname === '/reset-password');
    await context.close();
  });

  it('signing in on /auth goes to the dashboard, or to the page that sent them; a signed-in visitor does not stay there', async () => {
    const { context, page, problems } = await visitor(browser, 'az-AZ');
    const account = await signUp(context, 'Nigar Məmmədova');
    await context.request.post('/api/auth/sign-out', { headers: { Origin: baseUrl() }, data: {} });
    const auth = text('az', 'auth');

    await page.goto('/auth');
    await hydrated(page);
    const form = page.locator('main form');
    await form.getByLabel(auth.fields.email, { exact: true }).fill(account.email);
    await form.getByLabel(auth.fields.password, { exact: true }).fill(account.password);
    await form.getByRole('button', { name: auth.login.submit }).click();
    await page.waitForURL((url) => url.pathname === '/az/dashboard');

    // Already signed in: /auth sends them on, to the page named by `next` when there is one.
    await page.goto('/auth?next=%2Faz%2Forder');
    await page.waitForURL((url) => url.pathname === '/az/order');
    await page.goto('/auth?next=%2F%2Fevil.example');
    await page.waitForURL((url) => url.pathname === '/az/dashboard');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signing in through the header’s dialog on /auth leaves /auth too', async () => {
    const { context, page } = await visitor(browser, 'en-US');
    const account = await signUp(context, 'Kamal Quliyev');
    await context.request.post('/api/auth/sign-out', { headers: { Origin: baseUrl() }, data: {} });
    await page.goto('/auth');
    await hydrated(page);
    await page.locator('header').getByRole('button', { name: 'Sign in' }).first().click();
    const dialog = page.getByTestId('auth-dialog');
    await dialog.getByLabel('E-mail').fill(account.email);
    await dialog.getByLabel('Password', { exact: true }).fill(account.password);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/en/dashboard');
    await context.close();
  });

  it('the contact form has a signed-in customer’s name and e-mail filled in', async () => {
    const { context, page, problems } = await visitor(browser, 'tr-TR');
    const account = await signUp(context, 'Elif Yılmaz');
    await page.goto('/tr/contact');
    await hydrated(page);
    const support = text('tr', 'support').contact.fields;
    const form = page.getByTestId('contact-form');
    expect(await form.getByLabel(support.name, { exact: true }).inputValue()).toBe('Elif Yılmaz');
    expect(await form.getByLabel(support.email, { exact: true }).inputValue()).toBe(account.email);
    expect(await form.getByLabel(support.subject, { exact: true }).inputValue()).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the payment pages call a top-up’s reference a payment number, in the page’s language', async () => {
    const { context, page } = await visitor(browser, 'az-AZ');
    await page.goto('/az');
    await page.goto('/payment-error?order=balance-abc123-0011&error=Kart%20r%C9%99dd%20edildi');
    await hydrated(page);
    const result = text('az', 'payments').result;
    const card = page.getByTestId('payment-error');
    await card.getByText(result.topUp, { exact: true }).waitFor();
    expect(await card.getByText(result.order, { exact: true }).count()).toBe(0);
    await page.goto('/payment-success?order=balance-abc123-0011');
    await hydrated(page);
    // The state on the screen (the checks before it stay in the page, hidden: docs/decisions/0035).
    const shown = page.getByTestId('payment-success').locator('visible=true');
    await shown.getByText(result.topUp, { exact: true }).waitFor();
    // A top-up has no order to track (the footer's link to tracking is not the card's).
    expect(await shown.getByRole('link', { name: result.track }).count()).toBe(0);
    await context.close();
  });
});
