import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/server/testing/totp';
import { E2E_ADMIN } from './app-process';
import { baseUrl, hasChromium, hydrated, launch, openPage } from './browser';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe.skipIf(!hasChromium())('two-factor sign-in', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a team member turns it on from the admin area, signs out, signs in with a code from the app and reaches the admin area', async () => {
    const origin = { Origin: baseUrl() };
    const email = `two-factor-${unique()}@example.com`;
    const password = 'Team-member-pass1!';

    // A new account, made a moderator by the admin.
    const { page, problems } = await openPage(browser);
    const signUp = await page.context().request.post('/api/auth/sign-up/email', { headers: origin, data: { name: 'Nərmin Əliyeva', email, password } });
    expect(signUp.status()).toBe(200);
    const { user } = (await signUp.json()) as { user: { id: string } };
    const { page: admin } = await openPage(browser);
    expect((await admin.context().request.post('/api/auth/sign-in/email', { headers: origin, data: E2E_ADMIN })).status()).toBe(200);
    expect((await admin.context().request.post(`/api/admin/users/${user.id}/roles`, { headers: origin, data: { role: 'moderator' } })).status()).toBe(201);
    await admin.context().close();
    // The role is read on a fresh session.
    expect((await page.context().request.post('/api/auth/sign-out', { headers: origin, data: {} })).status()).toBe(200);
    expect((await page.context().request.post('/api/auth/sign-in/email', { headers: origin, data: { email, password } })).status()).toBe(200);

    // Outside production the admin area opens, and offers the second factor.
    await page.goto('/en/admin');
    await hydrated(page);
    await page.getByRole('heading', { name: 'Your sections' }).waitFor();
    const offer = page.getByTestId('two-factor-offer');
    await offer.getByRole('button', { name: 'Set it up' }).click();
    await offer.getByRole('button', { name: 'Turn on' }).click();
    await offer.getByLabel('Confirm with your password').fill(password);
    await offer.getByRole('button', { name: 'Continue' }).click();

    // The authenticator's address as a QR code, a link and its key in groups of four; a first code turns it on.
    const setup = offer.getByTestId('two-factor-setup');
    await setup.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    const uri = (await setup.getByTestId('totp-uri').getAttribute('href'))!;
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(await setup.getByTestId('totp-secret').textContent()).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    await setup.getByLabel('Code from the app').fill(totpCode(uri));
    await setup.getByRole('button', { name: 'Confirm' }).click();
    const codes = offer.getByTestId('recovery-codes');
    await codes.waitFor();
    expect(await codes.getByTestId('recovery-code').count()).toBe(10);
    await codes.getByRole('button', { name: 'I have saved them' }).click();
    await offer.getByText('Two-factor sign-in is on.').waitFor();

    // Signed out, the password alone is not enough: the code from the app signs in. The admin page
    // is left first: signing out under it would let its live parts meet a 401 (a refetch, a reconnect).
    await page.goto('about:blank');
    expect((await page.context().request.post('/api/auth/sign-out', { headers: origin, data: {} })).status()).toBe(200);
    await page.goto('/auth');
    await hydrated(page);
    const form = page.locator('main');
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    const step = form.getByTestId('two-factor-step');
    await step.getByText('Enter the code').waitFor();
    await step.getByLabel('Code from the app').fill(totpCode(uri));
    await step.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/dashboard'));

    // The admin area opens without the offer now.
    await page.goto('/en/admin');
    await hydrated(page);
    await page.getByRole('heading', { name: 'Your sections' }).waitFor();
    expect(await page.getByTestId('two-factor-offer').count()).toBe(0);

    // The account page lists the sign-in with its device and how it was passed.
    await page.goto('/en/dashboard#settings');
    await hydrated(page);
    await page.getByRole('tab', { name: 'Security' }).click();
    const signIns = page.getByTestId('sign-ins');
    await signIns.waitFor();
    await expect.poll(() => signIns.getByTestId('sign-in').first().textContent()).toMatch(/Chrome on Linux.*Password and app code/);

    expect(problems).toEqual([]);

    // The team sees the member's sign-ins and second factor on the users page.
    const { page: team, problems: teamProblems } = await openPage(browser);
    expect((await team.context().request.post('/api/auth/sign-in/email', { headers: origin, data: E2E_ADMIN })).status()).toBe(200);
    await team.goto('/en/admin/users');
    await hydrated(team);
    await team.getByLabel('Search users').fill(email);
    await expect.poll(() => team.getByTestId('user-row').count()).toBe(1);
    await team.getByTestId('user-row').getByRole('button', { name: `Actions for ${email}` }).click();
    await team.getByRole('menuitem', { name: 'Sign-ins' }).click();
    const dialog = team.getByRole('dialog', { name: `Recent sign-ins: ${email}` });
    await dialog.getByText('Two-factor sign-in: on').waitFor();
    expect(await dialog.getByTestId('sign-in').first().textContent()).toMatch(/Chrome on Linux.*Password and app code/);

    // The member lost the phone and the codes: the admin removes the factor, with a reason.
    await dialog.getByRole('button', { name: `Remove the second factor of ${email}` }).click();
    const confirm = team.getByRole('dialog', { name: 'Remove the second factor?' });
    await confirm.getByLabel('Reason').fill('Lost phone and recovery codes; checked by a call');
    await confirm.getByRole('button', { name: 'Remove second factor' }).click();
    await dialog.getByText('Two-factor sign-in: off').waitFor();
    expect(teamProblems).toEqual([]);

    // The member was signed out, and the password alone signs in again.
    expect((await (await page.context().request.get('/api/me')).json()).user).toBeNull();
    const again = await page.context().request.post('/api/auth/sign-in/email', { headers: origin, data: { email, password } });
    expect(((await again.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBeUndefined();
    expect((await (await page.context().request.get('/api/me')).json()).user).toMatchObject({ email, twoFactorEnabled: false });
  });
});
