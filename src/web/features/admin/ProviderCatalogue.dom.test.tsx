// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import admin from '../../i18n/locales/en/admin.json';
import common from '../../i18n/locales/en/common.json';
import { I18n, I18nProvider } from '../../i18n';
import type { AdminProvider, CatalogChange, ImportPreviewLine, ServiceSources } from './api';
import { CatalogChangesPanel } from './CatalogChangesPanel';
import { ImportStep } from './ProviderCatalogue';
import { SourcesEditor } from './ServiceSourcesDialog';

/*
 * The team's import preview and sources editor in a document: what they show and what they send.
 * The server is a stub of fetch answering `reply(path, body)`; src/server/admin/providerCatalog.test.ts
 * runs the routes themselves.
 */

const MAIN = '3f1c9a2e-7b4d-4c1e-9a6f-0e2d5b8c7a11';
const OTHER = '7a2b3c4d-1e2f-4a5b-8c6d-9e0f1a2b3c4d';
let sent: { method: string; path: string; body: unknown }[];
let reply: (path: string, body: unknown) => unknown;

beforeEach(() => {
  sent = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input instanceof Request ? input.url : input), 'http://shop.test').pathname;
    const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
    const text = input instanceof Request ? await input.text() : init?.body;
    const body = text ? JSON.parse(String(text)) : undefined;
    sent.push({ method, path, body });
    return Response.json(reply(path, body));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderIn(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n('en', { en: { common, admin } })}>{children}</I18nProvider>
    </QueryClientProvider>,
  );
}

const line = (id: string, markupPercent: number): ImportPreviewLine => ({
  providerServiceId: id,
  name: `Instagram Likes ${id}`,
  platform: 'instagram',
  type: 'Default',
  min: 10,
  max: 10_000,
  per: 1000,
  cost: '1.00',
  price: (1.1 * (1 + markupPercent / 100)).toFixed(2),
  importedAs: id === '2' ? ['501'] : [],
});

