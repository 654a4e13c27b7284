// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { Toaster } from 'sonner';
import { Window } from 'happy-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import common from '../../i18n/locales/az/common.json';
import payments from '../../i18n/locales/az/payments.json';
import { I18n, I18nProvider } from '../../i18n';
import { TopUpDialog } from './TopUpDialog';

/*
 * The top-up dialog in a document, in Azerbaijani: what a customer types, what it shows, what it
 * sends, and how a refusal of the server reads. The server is a stub of fetch here; the journeys
 * (e2e/payments.e2e.ts) run the same dialog against the real one.
 */

type Sent = { path: string; body: unknown };
let sent: Sent[];

/** The methods the stub offers: a card in manat, and lira with a fee and a higher minimum. */
const METHODS = [
  { kind: 'epoint', name: { az: 'Bank kartı', tr: 'Banka kartı', en: 'Bank card' }, currency: 'AZN', rate: '1.7', minMicros: 1_000_000, maxMicros: 10_000_000_000, feeBp: 0 },
  { kind: 'paytr', name: { az: 'PayTR', tr: 'PayTR', en: 'PayTR' }, currency: 'TRY', rate: '42', minMicros: 5_000_000, maxMicros: 10_000_000_000, feeBp: 199 },
];
let methodsAnswer: () => Response | Promise<Response>;
let couponAnswer: () => Response = () => Response.json({ error: { code: 'COUPON_NOT_FOUND', message: 'x' } }, { status: 422 });

function stubServer(topUp: () => Response) {
  sent = [];
  methodsAnswer = () => Response.json({ methods: METHODS });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'http://shop.test').pathname;
    sent.push({ path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (path === '/api/settings') return Response.json({ usd_azn_rate: 1.7 });
    if (path === '/api/payments/topup') return topUp();
    if (path === '/api/payments/methods') return methodsAnswer();
    if (path === '/api/payments/coupon') return couponAnswer();
    return Response.json({ error: { code: 'NOT_FOUND', message: 'x' } }, { status: 404 });
  });
  // The dialog opens the card page's tab inside the click; none here.
  vi.stubGlobal('open', () => null);
}

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n('az', { az: { common, payments } })}>
        <MemoryRouter initialEntries={['/az/dashboard']}>
          <Routes>
            <Route path="/:lang/dashboard" element={<TopUpDialog open onOpenChange={() => {}} onOpened={() => {}} />} />
          </Routes>
        </MemoryRouter>
        <Toaster />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const amountField = () => screen.getByLabelText(payments.topup.amount);

