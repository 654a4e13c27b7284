import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../core/i18n';
import { I18n, I18nProvider } from '../../i18n';
import { StaffRoles } from './access';
import AdminDashboardPage from './AdminDashboardPage';
import { adminKeys, type DashboardData } from './api';

/* The admin dashboard tells the team how many orders are delayed and links to them (docs/rules.md#delayed-orders). */

const localesDir = join(import.meta.dirname, '../../i18n/locales');
const bundles = (lang: Language) =>
  Object.fromEntries(readdirSync(join(localesDir, lang)).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(localesDir, lang, f), 'utf8')) as Record<string, unknown>]));

const dashboard: DashboardData = {
  totalUsers: 10,
  totalOrders: 40,
  pendingOrders: 12,
  completedOrders: 20,
  delayedOrders: 7,
  unknownOrders: 0,
  topUpsQepik: 100,
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
  latestOrders: [],
  providerAlerts: [],
  waitingForFunds: 0,
};

function page(lang: Language): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(adminKeys.dashboard(), dashboard);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n(lang, { [lang]: bundles(lang) })}>
        <MemoryRouter initialEntries={[`/${lang}/admin`]}>
          <StaffRoles roles={['admin', 'user']}>
            <AdminDashboardPage />
          </StaffRoles>
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
}

describe('delayed orders on the admin dashboard', () => {
  it('shows their count, linked to the orders list filtered to them, in each language', () => {
    const labels = { az: 'Gecikən sifarişlər', tr: 'Geciken siparişler', en: 'Delayed orders' } as const;
    for (const lang of ['az', 'tr', 'en'] as const) {
      const html = page(lang);
      expect(html).toContain('data-testid="stat-delayed"');
      const link = html.match(new RegExp(`<a [^>]*href="/${lang}/admin/orders\\?delayed=1"[^>]*>.*?data-testid="stat-delayed".*?</a>`, 's'));
      expect(link, lang).not.toBeNull();
      expect(link![0]).toContain(labels[lang]);
      expect(link![0]).toContain('>7<');
    }
  });
});
