import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ServiceList } from '../src/core/contracts/catalog';
import type { OrderView } from '../src/core/contracts/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN } from './app-process';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, openPage, PHONE } from './browser';
import { signUpWithBalance, unique } from './customers';


async function signIn(page: Page, email: string, password: string) {
  const res = await page.context().request.post('/api/auth/sign-in/email', { headers: { Origin: baseUrl() }, data: { email, password } });
  expect(res.status()).toBe(200);
}

/** Signs a new customer up in this context and gives them `micros` (USD micro-dollars) through the admin API. */
const customerWithBalance = (browser: Browser, context: BrowserContext, email: string, micros: number) =>
  signUpWithBalance(browser, context, { name: 'Nərmin Quliyeva', email, password: 'Ticket-pass1!', micros });

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

  it('a customer on a phone asks for a refill of an order in Azerbaijani, reads the answer in the thread; the team sees the order beside it', async () => {
    const { page, problems } = await openPage(browser, PHONE);
    const email = `refill-${unique()}@example.com`;
    await customerWithBalance(browser, page.context(), email, 50_000_000);
    const list = (await (await fetch(`${baseUrl()}/api/catalog/services?lang=az`)).json()) as ServiceList;
    const service = list.services.find((s) => s.refill && !s.hasParams && s.platform === 'instagram')!;
    expect(service).toBeDefined();
    const placed = await page.context().request.post('/api/orders', {
      headers: { Origin: baseUrl() },
      data: { serviceId: service.id, link: `https://www.instagram.com/p/refill${unique()}/`, quantity: service.min, params: {}, idempotencyKey: `ticket-${unique()}` },
    });
    expect(placed.status()).toBe(201);
    const order = (await placed.json()) as OrderView;
    // The sandbox delivers in about 30 s.
    const statusNow = async () => ((await (await page.context().request.get('/api/orders')).json()) as { orders: OrderView[] }).orders.find((o) => o.id === order.id)?.status;
    await expect.poll(statusNow, { timeout: 120_000, interval: 1000 }).toBe('completed');

    await page.goto('/az/dashboard#support');
    await hydrated(page);
    const tab = page.getByTestId('support-tab');
    await tab.waitFor();
    await tab.getByRole('button', { name: 'Yeni müraciət' }).click();
    // Orders named without a request kind are not possible: the order list comes with the request.
    expect(await tab.getByTestId('order-picker').count()).toBe(0);
    await tab.getByLabel('Müraciət nə ilə bağlıdır?').selectOption('refill');
    // A request without orders is refused on the spot.
    await tab.getByRole('button', { name: 'Müraciət yarat' }).click();
    await tab.getByText('Ən azı bir sifariş seçin').waitFor();
    expect(await tab.getByLabel('Başlıq').inputValue()).toBe('Sifarişlərimin bərpası');
    await tab.getByLabel('Sifarişlərinizdə axtarın').fill(order.number.slice(-6).toLowerCase());
    await tab.getByRole('checkbox', { name: new RegExp(`Sifariş ${order.number}`) }).check();
    await tab.getByText('1 seçilib (ən çox 50)').waitFor();
    await tab.getByRole('button', { name: 'Müraciət yarat' }).click();
    await page.getByText('Müraciətiniz yaradıldı').waitFor();

    // The answer, in the customer's language, in the thread: the refill was asked of the provider.
    const answer = tab.getByTestId('ticket-outcomes').locator(`li[data-result="done"]`).filter({ hasText: order.number });
    await answer.waitFor();
    expect(await answer.textContent()).toContain('provayderdən bərpa istənildi');
    await tab.getByTestId('ticket-about').filter({ hasText: order.number }).waitFor();
    await tab.getByText('Cavablandırılıb').locator('visible=true').first().waitFor();
    expect(problems).toEqual([]);
    await page.context().close();

    // The team finds it by the customer's e-mail and sees the order beside the thread.
    const team = await openPage(browser, DESKTOP);
    await signIn(team.page, E2E_ADMIN.email, E2E_ADMIN.password);
    await team.page.goto('/en/admin/support');
    await hydrated(team.page);
    await team.page.getByLabel('Search').fill(email);
    await team.page.getByTestId('admin-ticket-list').getByRole('button', { name: /Sifarişlərimin bərpası/ }).click();
    const orders = team.page.getByTestId('ticket-orders');
    await orders.waitFor();
    const link = orders.getByRole('link', { name: `Open order ${order.number} in the order list` });
    expect(await link.getAttribute('href')).toBe(`/en/admin/orders?q=${order.number}`);
    await orders.getByText('Completed').waitFor();
    await orders.getByText('Provider order ID').waitFor();
    await team.page.getByTestId('ticket-outcomes').getByText(`${order.number}: a refill was requested from the provider.`).waitFor();
    await link.click();
    await team.page.waitForURL((u) => u.pathname === '/en/admin/orders' && u.searchParams.get('q') === order.number);
    expect(team.problems).toEqual([]);
    await team.page.context().close();
  }, 240_000);

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
