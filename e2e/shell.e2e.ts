import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, hasChromium, hydrated, launch, openPage } from './browser';

describe.skipIf(!hasChromium())('web app shell', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('serves /healthz', async () => {
    const res = await fetch(`${baseUrl()}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('redirects / to the default language and hydrates without errors', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto('/');
    await hydrated(page);
    expect(new URL(page.url()).pathname).toBe('/en');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await expect(page.locator('h1').first().textContent()).resolves.toBeTruthy();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('answers an unknown page with 404 and a link home', async () => {
    const res = await fetch(`${baseUrl()}/en/no-such-page`);
    expect(res.status).toBe(404);
    const { page, problems } = await openPage(browser);
    await page.goto('/en/no-such-page');
    await hydrated(page);
    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.waitForURL(/\/en$/);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
