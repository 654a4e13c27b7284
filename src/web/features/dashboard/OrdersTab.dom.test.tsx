// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicService } from '../../../core/contracts/catalog';
import catalog from '../../i18n/locales/az/catalog.json';
import common from '../../i18n/locales/az/common.json';
import dashboard from '../../i18n/locales/az/dashboard.json';
import orderNotes from '../../i18n/locales/az/order-notes.json';
import { I18n, I18nProvider } from '../../i18n';
import { OrdersTab } from './OrdersTab';

/*
 * The order form as the dashboard shows it (the same form and hook as the order page), in a
 * document, in Azerbaijani: what it refuses before sending, what it sends, and how the server's
 * refusal reads. The server is a stub of fetch; e2e/orders.e2e.ts runs the form against the real one.
 */

const service: PublicService = {
  id: '101',
  platform: 'instagram',
  name: 'Instagram Followers',
  type: 'Followers',
  group: 'followers',
  min: 10,
  max: 10_000,
  step: 1,
  tiers: [{ minimum: 10, maximum: 10_000, price: '2.00', pricingPer: 1000 }],
  displayPrice: '2.00',
  displayPer: 1000,
  hasParams: false,
  dripfeed: false,
};

let placed: unknown[];

function stubServer(placeAnswer: () => Response) {
  placed = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'http://shop.test').pathname;
    if (path === '/api/catalog/services') return Response.json({ services: [service], fees: { serviceFeePercent: 0, baseFee: 0 } });
    if (path === `/api/catalog/services/${service.id}`) return Response.json({ ...service, description: null, example: null, params: [] });
    if (path === '/api/orders' && init?.method === 'POST') {
      placed.push(JSON.parse(String(init.body)));
      return placeAnswer();
    }
    return Response.json({ error: { code: 'NOT_FOUND', message: 'x' } }, { status: 404 });
  });
}

function renderForm() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n('az', { az: { common, dashboard, catalog, 'order-notes': orderNotes } })}>
        <MemoryRouter initialEntries={['/az/dashboard']}>
          <Routes>
            <Route
              path="/:lang/dashboard"
              element={<OrdersTab balanceMicros={1_000_000_000} activeOrders={[]} initial={{ platform: 'instagram', serviceId: service.id }} onPlaced={() => {}} onTopUp={() => {}} />}
            />
          </Routes>
        </MemoryRouter>
        <Toaster />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const buy = () => screen.getByRole('button', { name: new RegExp(dashboard.orders.buy) }) as HTMLButtonElement;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the order form on the dashboard', () => {
  it('words a link of another site and a quantity out of bounds in the page language, and sends nothing', async () => {
    stubServer(() => Response.json({}, { status: 500 }));
    renderForm();
    const link = await screen.findByLabelText(new RegExp(catalog.fields.link));
    fireEvent.change(link, { target: { value: 'https://example.com/someone' } });
    fireEvent.blur(link);
    const quantity = screen.getByLabelText(new RegExp(catalog.fields.quantity));
    fireEvent.change(quantity, { target: { value: '5' } });
    fireEvent.blur(quantity);
    await waitFor(() => expect(link.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('order-link-error')?.textContent).toContain('Düzgün Instagram linki daxil edin');
    expect(document.getElementById('order-quantity-error')?.textContent).toContain('Miqdar 10 ilə 10.000 arasında olmalıdır');
    expect(buy().disabled).toBe(true);
    expect(placed).toEqual([]);
  });

  it('sends the contract’s order with its key and shown total, and words the server’s refusal', async () => {
    stubServer(() => Response.json({ error: { code: 'ACTIVE_ORDER_EXISTS', message: 'x' } }, { status: 409 }));
    renderForm();
    fireEvent.change(await screen.findByLabelText(new RegExp(catalog.fields.link)), { target: { value: ' https://www.instagram.com/artim ' } });
    fireEvent.change(screen.getByLabelText(new RegExp(catalog.fields.quantity)), { target: { value: '1500' } });
    await waitFor(() => expect(buy().disabled).toBe(false));
    fireEvent.click(buy());
    await waitFor(() => expect(placed).toHaveLength(1));
    expect(placed[0]).toMatchObject({ serviceId: '101', link: 'https://www.instagram.com/artim', quantity: 1500, params: {}, expectedTotalMicros: 3_000_000 });
    expect((placed[0] as { idempotencyKey: string }).idempotencyKey.length).toBeGreaterThanOrEqual(16);
    expect(await screen.findByText(common.errors.ACTIVE_ORDER_EXISTS as string)).toBeTruthy();
  });
});
