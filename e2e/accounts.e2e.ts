import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN } from './app-process';
import { baseUrl, hasChromium, hydrated, launch, openPage, PHONE } from './browser';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signUpInOpenDialog(page: Page, testId: 'auth-dialog' | 'auth-sheet', fullName: string, email: string, password: string) {
  const dialog = page.getByTestId(testId);
  await dialog.waitFor();
  await dialog.getByRole('tab', { name: 'Sign up' }).click();
  await dialog.getByLabel('Full name').fill(fullName);
  await dialog.getByLabel('E-mail').fill(email);
  // A weak password is named as such while typing, and the form cannot be sent with it.
  await dialog.getByLabel('Password', { exact: true }).fill('abcdef');
  await dialog.getByText('Weak password').waitFor();
  expect(await dialog.getByRole('button', { name: 'Sign up' }).isDisabled()).toBe(true);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByText('Weak password').waitFor({ state: 'detached' });
  await dialog.locator('[data-testid="email-state"][data-state="available"]').waitFor();
  await dialog.getByRole('button', { name: 'Sign up' }).click();
  await page.getByText(`Welcome, ${fullName}!`).first().waitFor();
  await dialog.waitFor({ state: 'detached' });
}

describe.skipIf(!hasChromium())('accounts', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs up from the dialog, signs out and in, recovers the password by mail and changes it in settings', async () => {
    const { page, problems } = await openPage(browser);
    const email = `journey-${unique()}@example.com`;
    const fullName = 'Leyla Həsənova';
    await page.goto('/en');
    await hydrated(page);

    // Sign up from the centred dialog.
    await page.getByRole('button', { name: 'Sign in' }).first().click();
    await signUpInOpenDialog(page, 'auth-dialog', fullName, email, 'First-pass1!');
    await page.getByRole('link', { name: 'Dashboard' }).first().waitFor();

    // The server renders pages for the signed-in customer: before any script runs, the header
    // already shows the account, never "Sign in".
    const noScript = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false, storageState: await page.context().storageState() });
    const plain = await noScript.newPage();
    for (const path of ['/en', '/en/services', '/en/contact']) {
      await plain.goto(path);
      await plain.locator('header').getByRole('link', { name: 'Dashboard' }).first().waitFor({ state: 'attached' });
      expect(await plain.locator('header').getByRole('button', { name: 'Sign in' }).count(), path).toBe(0);
    }
    await noScript.close();

    // Sign out: the browser goes to the site root, which sends it back to /en — the address it was
    // already on, so the new page is waited for by its navigation, not by its address.
    const leaving = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await leaving;
    await page.waitForURL((url) => url.pathname === '/en');
    await hydrated(page);
    await page.getByRole('button', { name: 'Sign in' }).first().waitFor();

    // Sign in again.
    await page.getByRole('button', { name: 'Sign in' }).first().click();
    const dialog = page.getByTestId('auth-dialog');
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByLabel('Password').fill('First-pass1!');
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Dashboard' }).first().waitFor();

    // Ask for a reset link; read it in the development mailbox.
    await page.goto('/reset-password');
    await hydrated(page);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').filter({ hasText: 'link to set a new password' }).waitFor();

    // The development mailbox is the admin's: read it signed in as the admin, in another browser.
    const team = await openPage(browser);
    const adminSignIn = await team.page.context().request.post('/api/auth/sign-in/email', { headers: { Origin: baseUrl() }, data: E2E_ADMIN });
    expect(adminSignIn.status()).toBe(200);
    await team.page.goto('/dev/mailbox');
    await hydrated(team.page);
    await team.page.getByRole('button', { name: new RegExp(email) }).first().click();
    const link = await team.page.getByRole('link', { name: 'Open the link' }).getAttribute('href');
    await team.page.context().close();
    expect(team.problems).toEqual([]);
    // A customer who opens the mailbox is refused.
    expect((await page.request.get('/api/dev/mailbox')).status()).toBe(403);
    await page.goto(link!);
    await page.waitForURL(/\/password-recovery\?token=/);
    await hydrated(page);

    // Mismatch keeps the button disabled; a matching strong password is saved, then /auth.
    await page.getByLabel('New password').fill('Second-pass2!');
    await page.getByLabel('Repeat the password').fill('Second-pass2?');
    await page.getByText('The passwords do not match').waitFor();
    expect(await page.getByRole('button', { name: 'Update the password' }).isDisabled()).toBe(true);
    await page.getByLabel('Repeat the password').fill('Second-pass2!');
    await page.getByRole('button', { name: 'Update the password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password has been updated' }).waitFor();
    await page.waitForURL((url) => url.pathname === '/auth');
    await hydrated(page);

    // The new password signs in (the reset ended the old sessions) and leads to the dashboard.
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('Second-pass2!');
    await page.locator('main').getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/en\/dashboard$/);
    await page.getByTestId('dashboard-welcome').filter({ hasText: fullName }).waitFor();

    // Change the password in settings.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByLabel('Current password').fill('Second-pass2!');
    await page.getByLabel('New password').fill('Third-pass3!');
    await page.getByLabel('Repeat the password').fill('Third-pass3!');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByText('Your password has been changed').waitFor();
    const check = await page.evaluate(async (mail) => {
      const res = await fetch('/api/auth/sign-in/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: mail, password: 'Third-pass3!' }),
      });
      return res.status;
    }, email);
    expect(check).toBe(200);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('signs up from the bottom sheet on a phone, opened by ?auth=required on the home page', async () => {
    const { page, problems } = await openPage(browser, PHONE);
    const fullName = 'Murad Əliyev';
    await page.goto('/en?auth=required');
    await hydrated(page);
    const sheet = page.getByTestId('auth-sheet');
    await sheet.waitFor();
    await page.waitForURL((url) => url.search === '');
    const box = await page.getByRole('dialog').boundingBox();
    expect(Math.round(box!.height)).toBe(Math.round(PHONE.height * 0.95));
    await signUpInOpenDialog(page, 'auth-sheet', fullName, `phone-${unique()}@example.com`, 'Phone-pass1!');
    await page.goto('/en/dashboard');
    await page.getByTestId('dashboard-welcome').filter({ hasText: fullName }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('on a phone, the sign-in sheet closes the menu it was opened from, and every dashboard tab is on the screen', async () => {
    const { page, problems } = await openPage(browser, PHONE);
    await page.goto('/en');
    await hydrated(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    await menu.waitFor();
    await menu.getByRole('button', { name: 'Sign in' }).click();
    const sheet = page.getByTestId('auth-sheet');
    await sheet.waitFor();
    expect(await menu.isHidden()).toBe(true);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    expect(await menu.isHidden()).toBe(true);

    // Signed up on a page of the app (the API documentation), whose links to the dashboard are
    // client navigations that keep the notice on screen (a page of islands, as the home page or
    // the order page, would load the dashboard afresh).
    await page.goto('/en/api');
    await hydrated(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('button', { name: 'Sign in' }).click();
    await signUpInOpenDialog(page, 'auth-sheet', 'Nigar Quliyeva', `tabs-${unique()}@example.com`, 'Phone-pass2!');
    // Straight on to the dashboard and the top-up dialog while the welcome notice is still up:
    // the notice must not cover the dialog.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(/\/en\/dashboard$/);
    await page.getByRole('button', { name: 'Top up balance' }).first().click();
    const welcome = page.locator('[data-sonner-toast]').filter({ hasText: 'Welcome' });
    await welcome.waitFor();
    const overlapping = async () => {
      const dialogBox = (await page.getByRole('dialog').boundingBox())!;
      const note = (await page.locator('[data-sonner-toast]').first().boundingBox())!;
      return !(note.y >= dialogBox.y + dialogBox.height || note.y + note.height <= dialogBox.y) && JSON.stringify({ note, dialogBox });
    };
    expect(await overlapping()).toBe(false);
    await page.keyboard.press('Escape');
    const tabs = page.getByRole('tablist').first();
    // Every tab is on the phone's screen (they wrap into rows): none waits behind a hidden swipe.
    const boxes = await tabs.getByRole('tab').evaluateAll((all) => all.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
    expect(boxes.length).toBeGreaterThan(4);
    for (const b of boxes) expect(b.x >= 0 && b.x + b.width <= PHONE.width).toBe(true);
    await tabs.getByRole('tab', { name: 'Settings' }).click();
    await expect.poll(() => tabs.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');

    // A notification raised while the top-up dialog is open (here: the card page could not be
    // created) never covers the dialog's title or close button.
    await page.route('**/api/payments/topup', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ error: { code: 'PAYMENT_NOT_CREATED', message: 'x' } }) }),
    );
    await page.getByRole('button', { name: 'Top up balance' }).first().click();
    const topUp = page.getByRole('dialog');
    await topUp.getByRole('button', { name: 'Continue to payment' }).click();
    await topUp.getByRole('button', { name: /^Pay / }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Payment error' }).first().waitFor();
    expect(await overlapping()).toBe(false);
    await page.unroute('**/api/payments/topup');
    expect(problems.filter((p) => !p.includes('status of 502'))).toEqual([]);
    await page.context().close();
  });

  it('sends signed-out visitors of the dashboard home with the sign-in dialog, and shows non-admins the forbidden page', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto('/en/dashboard');
    await hydrated(page);
    await page.getByTestId('auth-dialog').waitFor();
    expect(new URL(page.url()).pathname).toBe('/en');
    await signUpInOpenDialog(page, 'auth-dialog', 'Not An Admin', `nonadmin-${unique()}@example.com`, 'Plain-pass1!');
    await page.goto('/admin');
    await hydrated(page);
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await page.waitForURL(/\/en\/dashboard$/);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
