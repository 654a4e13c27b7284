// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Language } from '../../../core/i18n';
import { overrideRolePermissionsForTest } from '../../../core/permissions';
import azAdmin from '../../i18n/locales/az/admin.json';
import azCommon from '../../i18n/locales/az/common.json';
import azPayments from '../../i18n/locales/az/payments.json';
import enAdmin from '../../i18n/locales/en/admin.json';
import enCommon from '../../i18n/locales/en/common.json';
import enPayments from '../../i18n/locales/en/payments.json';
import trAdmin from '../../i18n/locales/tr/admin.json';
import trCommon from '../../i18n/locales/tr/common.json';
import trPayments from '../../i18n/locales/tr/payments.json';
import { I18n, I18nProvider } from '../../i18n';
import { StaffRoles } from './access';
import AdminPaymentsPage from './AdminPaymentsPage';
import type { AdminPayment, PaymentsPage } from './api';

/*
 * The team's payments page in a document: the filters kept in the address and sent to the
 * server, flagged and reversed payments with their badges and the gateway's reason in the
 * reader's language, the chargeback dialog, and the list's loading and failed states. The server
 * is a stub of fetch answering `reply`; src/server/payments/chargeback.test.ts runs the routes.
 * The page's bonuses and coupons section is there for whoever reads payments.
 */

const texts = {
  az: { admin: azAdmin, common: azCommon, payments: azPayments },
  tr: { admin: trAdmin, common: trCommon, payments: trPayments },
  en: { admin: enAdmin, common: enCommon, payments: enPayments },
} as const;

const payment = (over: Partial<AdminPayment> & Pick<AdminPayment, 'id' | 'reference' | 'status'>): AdminPayment => ({
  userId: 'u-1',
  email: 'ayla@example.az',
  type: 'balance_topup',
  amountUsdMicros: 10_000_000,
  amountMinor: 1700,
  currency: 'AZN',
  kind: 'epoint',
  receipt: null,
  review: null,
  rate: '1.7',
  method: 'epoint',
  transactionId: null,
  gatewayCode: null,
  gatewayMessage: null,
  failureReason: null,
  flagged: false,
  flagReason: null,
  reversal: null,
  refund: null,
  refundable: false,
  createdAt: '2026-11-20T10:00:00.000Z',
  settledAt: null,
  ...over,
});

const PAID = '3f1c9a2e-7b4d-4c1e-9a6f-0e2d5b8c7a11';
const list: PaymentsPage = {
  total: 4,
  page: 1,
  pageSize: 50,
  methods: ['epoint', 'sandbox'],
  payments: [
    payment({ id: PAID, reference: 'TP-PAID', status: 'completed', amountUsdMicros: 5_000_000, amountMinor: 850, settledAt: '2026-11-20T10:01:00.000Z' }),
    payment({ id: 'p-flagged', reference: 'TP-FLAG', status: 'pending', flagged: true, flagReason: 'amount 8.50 AZN ≠ 17.00 AZN' }),
    payment({
      id: 'p-reversed',
      reference: 'TP-BACK',
      status: 'completed',
      reversal: { at: '2026-11-22T09:00:00.000Z', byEmail: 'owner@artim.az', reason: 'bank chargeback 4837' },
    }),
    payment({ id: 'p-failed', reference: 'TP-FAIL', status: 'failed', gatewayCode: '51', gatewayMessage: 'Insufficient funds', failureReason: 'insufficient_funds' }),
  ],
};

let asked: { method: string; path: string; query: URLSearchParams; body: unknown }[];
let reply: (path: string, method: string) => Response | Promise<Response>;

