// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffPaymentMethod } from '../../../core/contracts/payments';
import admin from '../../i18n/locales/az/admin.json';
import common from '../../i18n/locales/az/common.json';
import { I18n, I18nProvider } from '../../i18n';
import { PaymentMethodsPanel } from './PaymentMethodsPanel';

/*
 * The team's payment methods in a document, in Azerbaijani: each method's state, and what a
 * change sends. The server is a stub of fetch; src/server/payments/methods.test.ts runs the routes.
 */

const METHODS: StaffPaymentMethod[] = [
  { kind: 'epoint', name: { az: 'Bank kartı', tr: 'Banka kartı', en: 'Bank card' }, details: { az: '', tr: '', en: '' }, currency: 'AZN', minMicros: 1_000_000, maxMicros: 10_000_000_000, feeBp: 0, position: 0, enabled: true, currencies: ['AZN'], configured: true },
  { kind: 'paytr', name: { az: 'PayTR', tr: 'PayTR', en: 'PayTR' }, details: { az: '', tr: '', en: '' }, currency: 'TRY', minMicros: 1_000_000, maxMicros: 10_000_000_000, feeBp: 0, position: 2, enabled: false, currencies: ['TRY'], configured: false },
  { kind: 'bank', name: { az: 'Bank köçürməsi', tr: 'Banka havalesi', en: 'Bank transfer' }, details: { az: '', tr: '', en: '' }, currency: 'AZN', minMicros: 10_000_000, maxMicros: 10_000_000_000, feeBp: 0, position: 3, enabled: false, currencies: ['AZN', 'TRY'], configured: true },
];
let sent: { method: string; path: string; body: unknown }[];

beforeEach(() => {
  sent = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://shop.test'), init);
    const path = new URL(request.url).pathname;
    const text = await request.text();
    sent.push({ method: request.method, path, body: text ? JSON.parse(text) : undefined });
    return Response.json({ methods: METHODS });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n('az', { az: { admin, common } })}>
        <MemoryRouter initialEntries={['/az/admin/settings']}>
          <Routes>
            <Route path="/:lang/admin/settings" element={<PaymentMethodsPanel />} />
          </Routes>
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
}

describe('payment methods panel', () => {
  it('shows each method on, off, or without keys on the server', async () => {
    renderPanel();
    const rows = await screen.findAllByRole('row');
    const text = rows.map((r) => r.textContent);
    expect(text.find((r) => r?.includes('Bank kartı'))).toContain(admin.methods.on);
    expect(text.find((r) => r?.includes('PayTR'))).toContain(admin.methods.notConfigured);
    expect(text.find((r) => r?.includes('Bank köçürməsi'))).toContain(admin.methods.off);
  });

  it('sends a change as exact amounts (dollars in micros, the fee in hundredths of a percent), and keeps a bad fee from being sent', async () => {
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Bank köçürməsi — redaktə et' }));
    const dialog = await screen.findByRole('dialog');
    const fee = within(dialog).getByLabelText(new RegExp(admin.methods.fee.replace(/[()%]/g, '.')));
    fireEvent.change(fee, { target: { value: '25' } });
    fireEvent.click(within(dialog).getByRole('button', { name: admin.common.save }));
    expect(await within(dialog).findByText(admin.methods.feeInvalid)).toBeTruthy();
    expect(sent.some((s) => s.method === 'PUT')).toBe(false);
    fireEvent.change(fee, { target: { value: '2,5' } });
    fireEvent.change(within(dialog).getByLabelText('Ən kiçik artım (USD)'), { target: { value: '20' } });
    fireEvent.change(within(dialog).getByRole('combobox'), { target: { value: 'TRY' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: admin.methods.enabled }));
    fireEvent.click(within(dialog).getByRole('button', { name: admin.common.save }));
    await waitFor(() => expect(sent.filter((s) => s.method === 'PUT')).toHaveLength(1));
    expect(sent.find((s) => s.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/api/admin/payments/methods/bank',
      body: { name: METHODS[2]!.name, details: METHODS[2]!.details, currency: 'TRY', minMicros: 20_000_000, maxMicros: 10_000_000_000, feeBp: 250, position: 3, enabled: true },
    });
  });
});