beforeEach(() => stubServer(() => Response.json({ error: { code: 'PAYMENT_NOT_CREATED', message: 'x' } }, { status: 502 })));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('top-up dialog', () => {
  it('words a refused amount in the page language once the field is left, and keeps the button off', async () => {
    renderDialog();
    const field = amountField();
    fireEvent.change(field, { target: { value: '0.5' } });
    fireEvent.blur(field);
    expect(await screen.findByText(/Minimum məbləğ/)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: payments.topup.continue }) as HTMLButtonElement).disabled).toBe(true);
    expect(sent.some((s) => s.path === '/api/payments/topup')).toBe(false);
  });

  it('shows the card charge at the rate, sends the contract’s input, and words the server’s refusal', async () => {
    renderDialog();
    const field = amountField();
    fireEvent.change(field, { target: { value: '12,50' } });
    // 12.50 USD at 1.7 AZN a dollar.
    await waitFor(() => expect(screen.getByTestId('topup-azn').textContent).toMatch(/21,25/));
    fireEvent.click(screen.getByRole('button', { name: payments.topup.continue }));
    const pay = await screen.findByRole('button', { name: /ödə$/ });
    fireEvent.click(pay);
    expect(await screen.findByText('Ödəniş yaradılmadı')).toBeTruthy();
    expect(sent.filter((s) => s.path === '/api/payments/topup').map((s) => s.body)).toEqual([{ amountMicros: 12_500_000, language: 'az', method: 'epoint' }]);
  });

  it('charges in the chosen method’s currency with its fee, within its bounds, and sends the method', async () => {
    renderDialog();
    const lira = await screen.findByRole('radio', { name: /PayTR/ });
    expect((screen.getByRole('radio', { name: /Bank kartı/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(lira);
    const field = amountField();
    fireEvent.change(field, { target: { value: '4' } });
    fireEvent.blur(field);
    // PayTR's minimum is 5 USD.
    expect(await screen.findByText(/Minimum məbləğ 5,00/)).toBeTruthy();
    fireEvent.change(field, { target: { value: '10' } });
    // 10 USD at 42 TRY = 420 TRY, +1.99 % = 428.358 → 428,36 TRY.
    await waitFor(() => expect(screen.getByTestId('topup-azn').textContent).toMatch(/428,36\sTRY/));
    expect(screen.getByText(/1 USD = 42 TRY · komissiya 1,99%/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: payments.topup.continue }));
    fireEvent.click(await screen.findByRole('button', { name: /428,36\sTRY ödə$/ }));
    await waitFor(() => expect(sent.filter((s) => s.path === '/api/payments/topup').map((s) => s.body)).toEqual([{ amountMicros: 10_000_000, language: 'az', method: 'paytr' }]));
  });

  it('says while the methods load, when they fail (with a retry), and when none is offered', async () => {
    let release: () => void = () => {};
    methodsAnswer = () => new Promise<Response>((ok) => (release = () => ok(Response.json({ error: { code: 'INTERNAL', message: 'x' } }, { status: 500 }))));
    renderDialog();
    expect(await screen.findByText(payments.topup.methodsLoading)).toBeTruthy();
    expect((screen.getByRole('button', { name: payments.topup.continue }) as HTMLButtonElement).disabled).toBe(true);
    release();
    expect(await screen.findByText(payments.topup.methodsFailed)).toBeTruthy();
    methodsAnswer = () => Response.json({ methods: [] });
    fireEvent.click(screen.getByRole('button', { name: payments.topup.retry }));
    expect(await screen.findByText(payments.topup.noMethods)).toBeTruthy();
    expect((screen.getByRole('button', { name: payments.topup.continue }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a styled page in the page’s language in the card page’s tab while the payment is created', async () => {
    const page = new Window();
    // The tab as the dialog uses it: its document, and what it sets on it.
    const tab = { document: page.document, opener: {}, closed: false, location: { href: '' }, matchMedia: () => ({ matches: true }), close: () => {} };
    let answer: (res: Response) => void = () => {};
    stubServer(() => new Promise<Response>((ok) => (answer = ok)) as unknown as Response);
    vi.stubGlobal('open', () => tab);
    renderDialog();
    fireEvent.change(amountField(), { target: { value: '10' } });
    await waitFor(() => expect(screen.getByTestId('topup-azn').textContent).toMatch(/17,00/));
    fireEvent.click(screen.getByRole('button', { name: payments.topup.continue }));
    fireEvent.click(await screen.findByRole('button', { name: /ödə$/ }));
    const doc = tab.document;
    await waitFor(() => expect(doc.querySelector('[role="status"]')?.textContent).toBe(payments.dialog.redirecting));
    expect(doc.documentElement.lang).toBe('az');
    expect(doc.title).toBe(payments.dialog.redirecting);
    // Laid out from the first paint: centred on a light page, not a bare line of text.
    expect(doc.body.style.display).toBe('flex');
    expect(doc.body.style.justifyContent).toBe('center');
    expect((doc.querySelector('[role="status"]') as unknown as HTMLElement).style.borderRadius).toBe('1rem');
    expect(doc.querySelector('meta[name="viewport"]')).not.toBeNull();
    answer(Response.json({ error: { code: 'PAYMENT_NOT_CREATED', message: 'x' } }, { status: 502 }));
    await page.happyDOM.close();
  });

  it('shows the deposit bonus the amount earns by the rules in force, and a coupon the server accepted, sent with the top-up', async () => {
    // 10 % from 20 USD for every method, at most 3 USD; a rule that ended yesterday gives nothing.
    const rules = [
      { id: 1, method: null, minMicros: 20_000_000, percentBp: 1000, capMicros: 3_000_000, startsAt: null, endsAt: null },
      { id: 2, method: null, minMicros: 0, percentBp: 5000, capMicros: null, startsAt: null, endsAt: new Date(Date.now() - 86_400_000).toISOString() },
    ];
    methodsAnswer = () => Response.json({ methods: METHODS, bonusRules: rules });
    renderDialog();
    const field = amountField();
    fireEvent.change(field, { target: { value: '10' } });
    // Below the rule's smallest amount: what earns it is said.
    await waitFor(() => expect(screen.getByTestId('topup-bonus-hint').textContent).toMatch(/^20,00\s\$ və daha çox artırsanız, 10% bonus$/));
    fireEvent.change(field, { target: { value: '25' } });
    await waitFor(() => expect(screen.getByTestId('topup-bonus').textContent).toMatch(/^\+2,50\s\$ bonus \(10%\)$/));
    fireEvent.change(field, { target: { value: '50' } });
    await waitFor(() => expect(screen.getByTestId('topup-bonus').textContent).toMatch(/^\+3,00\s\$ bonus \(10%\)$/));
    fireEvent.click(screen.getByRole('button', { name: payments.topup.continue }));
    expect((await screen.findByTestId('payment-bonus')).textContent).toMatch(/^\+3,00\s\$$/);

    // A refused coupon is worded and kept in the field; an accepted one is shown and sent.
    const code = screen.getByLabelText(payments.dialog.couponLabel);
    fireEvent.change(code, { target: { value: 'yaz25' } });
    fireEvent.click(screen.getByRole('button', { name: payments.dialog.couponApply }));
    expect(await screen.findByText('Bu kupon tapılmadı')).toBeTruthy();
    expect((code as HTMLInputElement).value).toBe('yaz25');
    couponAnswer = () => Response.json({ code: 'YAZ25', bonusMicros: 2_000_000 });
    fireEvent.click(screen.getByRole('button', { name: payments.dialog.couponApply }));
    expect((await screen.findByTestId('payment-coupon')).textContent).toMatch(/^\+2,00\s\$$/);
    expect(sent.filter((s) => s.path === '/api/payments/coupon').map((s) => s.body)).toEqual([
      { code: 'yaz25', amountMicros: 50_000_000 },
      { code: 'yaz25', amountMicros: 50_000_000 },
    ]);
    fireEvent.click(screen.getByRole('button', { name: /ödə$/ }));
    await waitFor(() =>
      expect(sent.filter((s) => s.path === '/api/payments/topup').map((s) => s.body)).toEqual([{ amountMicros: 50_000_000, language: 'az', method: 'epoint', coupon: 'YAZ25' }]),
    );
  });
});
