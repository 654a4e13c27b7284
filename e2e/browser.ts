import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS } from './chromium';

export const baseUrl = () => inject('baseUrl');
export const hasChromium = () => inject('chromiumPath') !== null;

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: inject('chromiumPath')!, args: CHROMIUM_ARGS });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** A fresh page that records console errors and failed requests, so a journey can assert none. */
export async function openPage(browser: Browser, viewport = DESKTOP): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), locale: 'en-US' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // A page answered with 404 on purpose (the not-found page) logs its own status; that is not a problem.
    if (msg.text().includes('status of 404') && msg.location().url === page.url()) return;
    problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  return { page, problems };
}

/** Waits until React has hydrated the server-rendered page. */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}
