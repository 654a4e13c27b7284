// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Language } from '../../../core/i18n';
import az from '../../i18n/locales/az/admin.json';
import en from '../../i18n/locales/en/admin.json';
import tr from '../../i18n/locales/tr/admin.json';
import { I18n, I18nProvider } from '../../i18n';
import AdminAuditPage from './AdminAuditPage';
import type { AuditEntry, AuditPage } from './api';

/*
 * The audit log in a document: each entry in words in the reader's language — amounts as money
 * (micro-dollars, and cents of entries from before), the target by name and linked, an action
 * without words of its own as its label and its details — and the filters kept in the address and
 * sent to the server. The server is a stub of fetch; src/server/admin/audit.test.ts runs the list.
 */

const admin = { az, tr, en } as const;

const entry = (over: Partial<AuditEntry> & Pick<AuditEntry, 'id' | 'action' | 'targetType'>): AuditEntry => ({
  actorId: 'admin-1',
  actorEmail: 'admin@artim.az',
  targetId: null,
  details: {},
  createdAt: '2026-11-20T10:00:00.000Z',
  actor: { id: 'admin-1', name: 'Leyla Admin', email: 'admin@artim.az', gone: false },
  target: { label: null },
  ...over,
});

const answer: AuditPage = {
  total: 5,
  page: 1,
  pageSize: 50,
  entries: [
    entry({ id: 5, action: 'balance.adjust', targetType: 'user', targetId: 'u-1', details: { amountMicros: 5_000_000, reason: 'goodwill' }, target: { label: 'a@b.az' } }),
    entry({ id: 4, action: 'order.refund', targetType: 'order', targetId: '3f1c9a2e-7b4d-4c1e-9a6f-0e2d5b8c7a11', details: { amountMicros: 1_250_000, reason: 'late', number: 'AR-7K2M9Q4X1Z' }, target: { label: 'AR-7K2M9Q4X1Z' } }),
    entry({ id: 3, action: 'balance.adjust', targetType: 'user', targetId: 'u-2', details: { amountCents: -250, reason: 'mistake' }, target: { label: 'b@c.az' } }),
    entry({
      id: 2,
      action: 'gateway.note',
      targetType: 'payment',
      targetId: '9a6f0e2d-7b4d-4c1e-9a6f-0e2d5b8c7a11',
      details: { amountMicros: 12_340_000, reason: 'chargeback', gatewayCode: 'RC-05' },
      target: { label: 'a@b.az' },
      actor: { id: 'gone-1', name: null, email: 'former@artim.az', gone: true },
    }),
    entry({ id: 1, action: 'settings.update', targetType: 'settings', details: { service_fee: { from: 0, to: 12.5 }, maintenance_mode: { from: false, to: true } } }),
  ],
  actors: [
    { id: 'admin-1', name: 'Leyla Admin', email: 'admin@artim.az' },
    { id: 'gone-1', name: null, email: 'former@artim.az' },
  ],
  actions: ['balance.adjust', 'gateway.note', 'order.refund', 'settings.update'],
};

let asked: URLSearchParams[];

beforeEach(() => {
  asked = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://shop.test');
    asked.push(url.searchParams);
    return Response.json(answer);
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Address() {
  const { search } = useLocation();
  return <output data-testid="address">{search}</output>;
}

function show(lang: Language, address = `/${lang}/admin/audit`) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n(lang, { [lang]: { admin: admin[lang] } })}>
        <MemoryRouter initialEntries={[address]}>
          <AdminAuditPage />
          <Address />
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const sentences = async () => (await screen.findAllByTestId('audit-sentence')).map((s) => s.textContent);

describe('the audit log page', () => {
  it('says what was done in English, amounts as money (older entries in cents too), with the actor and the target linked', async () => {
    show('en');
    expect(await sentences()).toEqual([
      'Balance of a@b.az adjusted by +$5.00: goodwill',
      'Order AR-7K2M9Q4X1Z refunded $1.25: late',
      'Balance of b@c.az adjusted by -$2.50: mistake',
      'Gateway note — Amount: $12.34 · Reason: chargeback · Gateway code: RC-05',
      'Settings changed: Service fee (%): 0 → 12.5; Maintenance mode: no → yes',
    ]);
    const rows = screen.getAllByTestId('audit-row');
    expect(within(rows[0]!).getByTestId('audit-actor').textContent).toBe('Leyla Adminadmin@artim.az');
    expect(within(rows[0]!).getByRole('link', { name: 'a@b.az' }).getAttribute('href')).toBe('/en/admin/users?q=a%40b.az');
    expect(within(rows[1]!).getByRole('link', { name: 'AR-7K2M9Q4X1Z' }).getAttribute('href')).toBe('/en/admin/orders?q=AR-7K2M9Q4X1Z');
    expect(within(rows[3]!).getByTestId('audit-actor').textContent).toBe('former@artim.az(account deleted)');
    expect(within(rows[4]!).getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/en/admin/settings');
  });

  it('says it in Azerbaijani and Turkish, with their money and key names', async () => {
    show('az');
    const inAz = await sentences();
    expect(inAz[0]).toBe('a@b.az balansına +5,00\u00a0$ düzəliş edildi: goodwill');
    expect(inAz[1]).toBe('AR-7K2M9Q4X1Z sifarişi üzrə 1,25\u00a0$ geri qaytarıldı: late');
    expect(inAz[3]).toBe('Gateway note — Məbləğ: 12,34\u00a0$ · Səbəb: chargeback · Gateway code: RC-05');
    cleanup();
    show('tr');
    const inTr = await sentences();
    expect(inTr[0]).toBe('a@b.az bakiyesine +$5,00 düzeltme yapıldı: goodwill');
    expect(inTr[4]).toBe('Ayarlar değiştirildi: Hizmet bedeli (%): 0 → 12.5; Bakım modu: hayır → evet');
  });

  it('reads its filters from the address, sends them to the server and writes a new choice back', async () => {
    show('en', '/en/admin/audit?action=order.refund&from=2026-11-01&to=2026-11-30&page=2&bogus=1');
    await sentences();
    const first = asked[0]!;
    expect(Object.fromEntries(first)).toEqual({ action: 'order.refund', from: '2026-11-01', to: '2026-11-30', page: '2', lang: 'en' });
    expect((screen.getByLabelText('Action') as HTMLSelectElement).value).toBe('order.refund');

    fireEvent.change(screen.getByLabelText('Who'), { target: { value: 'gone-1' } });
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('?action=order.refund&from=2026-11-01&to=2026-11-30&bogus=1&actor=gone-1'));
    await waitFor(() => expect(Object.fromEntries(asked.at(-1)!)).toEqual({ actor: 'gone-1', action: 'order.refund', from: '2026-11-01', to: '2026-11-30', lang: 'en' }));
    // Every action the log holds is offered by its label.
    expect(within(screen.getByLabelText('Action')).getAllByRole('option').map((o) => o.textContent)).toEqual(['All actions', 'Balance adjusted', 'Gateway note', 'Order refunded', 'Settings changed']);
  });
});