describe('the import step', () => {
  it('previews the selling prices with the markup typed, then imports exactly that', async () => {
    reply = (path, body) => {
      if (path.endsWith('/import/preview')) {
        const { serviceIds, markup } = body as { serviceIds: string[]; markup: { percent: string } };
        return { lines: serviceIds.map((id) => line(id, Number(markup.percent))) };
      }
      return { created: [{ id: '601', providerServiceId: '1' }, { id: '602', providerServiceId: '2' }] };
    };
    const done = vi.fn();
    renderIn(<ImportStep providerId={OTHER} selection={{ serviceIds: ['1', '2'] }} onBack={() => {}} onDone={done} />);

    // No markup yet: the provider's price with the site's fees.
    const rows = await screen.findAllByTestId('import-preview-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTestId('import-preview-price').textContent).toContain('1.10');
    expect(within(rows[1]!).getByText('Already imported as 501')).toBeTruthy();

    fireEvent.change(screen.getByLabelText(admin.catalogue.markupPercent), { target: { value: '50' } });
    await waitFor(() => expect(within(screen.getAllByTestId('import-preview-row')[0]!).getByTestId('import-preview-price').textContent).toContain('1.65'));
    expect(sent.filter((s) => s.path.endsWith('/preview')).at(-1)!.body).toEqual({ providerId: OTHER, serviceIds: ['1', '2'], markup: { percent: '50', fixedPer1000: '0' } });

    // A markup the contract refuses: said at once, and nothing can be imported.
    fireEvent.change(screen.getByLabelText(admin.catalogue.markupPercent), { target: { value: '5000' } });
    expect((await screen.findAllByText(admin.catalogue.markupInvalid)).length).toBeGreaterThan(0);
    const submit = screen.getByRole('button', { name: /Import 2 services/ });
    expect((submit as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(screen.getByLabelText(admin.catalogue.markupPercent), { target: { value: '50' } });
    await waitFor(() => expect((screen.getByRole('button', { name: /Import 2 services/ }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: /Import 2 services/ }));
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(sent.filter((s) => s.path === '/api/admin/catalog/import')).toEqual([
      { method: 'POST', path: '/api/admin/catalog/import', body: { providerId: OTHER, serviceIds: ['1', '2'], markup: { percent: '50', fixedPer1000: '0' } } },
    ]);
  });
});

const provider = (id: string, name: string) => ({ id, name }) as AdminProvider;

describe('the sources editor', () => {
  it('moves, removes and adds sources, and saves them in the order shown; the markup only when asked to price again', async () => {
    reply = (path) => (path.endsWith('/sources') ? { markup: { percent: '20', fixedPer1000: '0.00' }, sources: [] } : {});
    const initial: ServiceSources = {
      markup: { percent: '20', fixedPer1000: '0.00' },
      sources: [
        { position: 0, providerId: MAIN, providerServiceId: '1001', name: 'Followers', present: true, costPer1000: '2.00' },
        { position: 1, providerId: OTHER, providerServiceId: '77', name: 'Followers HQ', present: false, costPer1000: '1.50' },
      ],
    };
    const third = '9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e';
    const closed = vi.fn();
    renderIn(<SourcesEditor serviceId="1001" initial={initial} providers={[provider(MAIN, 'Main'), provider(OTHER, 'Other'), provider(third, 'Third')]} onClose={closed} />);

    let items = screen.getAllByTestId('service-source');
    expect(items.map((li) => li.textContent)).toEqual([expect.stringContaining('Main · 1001 primary'), expect.stringContaining('Other · 77 fallback 1')]);
    expect(items[0]!.textContent).toContain('costs $2.00 per 1000');
    expect(items[1]!.textContent).toContain(admin.catalogue.notListed);

    fireEvent.click(screen.getByRole('button', { name: 'Move Other 77 up' }));
    items = screen.getAllByTestId('service-source');
    expect(items[0]!.textContent).toContain('Other · 77');

    fireEvent.click(screen.getByRole('button', { name: 'Remove Main 1001' }));
    // Only the providers not used yet are offered.
    const select = screen.getByLabelText(admin.catalogue.provider) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Main', 'Third']);
    fireEvent.change(select, { target: { value: third } });
    fireEvent.change(screen.getByLabelText(admin.catalogue.providerServiceId), { target: { value: ' 3003 ' } });
    fireEvent.click(screen.getByRole('button', { name: admin.catalogue.addSource }));
    expect(screen.getAllByTestId('service-source').map((li) => li.textContent)).toEqual([expect.stringContaining('Other · 77'), expect.stringContaining('Third · 3003')]);

    fireEvent.click(screen.getByRole('button', { name: admin.common.save }));
    await waitFor(() => expect(closed).toHaveBeenCalled());
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: '/api/admin/catalog/services/1001/sources',
        body: {
          sources: [
            { providerId: OTHER, providerServiceId: '77' },
            { providerId: third, providerServiceId: '3003' },
          ],
        },
      },
    ]);
  });

  it('sends the markup when the team asks to price it again', async () => {
    reply = () => ({ markup: { percent: '35', fixedPer1000: '0.00' }, sources: [] });
    const initial: ServiceSources = { markup: { percent: '20', fixedPer1000: '0.00' }, sources: [{ position: 0, providerId: MAIN, providerServiceId: '1001', name: 'Followers', present: true, costPer1000: '2.00' }] };
    renderIn(<SourcesEditor serviceId="1001" initial={initial} providers={[provider(MAIN, 'Main')]} onClose={() => {}} />);
    fireEvent.click(screen.getByLabelText(admin.catalogue.reprice));
    fireEvent.change(screen.getByLabelText(admin.catalogue.markupPercent), { target: { value: '35' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toEqual({ sources: [{ providerId: MAIN, providerServiceId: '1001' }], markup: { percent: '35', fixedPer1000: '0.00' } });
  });
});

describe('the changes at providers', () => {
  const terms = (price: string, min = 100, max = 10_000) => ({ name: 'Instagram Followers HQ', platform: 'instagram', type: 'Followers', amountMinimum: min, amountIncrement: 1, tiers: [{ minimum: min, maximum: max, price, pricingPer: 1000 }] });
  const change = (id: number, kind: CatalogChange['kind'], over: Partial<CatalogChange>): CatalogChange => ({
    id,
    providerId: OTHER,
    serviceId: `77${id}`,
    kind,
    before: null,
    after: null,
    detectedAt: '2026-11-20T10:00:00.000Z',
    decidedAt: null,
    decision: null,
    decidedBy: null,
    services: [],
    ...over,
  });

  it('shows before → after and the services using it; Apply and Dismiss answer it, a new service nobody uses with the markup asked for', async () => {
    const changes = [
      change(1, 'price', { before: terms('1.5'), after: terms('2.25'), services: [{ serviceId: '1001', position: 0 }, { serviceId: '1002', position: 1 }] }),
      change(2, 'limits', { before: terms('1', 100, 5000), after: terms('1', 50, 20_000) }),
      change(3, 'new', { after: terms('0.8') }),
    ];
    reply = (path) => (path === '/api/admin/catalog/changes' ? { changes } : { services: ['1001'] });
    renderIn(<CatalogChangesPanel providers={[provider(OTHER, 'Other panel')]} />);

    const rows = await screen.findAllByTestId('catalog-change-row');
    expect(rows[0]!.textContent).toContain('$1.50 → $2.25');
    expect(rows[0]!.textContent).toContain('Other panel');
    expect(rows[0]!.textContent).toContain('1001 (primary)');
    expect(within(rows[0]!).getByRole('button', { name: 'Sources of 1002' })).toBeTruthy();
    expect(rows[0]!.textContent).toContain('1002 (fallback 1)');
    expect(rows[1]!.textContent).toContain('100 – 5,000 → 50 – 20,000');

    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Apply the change of Instagram Followers HQ' }));
    await waitFor(() => expect(sent.some((s) => s.path === '/api/admin/catalog/changes/1')).toBe(true));
    expect(sent.find((s) => s.path === '/api/admin/catalog/changes/1')).toMatchObject({ method: 'POST', body: { decision: 'applied' } });

    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Dismiss the change of Instagram Followers HQ' }));
    await waitFor(() => expect(sent.find((s) => s.path === '/api/admin/catalog/changes/2')).toMatchObject({ body: { decision: 'dismissed' } }));

    // A new service nobody uses: Apply asks for the markup it is imported with.
    fireEvent.click(within(rows[2]!).getByRole('button', { name: 'Apply the change of Instagram Followers HQ' }));
    const dialog = await screen.findByRole('dialog');
    expect(sent.some((s) => s.path === '/api/admin/catalog/changes/3')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(admin.catalogue.markupPercent), { target: { value: '40' } });
    fireEvent.click(within(dialog).getByRole('button', { name: admin.catalogue.apply }));
    await waitFor(() => expect(sent.find((s) => s.path === '/api/admin/catalog/changes/3')).toMatchObject({ body: { decision: 'applied', markup: { percent: '40', fixedPer1000: '0' } } }));
  });
});
