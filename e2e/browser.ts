import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS } from './chromium';

/** This file's lane's app: the worker's pool id picks one of the apps global-setup started. */
export const baseUrl = () => {
  const urls = inject('baseUrls');
  return urls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % urls.length]!;
};
export const hasChromium = () => inject('chromiumPath') !== null;

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: inject('chromiumPath')!, args: CHROMIUM_ARGS });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

let visitors = 0;
/**
 * Each browser context is its own visitor: the app runs behind one trusted proxy here
 * (TRUST_PROXY_HOPS=1, e2e/global-setup.ts), and every context arrives from its own address, as
 * customers do. Otherwise every journey would share the per-address limits (10 sign-ups in 15
 * minutes) of one loopback address.
 */
export const visitorHeaders = () => {
  visitors += 1;
  return { 'x-forwarded-for': `198.18.${(process.pid + visitors) % 250}.${visitors % 250}` };
};

/** A fresh page that records console errors and failed requests, so a journey can assert none. */
export async function openPage(browser: Browser, viewport = DESKTOP): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), locale: 'en-US', extraHTTPHeaders: visitorHeaders() });
  // Waits for what the page shows, for as long as a busy machine may need.
  context.setDefaultTimeout(60_000);
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

/**
 * Waits until React has hydrated the server-rendered page — on a public page, its islands that
 * wait to be touched too (docs/decisions/0027): they are woken as a first touch in each would, so
 * that a journey's next step meets live components — and until its later parts are in place (the
 * price list's rest). What happens before they are live is e2e/early-input.e2e.ts's.
 */
export async function hydrated(page: Page) {
  const live = () => page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  await live();
  const woken = await page.evaluate(() => {
    const asleep = [...document.querySelectorAll('[data-island-wake="touched"]:not([data-hydrated])')];
    for (const el of asleep) window.__artimWake?.(el);
    return asleep.length;
  });
  if (woken > 0) await live();
  // A page's later parts (src/web/islands/laterParts.ts) are in place.
  await page.waitForFunction(() => !document.querySelector('[data-later]'));
}
