import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicService } from '../src/core/contracts/catalog';
import { SERVICE_GROUPS } from '../src/core/platforms';
import { microsToDecimal } from '../src/core/money';
import { applyNameRules } from '../src/core/serviceNames';
import { formatMoney } from '../src/web/lib/format';
import { E2E_ADMIN } from './app-process';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, openPage, PHONE } from './browser';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signInAdmin(page: Page) {
  const res = await page.context().request.post('/api/auth/sign-in/email', { headers: { Origin: baseUrl() }, data: E2E_ADMIN });
  expect(res.status()).toBe(200);
}

async function json<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

/** The browser logs a refused request as a console error; drop the one a step provoked on purpose. */
function forgetRefusal(problems: string[], status: number) {
  const at = problems.findIndex((p) => p.includes(`status of ${status}`));
  expect(at, `expected a ${status} answer`).toBeGreaterThanOrEqual(0);
  problems.splice(at, 1);
}

/** The row of a table (desktop) that holds `text`. */
const row = (page: Page, testId: string, text: string) => page.getByTestId(testId).filter({ hasText: text });

describe.skipIf(!hasChromium())('admin area', () => {
  let browser: Browser;
  let admin: Page;
  let adminProblems: string[];
  let customer: Page;
  const customerEmail = `admin-journey-${unique()}@example.com`;

  beforeAll(async () => {
    browser = await launch();
    ({ page: admin, problems: adminProblems } = await openPage(browser, DESKTOP));
    await signInAdmin(admin);
    ({ page: customer } = await openPage(browser, DESKTOP));
    const signUp = await customer.context().request.post('/api/auth/sign-up/email', {
      headers: { Origin: baseUrl() },
      data: { name: 'Rəşad Quliyev', email: customerEmail, password: 'Customer-pass1!' },
    });
    expect(signUp.status()).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('changes the service fee in settings and the customer’s catalogue price follows', async () => {
    const request = customer.context().request;
    const before = await json<{ services: PublicService[]; fees: { serviceFeePercent: number } }>(request, '/api/catalog/services?lang=en');
    const target = before.services.find((s) => s.displayPrice && Number(s.displayPrice) >= 0.1)!;
    expect(target).toBeDefined();
    const oldFee = before.fees.serviceFeePercent;
    const newFee = oldFee === 37.5 ? 12.5 : 37.5;

    await admin.goto('/en/admin/settings');
    await hydrated(admin);
    const field = admin.getByLabel('Service fee (%)');
    await expect.poll(() => field.inputValue()).toBe(String(oldFee));
    await field.fill(String(newFee));
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText('Settings saved').first().waitFor();

    const after = await json<{ services: PublicService[]; fees: { serviceFeePercent: number } }>(request, '/api/catalog/services?lang=en');
    expect(after.fees.serviceFeePercent).toBe(newFee);
    const changed = after.services.find((s) => s.id === target.id)!;
    // The shown price carries the fee: price × (100 + fee) / 100, rounded up to 5 decimals.
    const base = Number(target.displayPrice) / (1 + oldFee / 100);
    expect(Number(changed.displayPrice)).toBeCloseTo(base * (1 + newFee / 100), 3);
    expect(changed.displayPrice).not.toBe(target.displayPrice);

    // Put the fee back for the other journeys.
    await field.fill(String(oldFee));
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(async () => (await json<{ fees: { serviceFeePercent: number } }>(request, '/api/catalog/services?lang=en')).fees.serviceFeePercent).toBe(oldFee);
    expect(adminProblems).toEqual([]);
  });

  it('settings: a number off its step is refused in the admin’s language, and the stat cards keep each figure whole', async () => {
    const { page, problems } = await openPage(browser, DESKTOP);
    await signInAdmin(page);
    await page.goto('/az/admin/settings');
    await hydrated(page);
    const fee = page.getByLabel('Xidmət haqqı (%)');
    await expect.poll(() => fee.inputValue()).not.toBe('');
    const before = await fee.inputValue();
    await fee.fill('12.55');
    await page.getByLabel('Baza haqqı (USD)').fill('0.375');
    await page.getByRole('button', { name: 'Tənzimləmələri yadda saxla' }).click();
    await page.getByText('Dəyər 0,1 addımı ilə olmalıdır, məsələn 12,5 və ya 12,6.').waitFor();
    await page.getByText('Dəyər 0,01 addımı ilə olmalıdır, məsələn 0,37 və ya 0,38.').waitFor();
    expect((await json<{ service_fee: number }>(page.context().request, '/api/admin/settings')).service_fee).toBe(Number(before));
    // Each figure on one line, inside its card, at 1280 px.
    await page.locator('[data-stat-value]').first().waitFor();
    const broken = await page.$$eval('[data-stat-value]', (els) =>
      els
        .filter((el) => {
          const card = el.parentElement!.parentElement!.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          return box.height > 1.5 * parseFloat(getComputedStyle(el).lineHeight) || box.right > card.right + 0.5;
        })
        .map((el) => el.textContent),
    );
    expect(broken).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('users: the table fits at 1280 px in each language, and each row’s actions open from one menu', async () => {
    const { page, problems } = await openPage(browser, DESKTOP);
    await signInAdmin(page);
    for (const lang of ['az', 'tr', 'en']) {
      await page.goto(`/${lang}/admin/users`);
      await hydrated(page);
      const table = page.getByTestId('user-row').first();
      await table.waitFor();
      const region = page.locator('[role="region"]').filter({ has: page.getByTestId('user-row') });
      expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth), lang).toBeLessThanOrEqual(0);
    }
    await page.goto('/en/admin/users');
    await hydrated(page);
    await page.getByLabel('Search users').fill(customerEmail);
    const user = row(page, 'user-row', customerEmail);
    await user.getByRole('button', { name: `Actions for ${customerEmail}` }).focus();
    await page.keyboard.press('Enter');
    const items = await page.getByRole('menu').locator('[role^="menuitem"]').allTextContents();
    expect(items).toEqual(['Sign-ins', 'Payments', 'API access', 'Add role', 'Adjust the balance', 'Discount and group']);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Actions for ${customerEmail}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('adds a role, refuses to add it twice, removes it by its badge, and keeps the last admin', async () => {
    await admin.goto('/en/admin/users');
    await hydrated(admin);
    await admin.getByLabel('Search users').fill(customerEmail);
    const user = row(admin, 'user-row', customerEmail);
    await expect.poll(() => admin.getByTestId('user-row').count()).toBe(1);
    await user.waitFor();

    await user.getByRole('button', { name: `Actions for ${customerEmail}` }).click();
    await admin.getByRole('menuitem', { name: 'Add role' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Add a role' });
    await dialog.getByLabel('Role').selectOption('moderator');
    await dialog.getByRole('button', { name: 'Add role' }).click();
    await admin.getByText('Role added').first().waitFor();
    await user.getByRole('button', { name: `Remove the Moderator role from ${customerEmail}` }).waitFor();

    // The same role again: an info notice, nothing sent.
    await user.getByRole('button', { name: `Actions for ${customerEmail}` }).click();
    await admin.getByRole('menuitem', { name: 'Add role' }).click();
    await dialog.getByLabel('Role').selectOption('moderator');
    await dialog.getByRole('button', { name: 'Add role' }).click();
    await admin.getByText('The user already has this role').first().waitFor();
    await admin.keyboard.press('Escape');

    await user.getByRole('button', { name: `Remove the Moderator role from ${customerEmail}` }).click();
    await admin.getByRole('dialog', { name: 'Remove the role?' }).getByRole('button', { name: 'Remove role' }).click();
    await admin.getByText('Role removed').first().waitFor();
    await user.getByRole('button', { name: `Remove the Moderator role from ${customerEmail}` }).waitFor({ state: 'detached' });
    const listed = await json<{ users: { email: string; roles: string[] }[] }>(admin.context().request, `/api/admin/users?q=${encodeURIComponent(customerEmail)}`);
    expect(listed.users[0]?.roles).toEqual(['user']);

    // The only admin cannot lose the role.
    const admins = await json<{ users: { email: string; roles: string[] }[] }>(admin.context().request, '/api/admin/users');
    if (admins.users.filter((u) => u.roles.includes('admin')).length === 1) {
      await admin.getByLabel('Search users').fill(E2E_ADMIN.email);
      const self = row(admin, 'user-row', E2E_ADMIN.email);
      await self.getByRole('button', { name: `Remove the Admin role from ${E2E_ADMIN.email}` }).click();
      await admin.getByRole('dialog', { name: 'Remove the role?' }).getByRole('button', { name: 'Remove role' }).click();
      await admin.getByText('The last admin cannot lose the admin role.').first().waitFor();
      await self.getByRole('button', { name: `Remove the Admin role from ${E2E_ADMIN.email}` }).waitFor();
      forgetRefusal(adminProblems, 409);
    }
    expect(adminProblems).toEqual([]);
  });

  it('creates a service name in az and tr, and the Azerbaijani order page shows it', async () => {
    const request = customer.context().request;
    const catalogue = await json<{ services: PublicService[] }>(request, '/api/catalog/services?lang=en');
    // A service the order page shows first for Instagram: its first group, so no clicking is needed.
    const instagram = catalogue.services.filter((s) => s.platform.toLowerCase() === 'instagram');
    const group = SERVICE_GROUPS.find((g) => instagram.some((s) => s.group === g))!;
    const target = instagram.find((s) => s.group === group)!;
    const az = `Xüsusi ad ${unique()}`;
    const tr = `Özel ad ${unique()}`;

    await admin.goto('/az/admin/service-names');
    await hydrated(admin);
    await admin.getByRole('tab', { name: 'Xidmət adları', selected: true }).waitFor();
    await admin.getByRole('button', { name: 'Yeni ad' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Yeni xidmət adı' });
    // All three fields are required, and spaces alone do not count.
    await dialog.getByLabel('API xidmət adı').fill(target.name);
    await dialog.getByLabel('Azərbaycanca ad').fill('   ');
    await dialog.getByRole('button', { name: 'Yadda saxla' }).click();
    await dialog.getByText('Bütün sahələri doldurun').waitFor();
    await dialog.getByLabel('Azərbaycanca ad').fill(`  ${az}  `);
    await dialog.getByLabel('Türkcə ad').fill(tr);
    // Before saving, the preview shows the service with the names it will get.
    await dialog.getByTestId('name-preview-row').filter({ hasText: `#${target.id} ${target.name}` }).filter({ hasText: az }).filter({ hasText: tr }).waitFor();
    await dialog.getByTestId('name-preview-count').filter({ hasText: /^\d+ xidmətin adı dəyişir$/ }).waitFor();
    await dialog.getByRole('button', { name: 'Yadda saxla' }).click();
    await admin.getByText('Xidmət adı yaradıldı').first().waitFor();
    await row(admin, 'service-name-row', az).waitFor();

    // The same API name again, in any letter case, is a duplicate.
    await admin.getByRole('button', { name: 'Yeni ad' }).click();
    await dialog.getByLabel('API xidmət adı').fill(target.name.toLocaleUpperCase('en'));
    await dialog.getByLabel('Azərbaycanca ad').fill('Başqa');
    await dialog.getByLabel('Türkcə ad').fill('Başka');
    await dialog.getByRole('button', { name: 'Yadda saxla' }).click();
    await dialog.getByText('Bu xidmət adı artıq mövcuddur').waitFor();
    forgetRefusal(adminProblems, 409);
    await admin.keyboard.press('Escape');

    const inAz = await json<{ services: PublicService[] }>(request, '/api/catalog/services?lang=az');
    expect(inAz.services.find((s) => s.id === target.id)?.name).toBe(az);
    const inTr = await json<{ services: PublicService[] }>(request, '/api/catalog/services?lang=tr');
    expect(inTr.services.find((s) => s.id === target.id)?.name).toBe(tr);

    await customer.goto('/az/order?platform=instagram');
    await hydrated(customer);
    await customer.locator(`option[value="${target.id}"]`).filter({ hasText: az }).waitFor({ state: 'attached' });
    expect(adminProblems).toEqual([]);
  });

  it('a name for words of provider names: the preview counts the services it renames, and they stay told apart', async () => {
    const request = customer.context().request;
    const catalogue = await json<{ services: PublicService[] }>(request, '/api/catalog/services?lang=en');
    const followers = catalogue.services.filter((s) => /\binstagram followers\b/i.test(s.name));
    expect(followers.length).toBeGreaterThan(1);
    await admin.goto('/en/admin/service-names');
    await hydrated(admin);
    await admin.getByRole('button', { name: 'New name' }).click();
    const dialog = admin.getByRole('dialog', { name: 'New service name' });
    await dialog.getByLabel('API service name').fill('instagram followers');
    await dialog.getByLabel('Azerbaijani name').fill('İnstaqram İzləyiciləri');
    await dialog.getByLabel('Turkish name').fill('Instagram Takipçileri');
    const rows = dialog.getByTestId('name-preview-row');
    await rows.first().waitFor();
    // Every row is a service with the words (an earlier name for one whole provider name may keep one out).
    expect(await rows.count()).toBeGreaterThanOrEqual(Math.min(followers.length - 1, 50));
    for (const text of await rows.allInnerTexts()) expect(text).toMatch(/instagram followers/i);
    await dialog.getByTestId('name-preview-count').filter({ hasText: /^\d+ services renamed$/ }).waitFor();
    const last = followers.at(-1)!;
    // The rule's words, the rest in the storefront's own wording.
    const lastAz = applyNameRules(last, 'az', [{ keyword: 'instagram followers', lang: 'az', name: 'İnstaqram İzləyiciləri' }]);
    expect(lastAz).toMatch(/^İnstaqram İzləyiciləri /);
    await rows.filter({ hasText: `#${last.id} ${last.name}` }).filter({ hasText: lastAz }).waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Service name created').first().waitFor();

    const inAz = await json<{ services: PublicService[] }>(request, '/api/catalog/services?lang=az');
    const names = followers.map((f) => inAz.services.find((s) => s.id === f.id)!.name);
    expect(new Set(names).size).toBe(new Set(followers.map((f) => f.name)).size);
    expect(names.filter((n) => n.startsWith('İnstaqram İzləyiciləri')).length).toBeGreaterThan(0);
    expect((await admin.context().request.delete(`/api/admin/catalog/service-names/${encodeURIComponent('instagram followers')}`, { headers: { Origin: baseUrl() } })).status()).toBe(204);
    expect(adminProblems).toEqual([]);
  });

  it('publishes a blog post that appears at /az/blog, in the Azerbaijani blog sitemap, and as plain text', async () => {
    const slug = `e2e-post-${unique()}`;
    await admin.goto('/en/admin/blog');
    await hydrated(admin);
    await admin.getByRole('button', { name: 'New post' }).first().click();
    const dialog = admin.getByRole('dialog', { name: 'New post' });
    // Nothing filled: the languages missing text are named.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Fill in the required texts in: Azərbaycanca, Türkçe, English.').waitFor();

    await dialog.getByLabel('Address (slug)').fill(slug);
    await dialog.getByRole('tab', { name: /Azərbaycanca/ }).click();
    await dialog.getByLabel('Title (AZ)').fill('Sınaq yazısı');
    await dialog.getByLabel('Excerpt (AZ)').fill('Qısa məzmun');
    await dialog.getByLabel('Text (AZ)').fill('Birinci abzas <b>qalın</b>.\n\nİkinci abzas.');
    await dialog.getByRole('tab', { name: /Türkçe/ }).click();
    await dialog.getByLabel('Title (TR)').fill('Deneme yazısı');
    await dialog.getByLabel('Text (TR)').fill('Metin.');
    await dialog.getByRole('tab', { name: /English/ }).click();
    await dialog.getByLabel('Title (EN)').fill('Test post');
    await dialog.getByLabel('Text (EN)').fill('Text.');
    await dialog.getByLabel('Published').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Post created').first().waitFor();
    await row(admin, 'blog-row', slug).waitFor();

    const { page, problems } = await openPage(browser, DESKTOP);
    const res = await page.goto(`/az/blog/${slug}`);
    expect(res?.status()).toBe(200);
    await hydrated(page);
    // A client navigation keeps the old page until the new one is ready: wait for it.
    await expect.poll(() => page.locator('h1').textContent()).toBe('Sınaq yazısı');
    await expect(page.title()).resolves.toBe('Sınaq yazısı · Artım');
    const body = page.getByTestId('post-body');
    await expect(body.locator('p').count()).resolves.toBe(2);
    await expect(body.locator('b').count()).resolves.toBe(0);
    await body.getByText('Birinci abzas <b>qalın</b>.').waitFor();

    await page.goto('/az/blog');
    await hydrated(page);
    await page.getByRole('link', { name: 'Sınaq yazısı', exact: true }).click();
    await page.waitForURL(`${baseUrl()}/az/blog/${slug}`);

    const sitemap = await page.context().request.get('/sitemaps/blog-az.xml');
    expect(sitemap.status()).toBe(200);
    expect(await sitemap.text()).toContain(`/az/blog/${slug}</loc>`);

    const missing = await page.goto('/az/blog/no-such-post-here');
    expect(missing?.status()).toBe(404);
    await hydrated(page);
    await page.getByRole('heading', { name: 'Yazı tapılmadı' }).waitFor();
    expect(problems).toEqual([]);
    expect(adminProblems).toEqual([]);
    await page.context().close();
  });

  it('creates a service in three languages; it shows on /az/services and its page opens', async () => {
    const name = `Podkast ${unique()}`;
    await admin.goto('/en/admin/services');
    await hydrated(admin);
    await admin.getByRole('button', { name: 'New service' }).first().click();
    const dialog = admin.getByRole('dialog', { name: 'New service' });
    await dialog.getByRole('tab', { name: /Azərbaycanca/ }).click();
    await dialog.getByLabel('Name (AZ)').fill(name);
    await dialog.getByLabel('Short description (AZ)').fill('Podkastınızı ideyadan yayına qədər hazırlayırıq.');
    await dialog.getByLabel('Benefits (AZ)').fill('Ssenari\nSəs yazısı');
    await dialog.getByRole('tab', { name: /Türkçe/ }).click();
    await dialog.getByLabel('Name (TR)').fill(`${name} TR`);
    await dialog.getByRole('tab', { name: /English/ }).click();
    await dialog.getByLabel('Name (EN)').fill(`${name} EN`);
    await dialog.getByLabel('Price (AZN)').fill('250');
    await dialog.getByLabel('Category').selectOption('standard');
    await dialog.getByLabel('Icon name').fill('Radio');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Service created').first().waitFor();
    await row(admin, 'local-service-row', name).waitFor();

    const { page, problems } = await openPage(browser, DESKTOP);
    expect((await page.goto('/az/services'))?.status()).toBe(200);
    await hydrated(page);
    const card = page.getByTestId('local-service-card').filter({ hasText: name });
    await card.getByText('250 AZN-dən').waitFor();
    await card.getByRole('link', { name, exact: true }).click();
    await page.waitForURL(/\/az\/services\/\d+$/);
    // A client navigation keeps the old page until the new one is ready: wait for it.
    await expect.poll(() => page.locator('h1').textContent()).toBe(name);
    await page.getByText('Səs yazısı').waitFor();
    expect(await page.title()).toBe(`${name} · Artım`);
    const detail = await page.context().request.get(new URL(page.url()).pathname);
    expect(detail.status()).toBe(200);
    const sitemap = await (await page.context().request.get('/sitemaps/services.xml')).text();
    expect(sitemap).toContain(`${new URL(page.url()).pathname}</loc>`);
    expect(problems).toEqual([]);
    expect(adminProblems).toEqual([]);
    await page.context().close();
  });

  it('saves the site name, description, phone and e-mail and the pages show them', async () => {
    await admin.goto('/en/admin/settings');
    await hydrated(admin);
    const fields = {
      'Site name': admin.getByLabel('Site name'),
      'Site description': admin.getByLabel('Site description'),
      'Contact e-mail': admin.getByLabel('Contact e-mail'),
      'Contact phone': admin.getByLabel('Contact phone'),
    };
    await expect.poll(() => fields['Site name'].inputValue()).not.toBe('');
    const before = Object.fromEntries(await Promise.all(Object.entries(fields).map(async ([k, f]) => [k, await f.inputValue()] as const)));
    const save = async (values: Record<string, string>) => {
      for (const [k, v] of Object.entries(values)) await fields[k as keyof typeof fields].fill(v);
      await admin.getByRole('button', { name: 'Save settings' }).click();
      await admin.getByText('Settings saved').first().waitFor();
    };
    await save({ 'Site name': 'Böyümə Studio', 'Site description': 'Bakıda rəqəmsal böyümə studiyası', 'Contact e-mail': 'salam@boyume.az', 'Contact phone': '+994 50 123 45 67' });

    try {
      const { page, problems } = await openPage(browser, DESKTOP);
      await page.goto('/az');
      await hydrated(page);
      const footer = page.locator('footer');
      await footer.getByRole('link', { name: '+994 50 123 45 67' }).waitFor();
      expect(await footer.getByRole('link', { name: '+994 50 123 45 67' }).getAttribute('href')).toBe('tel:+994501234567');
      await footer.getByRole('link', { name: 'salam@boyume.az' }).waitFor();
      await expect(footer.textContent()).resolves.toContain('Böyümə Studio');
      await expect(page.locator('header').textContent()).resolves.toContain('Böyümə Studio');
      expect(await page.title()).toContain('Böyümə Studio');
      expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe('Bakıda rəqəmsal böyümə studiyası');

      // A page reached inside the app keeps them and names itself after the site.
      await page.locator('header').getByRole('link', { name: 'Əlaqə' }).click();
      await page.waitForURL(`${baseUrl()}/az/contact`);
      await expect.poll(() => page.title()).toBe('Əlaqə · Böyümə Studio');
      await page.locator('main').getByRole('link', { name: 'salam@boyume.az' }).waitFor();
      await page.locator('main').getByRole('link', { name: '+994 50 123 45 67' }).waitFor();
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      // Put the settings back for the other journeys.
      await save(before);
    }
    expect(adminProblems).toEqual([]);
  });

  it('refunds part of an order and the customer’s balance rises', async () => {
    // The admin gives the customer a balance through the balance dialog.
    await admin.goto('/en/admin/users');
    await hydrated(admin);
    await admin.getByLabel('Search users').fill(customerEmail);
    const user = row(admin, 'user-row', customerEmail);
    await user.getByRole('button', { name: `Actions for ${customerEmail}` }).click();
    await admin.getByRole('menuitem', { name: 'Adjust the balance' }).click();
    const balanceDialog = admin.getByRole('dialog', { name: 'Adjust the balance' });
    await balanceDialog.getByLabel('Amount (USD)').fill('25');
    await balanceDialog.getByRole('button', { name: 'Apply' }).click();
    await balanceDialog.getByText('Give a reason of at least 3 characters.').waitFor();
    await balanceDialog.getByLabel('Reason').fill('Journey credit');
    await balanceDialog.getByRole('button', { name: 'Apply' }).click();
    await admin.getByText('Balance adjusted').first().waitFor();
    const request = customer.context().request;
    const start = (await json<{ balanceMicros: number }>(request, '/api/wallet')).balanceMicros;
    expect(start).toBeGreaterThanOrEqual(2500);

    // The customer orders; the charge leaves the balance.
    const catalogue = await json<{ services: PublicService[] }>(request, '/api/catalog/services?lang=en');
    const service = catalogue.services.find((s) => s.platform.toLowerCase() === 'instagram' && !s.hasParams && s.displayPrice)!;
    const placed = await request.post('/api/orders', {
      headers: { Origin: baseUrl() },
      data: { serviceId: service.id, link: `https://www.instagram.com/refund_${unique()}/`, quantity: service.min, params: {}, idempotencyKey: `refund-${unique()}` },
    });
    expect(placed.status()).toBe(201);
    const order = (await placed.json()) as { id: string; number: string; chargeMicros: number };
    const charged = (await json<{ balanceMicros: number }>(request, '/api/wallet')).balanceMicros;
    expect(charged).toBe(start - order.chargeMicros);

    // The customer watches the dashboard while the admin refunds.
    await customer.goto('/en/dashboard');
    await hydrated(customer);
    const liveBalance = customer.getByTestId('balance');
    const hasLiveBalance = (await liveBalance.count()) > 0;

    await admin.goto('/en/admin/orders');
    await hydrated(admin);
    await admin.getByLabel('Search orders').fill(order.number);
    // At 1280 px the list has room for each order's margin.
    await row(admin, 'order-row', order.number).getByTestId('order-margin').waitFor();
    await row(admin, 'order-row', order.number).getByRole('button', { name: `Details of order ${order.number}` }).click();
    const detail = admin.getByRole('dialog', { name: `Order ${order.number}` });
    await detail.getByTestId('order-detail').getByText(customerEmail).waitFor();
    // What the order cost: recorded when it was placed, shown to the micro beside the margin.
    await detail.getByTestId('order-cost').getByText('What it cost').waitFor();
    await detail.getByTestId('order-cost-margin').waitFor();
    await detail.getByTestId('ledger-row').filter({ hasText: 'Order charge' }).waitFor();
    await detail.getByRole('button', { name: 'Refund' }).click();
    const refund = admin.getByRole('dialog', { name: `Refund order ${order.number}` });
    await refund.getByLabel('Partial refund').check();
    const part = Math.max(1, Math.floor(order.chargeMicros / 2));
    await refund.getByLabel('Amount to refund (USD)').fill(microsToDecimal(part));
    await refund.getByLabel('Reason').fill('Partly delivered');
    await refund.getByRole('button', { name: 'Refund' }).click();
    await admin.getByText('Refund done').first().waitFor();
    await detail.getByTestId('ledger-row').filter({ hasText: 'Partly delivered' }).waitFor();

    const after = (await json<{ balanceMicros: number }>(request, '/api/wallet')).balanceMicros;
    expect(after).toBe(charged + part);
    if (hasLiveBalance) await expect.poll(() => liveBalance.textContent()).toBe(formatMoney(after, 'USD', 'en'));

    const audit = await json<{ entries: { action: string; targetId: string | null }[] }>(admin.context().request, '/api/admin/audit');
    expect(audit.entries.some((e) => e.action === 'order.refund' && e.targetId === order.id)).toBe(true);

    // The audit log says it in words, filtered to refunds from the address; the order's number leads back to it.
    await admin.goto('/en/admin/audit?action=order.refund');
    await hydrated(admin);
    const entry = admin.getByTestId('audit-row').filter({ hasText: order.number }).first();
    await entry.getByText(`Order ${order.number} refunded ${formatMoney(part, 'USD', 'en')}: Partly delivered`).waitFor();
    await entry.getByTestId('audit-actor').getByText(E2E_ADMIN.email).waitFor();
    await entry.getByRole('link', { name: order.number }).click();
    await admin.waitForURL(`${baseUrl()}/en/admin/orders?q=${order.number}`);
    await row(admin, 'order-row', order.number).waitFor();
    expect(adminProblems).toEqual([]);
  });

  it('a moderator opens /admin with the support sections and read-only users, and no money or role buttons', async () => {
    const { users } = await json<{ users: { id: string; email: string }[] }>(admin.context().request, `/api/admin/users?q=${encodeURIComponent(customerEmail)}`);
    const id = users[0]!.id;
    const headers = { Origin: baseUrl() };
    expect((await admin.context().request.post(`/api/admin/users/${id}/roles`, { headers, data: { role: 'moderator' } })).status()).toBe(201);
    try {
      const { page, problems } = await openPage(browser, DESKTOP);
      await page.context().addCookies(await customer.context().cookies());
      await page.goto('/en/admin');
      await hydrated(page);
      await page.getByRole('heading', { name: 'Your sections' }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Admin navigation' });
      for (const name of ['Orders', 'Support', 'Contact messages', 'Consultations', 'Users']) await nav.getByRole('link', { name }).waitFor();
      for (const name of ['Dashboard', 'Settings', 'Services', 'Audit log']) expect(await nav.getByRole('link', { name }).count(), name).toBe(0);
      await nav.getByRole('link', { name: 'Users' }).click();
      await page.getByLabel('Search users').fill(customerEmail);
      await row(page, 'user-row', customerEmail).getByText('View only').waitFor();
      // Their menu holds what they may read, nothing that changes the user.
      await row(page, 'user-row', customerEmail).getByRole('button', { name: `Actions for ${customerEmail}` }).click();
      await page.getByRole('menuitem', { name: 'Sign-ins' }).waitFor();
      expect(await page.getByRole('menuitem').allTextContents()).toEqual(['Sign-ins']);
      expect(await page.getByRole('menuitemcheckbox').count()).toBe(0);
      await page.keyboard.press('Escape');
      // A section the role may not use, opened by its address: no access, said as such, without a retry.
      await page.goto('/en/admin/settings');
      await hydrated(page);
      await page.getByRole('alert').getByText('You have no access to this section').waitFor();
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Back to your sections' }).click();
      await page.getByRole('heading', { name: 'Your sections' }).waitFor();
      await nav.getByRole('link', { name: 'Support' }).click();
      await page.waitForURL(`${baseUrl()}/en/admin/support`);
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await admin.context().request.delete(`/api/admin/users/${id}/roles/moderator`, { headers });
    }
  });

  it('providers: the sandbox is the default provider and answers a test; a provider added shows its key only as its last four characters', async () => {
    await admin.goto('/en/admin/providers');
    await hydrated(admin);
    await admin.getByRole('heading', { name: 'Providers', exact: true }).waitFor();
    // The first row is the sandbox; the second, 'Sandbox 2', is the sandbox's second provider.
    const sandbox = row(admin, 'provider-row', 'Sandbox').first();
    await sandbox.getByText('Default').waitFor();
    await admin.getByRole('button', { name: 'Test Sandbox: read its balance now' }).click();
    await admin.getByText('Sandbox answered').first().waitFor();
    await sandbox.getByText(/USD/).waitFor();

    const name = `Panel ${unique()}`;
    await admin.getByRole('button', { name: 'New provider' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('API address').fill('https://panel.example/api/v2');
    await dialog.getByLabel('API key').fill('journey-key-4321');
    await dialog.getByLabel('Calls per second').fill('5');
    await dialog.getByLabel('API key').press('Enter');
    await admin.getByText('Provider added').first().waitFor();
    const added = row(admin, 'provider-row', name);
    await added.getByText('••••4321').waitFor();
    expect(await admin.content()).not.toContain('journey-key-4321');

    // Editing shows the saved key's last four only; disabled, the provider says so.
    await added.getByRole('button', { name: `Edit ${name}` }).click();
    await expect.poll(() => admin.getByRole('dialog').getByLabel('API key').inputValue()).toBe('');
    await admin.getByRole('dialog').getByText('Saved key: ••••4321. Leave blank to keep it.').waitFor();
    await admin.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await added.getByRole('button', { name: 'Disable' }).click();
    await admin.getByText('Provider disabled').first().waitFor();
    await added.getByText('Disabled', { exact: true }).waitFor();
    expect(adminProblems).toEqual([]);
  });

  it('works on a phone: the sidebar is a drawer', async () => {
    const { page, problems } = await openPage(browser, PHONE);
    await signInAdmin(page);
    await page.goto('/en/admin');
    await hydrated(page);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('navigation', { name: 'Admin navigation' }).waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Open the admin menu' }).click();
    const drawer = page.getByTestId('admin-drawer');
    await drawer.getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL(`${baseUrl()}/en/admin/audit`);
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  // Every page on a desktop; on a phone the pages whose layout changes most at that width (the
  // shell and its menu, the wide tables, the forms), since the others share those parts. One test
  // per width, each within its own time limit on a slow machine.
  const axePages = {
    desktop: ['', '/orders', '/services', '/services?tab=api', '/service-names', '/blog', '/faq', '/users', '/settings', '/audit', '/providers'],
    phone: ['', '/orders', '/users', '/settings'],
  };
  for (const [width, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`has no serious or critical axe violations on the admin pages (${width === 'desktop' ? 'desktop: every page' : 'phone: the shell, tables and forms'})`, async () => {
      const found: string[] = [];
      const { page } = await openPage(browser, viewport);
      await signInAdmin(page);
      for (const path of axePages[width].map((p) => `/en/admin${p}`)) {
        await page.goto(path);
        await hydrated(page);
        await page.locator('main h1').waitFor();
        // Let the page's data arrive so the full page is checked, not its spinner.
        await page.waitForFunction(() => !document.querySelector('main [role="status"]'));
        const { violations } = await new AxeBuilder({ page }).analyze();
        for (const v of violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
          found.push(`${width} ${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
      await page.context().close();
      expect(found).toEqual([]);
    }, 300_000);
  }
});
