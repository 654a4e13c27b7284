import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../sandbox/provider';
import { E2E_ADMIN } from './app-process';
import { baseUrl, DESKTOP, hasChromium, hydrated, launch, openPage } from './browser';

/**
 * Several providers, as the team runs them: a provider added in the admin, one of its services
 * imported with a markup after the preview, given the shop's sandbox as its fallback, and a
 * customer's order that the new provider refuses going to the fallback (docs/rules.md#providers).
 * The new provider is a sandbox this test starts on loopback, with the same catalogue as the
 * shop's own sandbox (seed 1, 320 services), so the fallback lists the same service id.
 */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signInAdmin(page: Page) {
  const res = await page.context().request.post('/api/auth/sign-in/email', { headers: { Origin: baseUrl() }, data: E2E_ADMIN });
  expect(res.status()).toBe(200);
}

type ProviderView = { id: string; name: string };
type ProviderServiceView = { providerServiceId: string; name: string; platform: string; type: string; min: number; present: boolean; services: { serviceId: string; position: number }[] };

describe.skipIf(!hasChromium())('several providers', () => {
  let browser: Browser;
  let panel: SandboxProvider;
  beforeAll(async () => {
    browser = await launch();
    panel = await startSandboxProvider({ serviceCount: 320, seed: 1 });
  });
  afterAll(async () => {
    await panel?.close();
    await browser?.close();
  });

  it('the team adds a provider, imports a service with a markup after its preview, gives it a fallback, and an order the provider refuses goes to the fallback', async () => {
    const { page: admin, problems } = await openPage(browser, DESKTOP);
    await signInAdmin(admin);
    const api = admin.context().request;
    const name = `Panel ${unique()}`;

    // 1. The provider is added on the providers page.
    await admin.goto('/en/admin/providers');
    await hydrated(admin);
    await admin.getByRole('button', { name: 'New provider' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Protocol').selectOption('smm-v2');
    await dialog.getByLabel('API address').fill(panel.v2Url);
    await dialog.getByLabel('API key').fill(panel.apiKey);
    await dialog.getByLabel('Calls per second').fill('0');
    await dialog.getByLabel('API key').press('Enter');
    await admin.getByText('Provider added').first().waitFor();
    const list = (await (await api.get('/api/admin/providers')).json()) as { providers: ProviderView[] };
    const added = list.providers.find((p) => p.name === name)!;
    const fallback = list.providers.find((p) => p.name === 'Sandbox')!;
    expect(added && fallback).toBeTruthy();

    // 2. Its catalogue is read, and one plain Instagram service of it is imported with a 20 % markup.
    await admin.getByRole('button', { name: `Read the catalogue of ${name} now` }).click();
    await admin.getByText(`Catalogue of ${name} read`).first().waitFor();
    const { services } = (await (await api.get(`/api/admin/providers/${added.id}/services?platform=instagram`)).json()) as { services: ProviderServiceView[] };
    const chosen = services.find((s) => s.present && s.type.toLowerCase().includes('like') && s.services.length === 0) ?? services.find((s) => s.present)!;
    const preview = (await (
      await api.post('/api/admin/catalog/import/preview', { headers: { Origin: baseUrl() }, data: { providerId: added.id, serviceIds: [chosen.providerServiceId], markup: { percent: '20', fixedPer1000: '0' } } })
    ).json()) as { lines: { price: string | null; cost: string }[] };
    const line = preview.lines[0]!;
    expect(Number(line.price)).toBeGreaterThan(Number(line.cost));

    await admin.getByRole('button', { name: `Services of ${name}` }).click();
    const browse = admin.getByRole('dialog');
    await browse.getByLabel('Search by name or id').fill(chosen.providerServiceId);
    await browse.getByLabel(`Select ${chosen.name}`).check();
    await browse.getByRole('button', { name: 'Import 1 selected' }).click();
    await browse.getByLabel('Markup, %').fill('20');
    // The preview shows the price customers will see, as the server computes it.
    const previewRow = browse.getByTestId('import-preview-row').filter({ hasText: chosen.providerServiceId });
    await previewRow.getByText(new RegExp(line.price!.replace('.', '\\.'))).waitFor();
    await browse.getByRole('button', { name: 'Import 1 service' }).click();
    await admin.getByText('1 service imported').first().waitFor();
    const after = (await (await api.get(`/api/admin/providers/${added.id}/services?q=${chosen.providerServiceId}`)).json()) as { services: ProviderServiceView[] };
    const serviceId = after.services.find((s) => s.providerServiceId === chosen.providerServiceId)!.services[0]!.serviceId;
    expect(serviceId).toBeTruthy();

    // 3. The shop's sandbox becomes its fallback, in Admin → Services → API services → Sources.
    await admin.goto('/en/admin/services?tab=api');
    await hydrated(admin);
    await admin.getByRole('button', { name: new RegExp(`^Sources of `) }).first().waitFor();
    const sourcesButtons = admin.getByRole('button', { name: `Sources of ${chosen.name}` });
    // The imported service is the one bought from the new provider; the shop's sandbox sells one of the same name.
    let opened = false;
    for (let i = 0; i < (await sourcesButtons.count()) && !opened; i++) {
      await sourcesButtons.nth(i).click();
      const sd = admin.getByRole('dialog');
      await sd.getByRole('list', { name: 'Sources' }).waitFor();
      if ((await sd.getByRole('list', { name: 'Sources' }).getByText(name).count()) > 0) {
        opened = true;
        await sd.getByLabel('Provider', { exact: true }).selectOption({ label: 'Sandbox' });
        await sd.getByLabel('Provider service id').fill(chosen.providerServiceId);
        await sd.getByRole('button', { name: 'Add source' }).click();
        await sd.getByRole('button', { name: 'Save' }).click();
        await admin.getByText('Sources saved').first().waitFor();
      } else {
        await sd.getByRole('button', { name: 'Cancel' }).click();
      }
    }
    expect(opened).toBe(true);
    const sources = (await (await api.get(`/api/admin/catalog/services/${serviceId}/sources`)).json()) as { sources: { providerId: string; position: number }[] };
    expect(sources.sources.map((s) => s.providerId)).toEqual([added.id, fallback.id]);

    // 4. The new provider refuses every order; a customer's order of the imported service goes to the fallback.
    panel.control.setFault({ mode: 'refuse', actions: ['add'], message: 'Service temporarily unavailable' });
    const { page: customer } = await openPage(browser, DESKTOP);
    const email = `providers-${unique()}@example.com`;
    expect((await customer.context().request.post('/api/auth/sign-up/email', { headers: { Origin: baseUrl() }, data: { name: 'Aynur Məmmədova', email, password: 'Providers-pass1!' } })).status()).toBe(200);
    const me = (await (await customer.context().request.get('/api/me')).json()) as { user: { id: string } };
    expect((await api.post(`/api/admin/users/${me.user.id}/balance`, { headers: { Origin: baseUrl() }, data: { amountMicros: 50_000_000, reason: 'journey balance' } })).status()).toBe(200);
    const placed = await customer.context().request.post('/api/orders', {
      headers: { Origin: baseUrl() },
      data: { serviceId, link: `https://www.instagram.com/p/failover${unique()}/`, quantity: chosen.min, params: {}, idempotencyKey: randomUUID() },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const order = (await placed.json()) as { id: string; number: string };

    // The team sees it at the fallback, with what it cost there.
    await expect
      .poll(async () => ((await (await api.get(`/api/admin/orders/${order.id}`)).json()) as { cost?: { providerName: string | null } }).cost?.providerName, { timeout: 30_000 })
      .toBe('Sandbox');
    expect(panel.control.orders().length).toBe(0);
    await admin.goto('/en/admin/orders');
    await hydrated(admin);
    await admin.getByLabel('Search orders').fill(order.number);
    await admin.getByRole('button', { name: `Details of order ${order.number}` }).first().click();
    const detail = admin.getByRole('dialog', { name: `Order ${order.number}` });
    await detail.getByTestId('order-cost').getByText('Sandbox', { exact: true }).waitFor();
    // The customer's order is under way, not failed.
    const mine = (await (await customer.context().request.get('/api/orders')).json()) as { orders: { id: string; status: string; note: unknown }[] };
    expect(mine.orders.find((o) => o.id === order.id)).toMatchObject({ note: null });
    expect(['pending', 'processing', 'in_progress', 'completed']).toContain(mine.orders.find((o) => o.id === order.id)!.status);
    expect(problems).toEqual([]);
  });
});
