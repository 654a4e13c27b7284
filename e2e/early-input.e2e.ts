import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, hydrated, launch, openPage, PHONE } from './browser';

/**
 * Nothing a visitor does between the first paint and hydration is lost (islands/capture.ts and
 * islands/replay.ts): on a slow phone (CPU ×6) whose page script arrives late, a click on "Sign
 * in" still opens the dialog, the menu opens at the tap, a menu opened and walked with the keys
 * opens where the keys left it, and a form filled and sent before its island is live is sent with
 * what was typed. And a page whose islands wait to be touched
 * (docs/decisions/0027) loads no React until one is.
 */
async function slowPhone(browser: Browser, viewport = PHONE): Promise<{ page: Page; problems: string[]; release: () => void }> {
  const opened = await openPage(browser, viewport);
  const cdp = await opened.page.context().newCDPSession(opened.page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  // The page script arrives late, as on a slow connection: only once the test has done what the
  // visitor does first (`release`), however long the machine takes to do it.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await opened.page.route(/\/(assets\/islands-[^/]+\.js|entry-islands\.tsx)$/, async (route) => {
    await released;
    await route.continue();
  });
  // Each click and submit, as it happens, notes whether the page had hydrated by then.
  await opened.page.addInitScript(() => {
    const w = window as unknown as { early: string[] };
    w.early = [];
    const note = (e: Event) => {
      if (document.documentElement.dataset.hydrated !== 'true') w.early.push(`${e.type}:${(e.target as Element).closest('button')?.getAttribute('aria-label') ?? (e.target as Element).textContent?.trim().slice(0, 30)}`);
    };
    document.addEventListener('click', note, true);
    document.addEventListener('submit', note, true);
  });
  return { ...opened, release };
}

const early = (page: Page) => page.evaluate(() => (window as unknown as { early: string[] }).early);

