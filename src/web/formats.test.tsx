import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { PublicService } from '../core/contracts/catalog';
import type { OrderView } from '../core/contracts/orders';
import type { ContactMessageView } from '../core/contracts/support';
import { LANGUAGES, LOCALES, type Language } from '../core/i18n';
import { StaffRoles } from './features/admin/access';
import AdminDashboardPage from './features/admin/AdminDashboardPage';
import { adminKeys, type DashboardData } from './features/admin/api';
import { PriceSummary } from './features/catalog/PriceSummary';
import { dashboardKeys } from './features/dashboard/api';
import { HistoryTab } from './features/dashboard/HistoryTab';
import { OrderSummary } from './features/dashboard/OrderSummary';
import AdminContactMessagesPage from './features/support/AdminContactMessagesPage';
import { supportKeys } from './features/support/api';
import { MessageList } from './features/support/MessageList';
import { I18n, I18nProvider } from './i18n';

/*
 * The same amount, count and moment on a page of each area, in each language: every area writes
 * them one way per language.
 */

const localesDir = join(import.meta.dirname, 'i18n/locales');
const bundles = (lang: Language) =>
  Object.fromEntries(readdirSync(join(localesDir, lang)).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(localesDir, lang, f), 'utf8')) as Record<string, unknown>]));

/** 19:08 on 23 November 2026 where the tests run. */
const MOMENT = new Date(2026, 10, 23, 19, 8).toISOString();
/** $1,234.50 in micro-dollars, and the same figure in qəpik. */
const MICROS = 1_234_500_000;
const QEPIK = 123450;
const QUANTITY = 12345;

const EXPECTED: Record<Language, { usd: string; azn: string; count: string; dateTime: string; others: string[] }> = {
  az: { usd: '1.234,50\u00a0$', azn: '1.234,50\u00a0AZN', count: '12.345', dateTime: '23.11.2026 19:08', others: ['$1', '$ 1', '1,234', '12,345', 'US$', '₼', '2026-11-23', 'M11', '23.11.2026,'] },
  tr: { usd: '$1.234,50', azn: 'AZN\u00a01.234,50', count: '12.345', dateTime: '23.11.2026 19:08', others: ['1.234,50 $', '1,234', '12,345', 'US$', '₼', '2026-11-23', '23.11.2026,'] },
  en: { usd: '$1,234.50', azn: 'AZN\u00a01,234.50', count: '12,345', dateTime: 'Nov 23, 2026, 7:08 PM', others: ['1.234', '12.345', 'US$', '₼', '2026-11-23', '23.11.2026', '11/23/2026'] },
};

function render(lang: Language, node: ReactNode, seed: [readonly unknown[], unknown][] = []) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  for (const [key, data] of seed) client.setQueryData(key, data);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n(lang, { [lang]: bundles(lang) })}>
        <MemoryRouter initialEntries={[`/${lang}`]}>
          <StaffRoles roles={['admin', 'user']}>{node}</StaffRoles>
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const service: PublicService = {
  id: '1',
  platform: 'instagram',
  name: 'Instagram Followers',
  type: 'Followers',
  group: 'followers',
  min: 10,
  max: 100000,
  step: 1,
  tiers: [{ minimum: 10, maximum: 100000, price: '100', pricingPer: 1000 }],
  displayPrice: '100.00',
  displayPer: 1000,
  hasParams: false,
};
const fees = { serviceFeePercent: 0, baseFee: 0 };

const order: OrderView = {
  id: 'o1',
  number: 'ART-1',
  serviceId: '1',
  serviceName: 'Instagram Followers',
  platform: 'instagram',
  serviceType: 'Followers',
  link: 'https://instagram.com/artim',
  quantity: QUANTITY,
  chargeMicros: MICROS,
  refundedMicros: 0,
  status: 'completed',
  startCount: null,
  currentCount: null,
  remains: null,
  note: null,
  createdAt: MOMENT,
};

const dashboard: DashboardData = {
  totalUsers: QUANTITY,
  totalOrders: QUANTITY,
  pendingOrders: 0,
  completedOrders: 1,
  delayedOrders: 0,
  unknownOrders: 0,
  topUpsQepik: QEPIK,
  topUpsMicros: 0,
  todaySalesMicros: 0,
  todayGrossProfitMicros: 0,
  customerBalancesMicros: 0,
  owedByCustomersMicros: 0,
  accountsBelowZero: 0,
  providers: [],
  flaggedPayments: 0,
  waitingTickets: 0,
  sellsAtCost: false,
  activeServices: 3,
  latestOrders: [{ id: 'o1', number: 'ART-1', serviceName: 'Instagram Followers', createdAt: MOMENT, chargeMicros: MICROS, status: 'completed' }],
  providerAlerts: [],
  waitingForFunds: 0,
};

const contact: ContactMessageView = { id: 'c1', name: 'Aysel', email: 'aysel@example.com', subject: 'Price', message: 'Hello', status: 'new', createdAt: MOMENT };

function pages(lang: Language): Record<string, string> {
  const locale = LOCALES[lang];
  return {
    'storefront order summary': render(
      lang,
      <PriceSummary service={service} fees={fees} quantity={String(QUANTITY)} quantityValid locale={locale} signedIn={false} />,
    ),
    'dashboard order summary': render(
      lang,
      <OrderSummary service={service} fees={fees} quantity={String(QUANTITY)} total={MICROS} balanceMicros={MICROS * 2} locale={locale} placing={false} blockedBy={null} onTopUp={() => {}} />,
    ),
    'dashboard history': render(lang, <HistoryTab query={{ status: 'all', page: 1 }} onQuery={() => {}} locale={locale} onNewOrder={() => {}} />, [[dashboardKeys.history({ status: 'all', page: 1 }), { orders: [order], runs: [], total: 1, page: 1, pageSize: 20 }]]),
    'admin dashboard': render(lang, <AdminDashboardPage />, [[adminKeys.dashboard(), dashboard]]),
    'support conversation': render(lang, <MessageList messages={[{ id: 'm1', message: 'Hello', isAdmin: true, createdAt: MOMENT }]} side="customer" lang={lang} names={{ team: 'Team', customer: 'You' }} />),
    'admin contact messages': render(lang, <AdminContactMessagesPage />, [
      [supportKeys.contact, { messages: [contact], counts: { total: QUANTITY, new: 1, read: 0, replied: 0 } }],
    ]),
  };
}

/** What each page must show, in its language's single format. */
const SHOWS: Record<string, (keyof (typeof EXPECTED)['az'])[]> = {
  'storefront order summary': ['usd', 'count'],
  'dashboard order summary': ['usd', 'count'],
  'dashboard history': ['usd', 'count', 'dateTime'],
  'admin dashboard': ['usd', 'azn', 'count', 'dateTime'],
  'support conversation': ['dateTime'],
  'admin contact messages': ['count', 'dateTime'],
};

describe('one format for money, numbers and dates per language across the site', () => {
  for (const lang of LANGUAGES) {
    it(`${lang}: every area writes the same amount, count and moment alike`, () => {
      const expected = EXPECTED[lang];
      for (const [page, html] of Object.entries(pages(lang))) {
        // The text people read, without markup (icons' paths, machine-readable datetime attributes).
        const text = html.replace(/<[^>]*>/g, '|');
        for (const what of SHOWS[page]!) expect(text, `${lang} ${page}: ${what}`).toContain(expected[what] as string);
        for (const other of expected.others) expect(text, `${lang} ${page} shows another format: ${other}`).not.toContain(other);
      }
    });
  }
});