beforeEach(() => {
  asked = [];
  reply = () => Response.json(list);
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://shop.test');
    const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
    const text = input instanceof Request ? await input.text() : init?.body;
    // The bonuses and coupons below the list (BonusesPanel.dom.test.tsx shows them): none here.
    if (url.pathname === '/api/admin/bonuses') return Response.json({ rules: [], coupons: [] });
    asked.push({ method, path: url.pathname, query: url.searchParams, body: text ? JSON.parse(String(text)) : undefined });
    return reply(url.pathname, method);
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

function show(lang: Language, address = '/admin/payments', roles: string[] = ['admin']) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n(lang, { [lang]: texts[lang] })}>
        <StaffRoles roles={roles}>
          <MemoryRouter initialEntries={[address]}>
            <AdminPaymentsPage />
            <Address />
          </MemoryRouter>
        </StaffRoles>
        <Toaster />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const lists = () => asked.filter((a) => a.path === '/api/admin/payments');
const row = async (reference: string) => (await screen.findAllByTestId('payment-row')).find((r) => r.dataset.reference === reference)!;
const card = (reference: string) => screen.getAllByTestId('payment-card').find((r) => r.dataset.reference === reference)!;

describe('the payments page', () => {
  it('shows the bonuses and coupons to who reads payments, with no way to add one without setting prices', async () => {
    show('en', '/admin/payments', ['moderator']);
    await row('TP-PAID');
    expect(screen.queryByRole('heading', { name: enAdmin.bonuses.title })).toBeNull();
    cleanup();
    const restore = overrideRolePermissionsForTest({ moderator: ['staff:enter', 'payments:read'] });
    try {
      show('en', '/admin/payments', ['moderator']);
      expect(await screen.findByRole('heading', { name: enAdmin.bonuses.title })).toBeTruthy();
      expect(await screen.findByText(enAdmin.bonuses.noCoupons)).toBeTruthy();
      expect(screen.queryByRole('button', { name: enAdmin.bonuses.newCoupon })).toBeNull();
    } finally {
      restore();
    }
    cleanup();
    show('en', '/admin/payments', ['admin']);
    expect(await screen.findByRole('button', { name: enAdmin.bonuses.newCoupon })).toBeTruthy();
  });

  it('reads its filters from the address, sends them to the server and the export, and writes a new choice back', async () => {
    show('en', '/admin/payments?status=completed&method=sandbox&flagged=1&from=2026-11-01&to=2026-11-30&page=2&bogus=1');
    await row('TP-PAID');
    expect(Object.fromEntries(lists()[0]!.query)).toEqual({ status: 'completed', method: 'sandbox', flagged: '1', from: '2026-11-01', to: '2026-11-30', page: '2' });
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('completed');
    expect((screen.getByLabelText('Method') as HTMLSelectElement).value).toBe('sandbox');
    expect((screen.getByLabelText('Flag') as HTMLSelectElement).value).toBe('1');
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-01');
    // The export takes every page of the same filters.
    expect(screen.getByTestId('payments-export').getAttribute('href')).toBe('/api/admin/payments/export?status=completed&method=sandbox&from=2026-11-01&to=2026-11-30&flagged=1');

    // A new choice goes back to the first page.
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'failed' } });
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('?status=failed&method=sandbox&from=2026-11-01&to=2026-11-30&flagged=1'));
    await waitFor(() => expect(Object.fromEntries(lists().at(-1)!.query)).toEqual({ status: 'failed', method: 'sandbox', flagged: '1', from: '2026-11-01', to: '2026-11-30' }));

    // The search is sent once typing stops.
    fireEvent.change(screen.getByLabelText('Search payments'), { target: { value: ' ayla@ ' } });
    await waitFor(() => expect(lists().at(-1)!.query.get('q')).toBe('ayla@'));
    expect(screen.getByTestId('address').textContent).toContain('q=ayla%40');
  });

  it('shows one customer’s payments from the address, and every customer again on request', async () => {
    show('en', '/admin/payments?userId=u-1');
    await row('TP-PAID');
    expect(lists()[0]!.query.get('userId')).toBe('u-1');
    fireEvent.click(screen.getByRole('button', { name: 'Show every customer' }));
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe(''));
    await waitFor(() => expect(lists().at(-1)!.query.has('userId')).toBe(false));
  });

  it('marks flagged and reversed payments and words the gateway’s reason, in Azerbaijani', async () => {
    show('az');
    const flagged = await row('TP-FLAG');
    expect(within(flagged).getByTestId('payment-flag').textContent).toBe('İşarələnib: amount 8.50 AZN ≠ 17.00 AZN');
    expect(within(flagged).getByText('Gözləyir')).toBeTruthy();

    const reversed = await row('TP-BACK');
    expect(within(reversed).getByText('Geri alındı')).toBeTruthy();
    expect(within(reversed).queryByText('Tamamlandı')).toBeNull();
    expect(within(reversed).getByTestId('payment-reversal').textContent).toMatch(/tarixində owner@artim\.az geri aldı: bank chargeback 4837$/);

    const failed = await row('TP-FAIL');
    expect(within(failed).getByText('Uğursuz')).toBeTruthy();
    expect(failed.textContent).toContain('51 · Kartda kifayət qədər vəsait yoxdur.');
    // The phone's cards say the same.
    expect(card('TP-FAIL').textContent).toContain('epoint · 51 · Kartda kifayət qədər vəsait yoxdur.');
    expect(within(card('TP-BACK')).getByText('Geri alındı')).toBeTruthy();

    // Only a completed top-up not yet reversed can be charged back.
    expect(within(await row('TP-PAID')).getByRole('button', { name: 'TP-PAID üçün çarjbek qeyd et' })).toBeTruthy();
    for (const reference of ['TP-FLAG', 'TP-BACK', 'TP-FAIL']) expect(within(await row(reference)).queryByRole('button')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Ödənişlər');
    expect(screen.getByText('4 ödəniş')).toBeTruthy();
  });

  it('offers no chargeback to a role that may only read payments', async () => {
    show('en', '/admin/payments', ['moderator']);
    expect(within(await row('TP-PAID')).queryByRole('button')).toBeNull();
  });

  it('books a chargeback with a reason of at least 3 characters, and words a refusal, in Turkish', async () => {
    let answer = (): Response => Response.json({ error: { code: 'PAYMENT_ALREADY_REVERSED', message: 'x' } }, { status: 409 });
    reply = (path) => (path.endsWith('/reversal') ? answer() : Response.json(list));
    show('tr');
    fireEvent.click(within(await row('TP-PAID')).getByRole('button', { name: 'TP-PAID için ters ibraz kaydet' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Ters ibraz kaydet');
    expect(dialog.textContent).toContain('ayla@example.az · $5,00 harcanmış olsa bile bakiyeden düşülür');

    // Too short: said by the field, and nothing is sent.
    const reason = within(dialog).getByLabelText('Gerekçe');
    fireEvent.change(reason, { target: { value: ' ab ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ters ibrazı kaydet' }));
    expect(await within(dialog).findByText('En az 3 karakterlik bir gerekçe yazın.')).toBeTruthy();
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(asked.filter((a) => a.method === 'POST')).toEqual([]);

    // The server's refusal is worded, and the dialog stays open.
    fireEvent.change(reason, { target: { value: '  banka itirazı 4837 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ters ibrazı kaydet' }));
    expect(await screen.findByText('Ters ibraz kaydedilemedi')).toBeTruthy();
    expect(screen.getByText('Bu ödeme zaten geri alındı.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();

    answer = () => Response.json({ paymentId: PAID, reversedAt: '2026-11-23T10:00:00.000Z', balanceMicros: -2_500_000 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ters ibrazı kaydet' }));
    expect(await screen.findByText('Ters ibraz kaydedildi')).toBeTruthy();
    expect(screen.getByText('Yeni bakiye: -$2,50')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(asked.filter((a) => a.method === 'POST')).toEqual([
      { method: 'POST', path: `/api/admin/payments/${PAID}/reversal`, query: expect.anything(), body: { reason: 'banka itirazı 4837' } },
      { method: 'POST', path: `/api/admin/payments/${PAID}/reversal`, query: expect.anything(), body: { reason: 'banka itirazı 4837' } },
    ]);
    // The list is read again after the chargeback.
    await waitFor(() => expect(lists().length).toBeGreaterThan(1));
  });

  it('refunds a top-up to the card after asking the reason, shows it waiting, words a refusal, and shows the refund state, in Azerbaijani', async () => {
    const refundable = payment({ id: PAID, reference: 'TP-PAID', status: 'completed', kind: 'payriff', method: 'payriff', refundable: true, amountUsdMicros: 5_000_000, amountMinor: 850 });
    const refunds: PaymentsPage = {
      ...list,
      payments: [
        refundable,
        payment({
          id: 'p-refunded', reference: 'TP-REFUNDED', status: 'completed', kind: 'payriff', method: 'payriff',
          refund: { status: 'completed', requestedAt: '2026-11-22T09:00:00.000Z', at: '2026-11-22T09:00:05.000Z', byEmail: 'owner@artim.az', reason: 'müştəri istədi', error: null, refundedMinor: null, keptMicros: null },
        }),
        payment({
          id: 'p-waiting', reference: 'TP-WAIT', status: 'completed', kind: 'payriff', method: 'payriff',
          refund: { status: 'pending', requestedAt: '2026-11-22T09:00:00.000Z', at: null, byEmail: 'owner@artim.az', reason: 'ikinci cəhd', error: 'payriff /api/v3/refund: timeout', refundedMinor: null, keptMicros: null },
        }),
      ],
    };
    let answer: () => Response | Promise<Response> = () => Response.json({ error: { code: 'PAYMENT_REFUND_BALANCE_SHORT', message: 'x', details: { neededMicros: 5_000_000 } } }, { status: 409 });
    reply = (path) => (path.endsWith('/refund') ? answer() : Response.json(refunds));
    show('az');

    // The row's refund state: refunded (a badge and who did it), and one waiting for the gateway, to be asked again.
    const done = await row('TP-REFUNDED');
    expect(done.textContent).toContain('Karta qaytarılıb');
    expect(within(done).getByTestId('payment-refund').dataset.refund).toBe('completed');
    expect(within(done).queryByRole('button')).toBeNull();
    const waiting = await row('TP-WAIT');
    expect(within(waiting).getByTestId('payment-refund').textContent).toContain('Ödəniş sisteminin cavabı: payriff /api/v3/refund: timeout');
    expect(within(waiting).getByRole('button', { name: 'TP-WAIT qaytarmasının vəziyyətini ödəniş sistemindən soruş' })).toBeTruthy();

    fireEvent.click(within(await row('TP-PAID')).getByRole('button', { name: 'TP-PAID ödənişini karta qaytar' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Ödənişi karta qaytarmaq');
    expect(dialog.textContent).toContain('ayla@example.az');

    // No reason: said by the field, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Karta qaytar' }));
    expect(await within(dialog).findByText('Ən azı 3 simvoldan ibarət səbəb yazın.')).toBeTruthy();
    expect(asked.filter((a) => a.method === 'POST')).toEqual([]);

    // Refused (the customer spent it): worded in the dialog, which stays open.
    fireEvent.change(within(dialog).getByLabelText('Səbəb'), { target: { value: ' müştəri pulu geri istədi ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Karta qaytar' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Ödəniş karta qaytarılmadı: Müştəri bu məbləğin bir hissəsini artıq xərcləyib: balansda qaytarmaq üçün kifayət qədər vəsait yoxdur.',
    );
    expect(screen.getByRole('dialog')).toBeTruthy();

    // While the server works the button is busy; then it is refunded and the dialog closes.
    let release!: () => void;
    answer = () => new Promise<Response>((resolve) => {
      release = () => resolve(Response.json({ paymentId: PAID, refundStatus: 'completed', refundedAt: '2026-11-23T10:00:00.000Z', refundError: null, balanceMicros: 0 }));
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Karta qaytar' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Karta qaytar' }).getAttribute('aria-busy')).toBe('true'));
    release();
    expect(await screen.findByText('Ödəniş karta qaytarıldı')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(asked.filter((a) => a.method === 'POST').map((a) => [a.path, a.body])).toEqual([
      [`/api/admin/payments/${PAID}/refund`, { reason: 'müştəri pulu geri istədi' }],
      [`/api/admin/payments/${PAID}/refund`, { reason: 'müştəri pulu geri istədi' }],
    ]);
    await waitFor(() => expect(lists().length).toBeGreaterThan(1));
  });

  it('flags a refund the gateway made only in part, with what went back and what the balance kept, in each language, and offers nothing more', async () => {
    const partial = (id: string, reference: string, refundedMinor: number | null, keptMicros: number | null) =>
      payment({
        id, reference, status: 'completed', kind: 'payriff', method: 'payriff', amountUsdMicros: 10_000_000, amountMinor: 1700, currency: 'AZN',
        flagged: true, flagReason: 'Refund to the card: the gateway gave back 500 of 1700 (minor units of AZN); the balance kept 7058823 micro-USD.',
        refund: { status: 'partial', requestedAt: '2026-11-22T09:00:00.000Z', at: '2026-11-22T09:05:00.000Z', byEmail: 'owner@artim.az', reason: 'müştəri istədi', error: null, refundedMinor, keptMicros },
      });
    reply = () => Response.json({ ...list, payments: [partial('p-part', 'TP-PART', 500, 7_058_823), partial('p-unknown', 'TP-UNKNOWN', null, 0)] });
    const expected = {
      az: ['Karta qismən qaytarılıb', 'İşarələnib: ödəniş sistemi məbləğin yalnız bir hissəsini qaytarıb', '17,00 AZN məbləğindən 5,00 AZN karta qaytarılıb; balansda artırmanın 7,058823 $ hissəsi qaldı', 'Ödəniş sistemi karta nə qədər qaytarıldığını bildirmədi'],
      tr: ['Karta kısmen iade edildi', 'İşaretli: ödeme sistemi tutarın yalnızca bir kısmını iade etti', 'AZN 17,00 tutarın AZN 5,00 kadarı karta iade edildi; bakiyede yüklemenin $7,058823 kadarı kaldı', 'Ödeme sistemi karta ne kadar iade edildiğini bildirmedi'],
      en: ['Partly refunded to the card', 'Flagged: the gateway gave back only part of the charge', 'AZN 5.00 of AZN 17.00 went back to the card; the balance kept $7.058823 of the top-up', 'The gateway did not say how much went back to the card'],
    } as const;
    for (const lang of ['az', 'tr', 'en'] as const) {
      cleanup();
      show(lang);
      const [badge, flag, amounts, unknown] = expected[lang];
      const known = await row('TP-PART');
      expect(known.textContent).toContain(badge);
      expect(within(known).getByTestId('payment-flag').textContent).toContain(flag);
      // The localized reason, not the server's English words.
      expect(within(known).getByTestId('payment-flag').textContent).not.toContain('minor units');
      expect(within(known).getByTestId('payment-refund').dataset.refund).toBe('partial');
      // Amounts are written with the language's (non-breaking) spaces.
      expect(within(known).getByTestId('payment-refund-partial').textContent!.replace(/\s/g, ' ')).toContain(amounts);
      expect(within(await row('TP-UNKNOWN')).getByTestId('payment-refund-partial').textContent).toContain(unknown);
      // Settled: neither a refund nor a check of it, nor a chargeback, is offered.
      expect(within(known).queryByRole('button')).toBeNull();
    }
  });

  it('offers no refund to the card for a payment whose method cannot refund, nor to a role that may only read payments', async () => {
    reply = () => Response.json({ ...list, payments: [payment({ id: PAID, reference: 'TP-PAID', status: 'completed', kind: 'payriff', method: 'payriff', refundable: true })] });
    show('en', '/admin/payments', ['moderator']);
    expect(within(await row('TP-PAID')).queryByRole('button', { name: /Refund/ })).toBeNull();
    cleanup();
    reply = () => Response.json(list);
    show('en');
    expect(within(await row('TP-PAID')).queryByRole('button', { name: /Refund/ })).toBeNull();
    expect(within(await row('TP-PAID')).getByRole('button', { name: /chargeback/i })).toBeTruthy();
  });

  it('says while the list loads, when it failed (with a way to try again), and when nothing matches, in the reader’s language', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    reply = async () => (await held, Response.json({ error: { code: 'INTERNAL', message: 'x' } }, { status: 500 }));
    show('az');
    // Announced as a status (the page's address below is an <output>, a status too).
    expect((await screen.findByText('Yüklənir…')).closest('[role="status"]')).toBeTruthy();
    expect(screen.queryByTestId('payment-row')).toBeNull();
    release();
    const failure = await screen.findByRole('alert');
    expect(failure.textContent).toContain('Ödənişləri yükləmək mümkün olmadı');

    reply = () => Response.json({ ...list, total: 0, payments: [] });
    fireEvent.click(within(failure).getByRole('button', { name: 'Yenidən cəhd et' }));
    expect(await screen.findByText('Filtrlərə uyğun ödəniş yoxdur.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    cleanup();

    reply = () => Response.json({ error: { code: 'INTERNAL', message: 'x' } }, { status: 500 });
    show('tr');
    expect((await screen.findByRole('alert')).textContent).toContain('Ödemeler yüklenemedi');
    cleanup();
    show('en');
    expect((await screen.findByRole('alert')).textContent).toContain('The payments could not be loaded');
  });
});
