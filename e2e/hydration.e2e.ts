import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_COOKIE, LANGUAGES } from '../src/core/i18n';
import { baseUrl, hasChromium, hydrated, launch, openPage, PHONE } from './browser';

/**
 * React hydrates every public page without a mismatch, the islands that wait for a touch woken as
 * a touch would: the browser's first render equals the server's, in each language and on a phone, signed out and signed in. The client reports React's
 * recoverable (hydration) errors on the console, which `openPage` records as problems.
 */
const PREFIXED = ['', '/about', '/services', '/contact', '/blog', '/faq', '/order?platform=instagram', '/no-such-page'];
const TOP_LEVEL = ['/terms', '/privacy', '/track', '/track?order=AR-0000000000', '/auth', '/reset-password', '/payment-success?order=balance-x', '/payment-error?order=balance-x'];

describe.skipIf(!hasChromium())('hydration', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('matches the server render on every public page, in az, tr and en, at 1280 and 390 px', async () => {
    const { services } = (await (await fetch(`${baseUrl()}/api/content/services?lang=en`)).json()) as { services: { id: number }[] };
    const detail = services[0] ? [`/services/${services[0].id}`] : [];
    const seen: string[] = [];
    for (const lang of LANGUAGES) {
      for (const viewport of [undefined, PHONE]) {
        const { page, problems } = await openPage(browser, viewport);
        await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: lang, url: baseUrl() }]);
        for (const path of [...[...PREFIXED, ...detail].map((p) => `/${lang}${p}`), ...TOP_LEVEL]) {
          await page.goto(path);
          // The islands that wait for a touch too (the header, the contact form…): e2e/browser.ts.
          await hydrated(page);
          // Effects after hydration (live data, the notification area) settle before the next page.
          await page.waitForTimeout(150);
          seen.push(path);
        }
        expect(problems.filter((p) => /hydrat|#418|#423|#425/i.test(p)), `${lang} ${viewport ? 'phone' : 'desktop'}`).toEqual([]);
        // The return pages ask about a made-up payment (404), and /no-such-page is a 404: nothing else.
        expect(problems.filter((p) => !p.includes('status of 404')), `${lang} ${viewport ? 'phone' : 'desktop'}`).toEqual([]);
        await page.context().close();
      }
    }
    expect(seen.length).toBeGreaterThanOrEqual(3 * 2 * 16);
  }, 480_000);

  it('matches the server render for a signed-in customer, whose header the server renders signed in', async () => {
    const { page, problems } = await openPage(browser);
    const signUp = await page.context().request.post('/api/auth/sign-up/email', {
      headers: { Origin: baseUrl() },
      data: { name: 'Kamran Əhmədov', email: `hydration-${Date.now().toString(36)}@example.com`, password: 'Hydrate-pass1!' },
    });
    expect(signUp.status()).toBe(200);
    for (const path of ['/en', '/az/services', '/tr/contact', '/en/order?platform=tiktok', '/en/dashboard', '/track', '/track?order=AR-0000000000']) {
      await page.goto(path);
      await hydrated(page);
      await page.waitForTimeout(150);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);
});