/** Opens `path` until the page is live; the paths of the scripts it asks for, then and later. */
async function openWithScripts(page: Page, path: string): Promise<string[]> {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(path, { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  return scripts;
}

describe.skipIf(!hasChromium())('before hydration', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a click on Sign in before the header is live opens the sign-in dialog once it is', async () => {
    const { page, problems, release } = await slowPhone(browser, DESKTOP);
    await page.goto('/en', { waitUntil: 'commit' });
    const signIn = page.getByRole('banner').getByRole('button', { name: 'Sign in' });
    await signIn.waitFor();
    await signIn.click();
    // Held: the header shows it is busy while its code arrives (islands/capture.ts), and stops once live.
    expect(await page.locator('[data-island="Header"]').getAttribute('aria-busy')).toBe('true');
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-waking'))).toBe(true);
    release();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    await hydrated(page);
    expect(await early(page)).toContain('click:Sign in');
    expect(await page.locator('[data-island="Header"]').getAttribute('aria-busy')).toBeNull();
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-waking'))).toBe(false);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('on a phone, the menu opens at the tap before the header is live, and stays open (and closes) once it is', async () => {
    const { page, problems, release } = await slowPhone(browser);
    await page.goto('/en', { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    // Open at once, by the page's first script, while the page script is still on its way.
    expect(
      await page.evaluate(() => ({
        hydrated: document.querySelector('[data-island="Header"]')!.hasAttribute('data-hydrated'),
        menu: !document.getElementById('mobile-menu')!.hidden,
        expanded: document.querySelector('header button[aria-controls="mobile-menu"]')!.getAttribute('aria-expanded'),
      })),
    ).toEqual({ hydrated: false, menu: true, expanded: 'true' });
    release();
    await hydrated(page);
    expect(await early(page)).toContain('click:Open menu');
    // The replayed tap set the header's state to what was on the screen: open, and closed by its button.
    await expect.poll(() => page.getByRole('navigation', { name: 'Mobile navigation' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Mobile navigation' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('the language list opened with Enter and walked with an arrow before the header is live opens there, on the language the arrow reached', async () => {
    const { page, problems, release } = await slowPhone(browser, DESKTOP);
    await page.goto('/en/about', { waitUntil: 'commit' });
    const button = page.getByRole('button', { name: /^Language: English/ });
    await button.waitFor();
    await button.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('[data-island="Header"]').getAttribute('data-hydrated')).toBeNull();
    release();
    await hydrated(page);
    expect((await early(page)).some((e) => e.startsWith('click:Language: English'))).toBe(true);
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Azərbaycanca');
    // And live now: Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape');
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('false');
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('a message typed (and sent) before the contact form is live is kept and sent as typed', async () => {
    const { page, problems, release } = await slowPhone(browser);
    await page.goto('/en/contact', { waitUntil: 'commit' });
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Send message' }) });
    await form.waitFor();
    await form.getByLabel('Name', { exact: false }).first().fill('Leyla Hüseynova');
    await form.getByLabel('E-mail', { exact: false }).first().fill('leyla@example.com');
    await form.getByLabel('Subject', { exact: false }).first().fill('Early bird');
    await form.getByLabel('Message', { exact: false }).first().fill('Typed before the page came alive.');
    await form.getByRole('button', { name: 'Send message' }).click();
    release();
    await hydrated(page);
    expect(await early(page)).toEqual(expect.arrayContaining(['click:Send message']));
    // Sent: the form thanks the visitor, and no field was found empty on the way.
    await expect.poll(() => page.getByText('Message sent').first().isVisible()).toBe(true);
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('a public page loads no React until the header is touched; the first click on Sign in wakes it and opens the dialog', async () => {
    const { page, problems } = await openPage(browser, DESKTOP);
    const scripts = await openWithScripts(page, '/en');
    // Idle after load, and then some: nothing more is asked for without input.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 500))));
    expect(scripts.filter((path) => /\/frame-[^/]+\.js$/.test(path))).toEqual([]);
    expect(await page.locator('[data-island="Header"]').getAttribute('data-hydrated')).toBeNull();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    expect(scripts.some((path) => /\/frame-[^/]+\.js$/.test(path))).toBe(true);
    expect(await page.locator('[data-island="Header"]').getAttribute('data-hydrated')).toBe('');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('a touch that wakes the header of a signed-out visitor fetches the sign-in dialog then, before Sign in is tapped', async () => {
    const { page, problems } = await openPage(browser, PHONE);
    const scripts = await openWithScripts(page, '/en');
    const dialogCode = () => scripts.filter((path) => /\/AuthDialog-[^/]+\.js$/.test(path));
    expect(dialogCode()).toEqual([]);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect.poll(() => page.locator('[data-island="Header"]').getAttribute('data-hydrated')).toBe('');
    await expect.poll(() => dialogCode().length).toBe(1);
    await page.getByRole('navigation', { name: 'Mobile navigation' }).waitFor();
    await page.getByRole('button', { name: 'Sign in' }).first().click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    expect(dialogCode()).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('a guest asking for a consultation while the header sleeps gets the sign-in dialog the header holds', async () => {
    const { page, problems } = await openPage(browser, DESKTOP);
    await openWithScripts(page, '/en/services');
    expect(await page.locator('[data-island="Header"]').getAttribute('data-hydrated')).toBeNull();
    await page.getByRole('button', { name: 'Get a consultation' }).nth(1).click();
    // The consultation button woke; it asked the header, which opens the dialog as it wakes.
    await expect.poll(() => page.getByTestId('auth-dialog').isVisible()).toBe(true);
    expect(await page.locator('[data-island="Header"]').getAttribute('data-hydrated')).toBe('');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('the order page is a page of islands: its form wakes at load without the app, and a guest’s Buy Now opens the sign-in dialog', async () => {
    const { page, problems } = await openPage(browser, PHONE);
    const asked: string[] = [];
    page.on('request', (request) => void (request.resourceType() === 'fetch' && asked.push(new URL(request.url()).pathname)));
    const scripts = await openWithScripts(page, '/en/order?platform=instagram');
    await page.locator('#order-service').waitFor();
    // The service list came with the page (docs/decisions/0033): the form does not ask for it.
    expect(asked.filter((path) => path === '/api/catalog/services')).toEqual([]);
    expect(await page.locator('#order-service option').count()).toBeGreaterThan(1);
    expect(await page.locator('[data-island="Order"]').getAttribute('data-hydrated')).toBe('');
    // The loader, the runtime with React (`frame`), the page and the form it shares with the
    // dashboard: none of the app's chunks. What the form shows of a chosen service may come too,
    // fetched when the browser is idle.
    const later = ['ServiceInfo', 'refill'];
    const names = scripts.map((path) => /\/assets\/([a-z]+)-[^/]+\.js$/i.exec(path)?.[1] ?? path);
    expect(names.filter((name) => !later.includes(name)).sort()).toEqual(['OrderPage', 'frame', 'islands', 'orderForm']);
    await page.locator('#order-service').selectOption({ index: 1 });
    await page.locator('#order-link').fill('https://www.instagram.com/p/C8xYz12AbCd/');
    await page.getByRole('button', { name: 'Buy Now' }).click();
    // On a phone the sign-in dialog is a sheet.
    await expect.poll(() => page.getByTestId('auth-sheet').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('the header wakes by itself when the home page’s address asks for the sign-in dialog', async () => {
    const { page, problems } = await openPage(browser, DESKTOP);
    await page.goto('/en?auth=required', { waitUntil: 'load' });
    // No input: the header woke at idle because of `auth` in the address, and opened the dialog.
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(await page.locator('[data-island="Header"]').getAttribute('data-hydrated')).toBe('');
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    await page.waitForURL((url) => url.search === '');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);
});
