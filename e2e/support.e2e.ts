import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN } from './app-process';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, openPage, PHONE } from './browser';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signIn(page: Page, email: string, password: string) {
  const res = await page.context().request.post('/api/auth/sign-in/email', { headers: { Origin: baseUrl() }, data: { email, password } });
  expect(res.status()).toBe(200);
}

describe.skipIf(!hasChromium())('support, consultations and contact messages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a customer opens a ticket, the team replies from the inbox, and the reply appears without a reload', async () => {
    const customer = await openPage(browser, DESKTOP);
    const page = customer.page;
    const signUp = await page.context().request.post('/api/auth/sign-up/email', {
      headers: { Origin: baseUrl() },
      data: { name: 'Səbinə Rzayeva', email: `ticket-${unique()}@example.com`, password: 'Ticket-pass1!' },
    });
    expect(signUp.status()).toBe(200);

    await page.goto('/en/dashboard');
    await hydrated(page);
    await page.getByRole('tab', { name: 'Support' }).click();
    const tab = page.getByTestId('support-tab');
    await tab.waitFor();

    // The form refuses an empty ticket on the spot.
    await tab.getByRole('button', { name: 'New ticket' }).click();
    await tab.getByRole('button', { name: 'Open ticket' }).click();
    await tab.getByText('Enter a title').waitFor();
    await tab.getByText('Enter a description').waitFor();

    const title = `Views stuck ${unique()}`;
    await tab.getByLabel('Title').fill(title);
    await tab.getByLabel('Description').fill('My YouTube views order has not moved since yesterday. <script>alert(1)</script>');
    await tab.getByLabel('Priority').selectOption('high');
    await tab.getByRole('button', { name: 'Open ticket' }).click();
    await page.getByText('Your ticket has been opened').waitFor();
    await expect.poll(() => page.getByTestId('thread-title').textContent()).toBe(title);
    // Markup typed by a customer is shown as text.
    await tab.getByText('<script>alert(1)</script>', { exact: false }).first().waitFor();

    // Empty text cannot be sent; Enter sends.
    const box = tab.getByLabel('Your message');
    expect(await tab.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await box.fill('Order number AR-12345');
    await box.press('Enter');
    await tab.locator('li[data-admin="false"]').filter({ hasText: 'Order number AR-12345' }).waitFor();
    expect(await box.inputValue()).toBe('');

    // The team answers from the inbox.
    const team = await openPage(browser, DESKTOP);
    await signIn(team.page, E2E_ADMIN.email, E2E_ADMIN.password);
    await team.page.goto('/en/admin/support');
    await hydrated(team.page);
    await team.page.getByLabel('Search').fill(title);
    const row = team.page.getByTestId('admin-ticket-list').getByRole('button', { name: new RegExp(title) });
    await row.click();
    await expect.poll(() => team.page.getByTestId('admin-thread-title').textContent()).toBe(title);
    await team.page.locator('li[data-admin="false"]').filter({ hasText: 'Order number AR-12345' }).waitFor();
    const reply = `We restarted it — ${unique()}`;
    const replyBox = team.page.getByLabel('Your reply');
    await replyBox.fill(reply);
    await replyBox.press('Enter');
    await team.page.locator('li[data-admin="true"]').filter({ hasText: reply }).waitFor();

    // Live on the customer's page: the reply, on the team's side, without reloading.
    const navigations: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));
    await tab.locator('li[data-admin="true"]').filter({ hasText: reply }).waitFor();
    expect(navigations).toEqual([]);

    // A status change from the inbox reaches the customer too.
    await team.page.getByLabel('Status', { exact: true }).selectOption('resolved');
    await team.page.getByText('Status updated').waitFor();
    await tab.getByRole('button', { name: new RegExp(title) }).getByText('Resolved').waitFor();

    // And the other way: the customer writes again, the inbox shows it live and the ticket opens again.
    await box.fill('Thanks, it is moving now');
    await box.press('Enter');
    await team.page.locator('li[data-admin="false"]').filter({ hasText: 'Thanks, it is moving now' }).waitFor();
    await team.page.getByTestId('admin-ticket-list').getByRole('button', { name: new RegExp(title) }).getByText('Open').waitFor();

    expect(customer.problems, customer.problems.join('\n').slice(0, 3000)).toEqual([]);
    expect(team.problems).toEqual([]);
    await page.context().close();
    await team.page.context().close();
  });

  it('a guest sends the contact form; the team sees it as new, opening it marks it read, then replied', async () => {
    const guest = await openPage(browser, PHONE);
    await guest.page.goto('/en/contact');
    await hydrated(guest.page);
    const form = guest.page.getByTestId('contact-form');
    await form.getByRole('button', { name: 'Send message' }).click();
    await form.getByText('Enter your name').waitFor();
    await form.getByText('Enter a subject').waitFor();

    const subject = `Partnership ${unique()}`;
    await form.getByLabel('Name').fill('Kamran Əhmədov');
    await form.getByLabel('E-mail').fill('kamran@example.az');
    await form.getByLabel('Subject').fill(subject);
    await form.getByLabel('Message').fill('We would like to discuss a yearly SMM contract.');
    await form.getByRole('button', { name: 'Send message' }).click();
    await guest.page.getByText('Message sent').first().waitFor();
    expect(await form.getByLabel('Subject').inputValue()).toBe('');
    expect(guest.problems).toEqual([]);
    await guest.page.context().close();

    const team = await openPage(browser, DESKTOP);
    const page = team.page;
    await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto('/en/admin/contact-messages');
    await hydrated(page);
    const row = page.locator(`tr[data-message="${subject}"]`);
    await row.locator('[data-status="new"]').waitFor();
    const newBefore = Number(await page.locator('[data-count="new"]').textContent());

    await row.getByRole('button', { name: 'View' }).click();
    const detail = page.getByTestId('contact-detail');
    await detail.getByText('We would like to discuss a yearly SMM contract.').waitFor();
    await detail.locator('[data-status="read"]').waitFor();
    expect(await detail.getByRole('link', { name: 'Reply by e-mail' }).getAttribute('href')).toMatch(/^mailto:kamran@example\.az\?subject=Re%3A%20Partnership/);
    await detail.getByRole('button', { name: 'Mark as replied' }).click();
    await detail.locator('[data-status="replied"]').waitFor();
    expect(await detail.getByRole('button', { name: 'Mark as replied' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');

    await row.locator('[data-status="replied"]').waitFor();
    expect(await row.getByRole('button', { name: `Mark as replied: ${subject}` }).isDisabled()).toBe(true);
    await page.waitForFunction((n) => Number(document.querySelector('[data-count="new"]')?.textContent) === n - 1, newBefore);
    expect(team.problems).toEqual([]);
    await page.context().close();
  });

  it('a guest asking for a consultation is sent to sign in; a customer sends one and the team marks it handled', async () => {
    const guest = await openPage(browser, DESKTOP);
    await guest.page.goto('/en/services');
    await hydrated(guest.page);
    await guest.page.getByRole('button', { name: 'Get a consultation' }).nth(1).click();
    await guest.page.getByTestId('auth-dialog').waitFor();
    await guest.page.getByText('You need to sign in to send a consultation request').waitFor();
    expect(await guest.page.getByTestId('consultation-form').count()).toBe(0);
    await guest.page.context().close();

    const { page, problems } = await openPage(browser, PHONE);
    const email = `consult-${unique()}@example.com`;
    const signUp = await page.context().request.post('/api/auth/sign-up/email', {
      headers: { Origin: baseUrl() },
      data: { name: 'Fidan Babayeva', email, password: 'Consult-pass1!' },
    });
    expect(signUp.status()).toBe(200);
    await page.goto('/en/services');
    await hydrated(page);
    await page.getByRole('button', { name: 'Get a consultation' }).nth(1).click();
    const form = page.getByTestId('consultation-form');
    await form.waitFor();
    expect(await form.getByLabel('E-mail').inputValue()).toBe(email);
    await form.getByLabel('Phone').fill('050123');
    await form.getByLabel('Service').selectOption('');
    await form.getByRole('button', { name: 'Send request' }).click();
    await form.getByText('The phone number must be at least 10 characters').waitFor();
    await form.getByText('Choose a service').first().waitFor();
    await form.getByText('The message must be at least 10 characters').waitFor();
    await form.getByLabel('Phone').fill('+994 50 123 45 67');
    await form.getByLabel('Service').selectOption('seo');
    await form.getByLabel('Message').fill(`Need SEO for an online shop ${email}`);
    await form.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('Your request has been sent!').waitFor();
    await form.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await page.context().close();

    const team = await openPage(browser, DESKTOP);
    await signIn(team.page, E2E_ADMIN.email, E2E_ADMIN.password);
    await team.page.goto('/en/admin/consultations');
    await hydrated(team.page);
    const card = team.page.getByTestId('consultation-list').getByRole('listitem').filter({ hasText: email }).filter({ hasText: 'SEO service' });
    await card.getByRole('button', { name: 'Mark as handled' }).click();
    await team.page.getByText('Status updated').waitFor();
    await card.waitFor({ state: 'detached' });
    await team.page.getByLabel('Status').selectOption('handled');
    await team.page.getByTestId('consultation-list').getByRole('listitem').filter({ hasText: email }).getByText('Handled').waitFor();
    expect(team.problems).toEqual([]);
    await team.page.context().close();
  });
});
