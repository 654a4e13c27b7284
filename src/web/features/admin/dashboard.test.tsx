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

/*
 * The owner's cockpit (docs/rules.md#owner-figures): today's sales and profit, what the shop owes,
 * each count that needs attention linked to its filtered list, providers' balances (below the
 * threshold in red), and the notice that a shop without fees sells at cost, linked to the settings.
 */

const localesDir = join(import.meta.dirname, '../../i18n/locales');
const bundles = (lang: Language) =>
  Object.fromEntries(readdirSync(join(localesDir, lang)).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(localesDir, lang, f), 'utf8')) as Record<string, unknown>]));

const base: DashboardData = {
  totalUsers: 10,
  totalOrders: 40,
  pendingOrders: 12,
  completedOrders: 20,
  delayedOrders: 7,
  unknownOrders: 3,
  topUpsQepik: 7650,
  topUpsMicros: 45_000_000,
  todaySalesMicros: 12_340_000,
  todayGrossProfitMicros: 2_100_000,
  customerBalancesMicros: 30_000_000,
  owedByCustomersMicros: 4_500_000,
  accountsBelowZero: 1,
  activeServices: 3,
  latestOrders: [],
  providers: [
    { id: 'p1', name: 'Main panel', balance: '3.20', currency: 'USD', low: true, fundsShortSince: null },
    { id: 'p2', name: 'Second panel', balance: '250.00', currency: 'USD', low: false, fundsShortSince: null },
  ],
  providerAlerts: [{ id: 'p1', name: 'Main panel', balance: '3.20', currency: 'USD', low: true, fundsShortSince: null }],
  waitingForFunds: 2,
  flaggedPayments: 4,
  waitingTickets: 5,
  sellsAtCost: true,
};

function page(lang: Language, data: DashboardData): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(adminKeys.dashboard(), data);
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

const linkOf = (html: string, testId: string) => html.match(new RegExp(`<a [^>]*data-testid="${testId}"[^>]*>.*?</a>`, 's'))?.[0] ?? null;

describe('the admin dashboard', () => {
  it('links every count that needs attention to its filtered list, in each language', () => {
    const counts = { unknown: 3, delayed: 7, funds: 2, flagged: 4, tickets: 5 };
    const targets = { unknown: 'orders?status=unknown', delayed: 'orders?delayed=1', funds: 'orders?funds=1', flagged: 'payments?flagged=1', tickets: 'support?status=open' };
    for (const lang of ['az', 'tr', 'en'] as const) {
      const html = page(lang, base);
      const texts = bundles(lang).admin as { dashboard: { attentionItems: Record<string, string> } };
      for (const [key, count] of Object.entries(counts)) {
        const link = linkOf(html, `attention-${key}`);
        expect(link, `${lang} ${key}`).not.toBeNull();
        expect(link).toContain(`href="/${lang}/admin/${targets[key as keyof typeof targets]}"`);
        expect(link).toContain(texts.dashboard.attentionItems[key]!);
        expect(link).toContain(`>${count}<`);
      }
    }
  });

  it('shows today’s sales and gross profit, customer balances with what accounts below zero owe, and top-ups under their own name', () => {
    const html = page('en', base);
    expect(html).toMatch(/data-testid="stat-today-sales".*Sales today.*\$12\.34/s);
    expect(html).toMatch(/data-testid="stat-today-profit".*Gross profit today.*\$2\.10/s);
    expect(html).toMatch(/data-testid="stat-balances".*\$30\.00.*data-testid="stat-owed"[^>]*>\$4\.50 owed by 1 account below zero/s);
    expect(html).toMatch(/data-testid="stat-topups".*Top-ups \(all time\)/s);
    expect(html).not.toMatch(/revenue/i);
    expect(page('en', { ...base, owedByCustomersMicros: 0, accountsBelowZero: 0 })).not.toContain('stat-owed');
  });

  it('writes each figure’s label whole, wrapping where it must instead of cutting it, in each language', () => {
    const stats = { 'stat-today-sales': 'todaySales', 'stat-today-profit': 'todayGrossProfit', 'stat-users': 'totalUsers', 'stat-pending': 'pendingOrders' };
    for (const lang of ['az', 'tr', 'en'] as const) {
      const html = page(lang, base);
      const names = (bundles(lang).admin as { dashboard: Record<string, string> }).dashboard;
      for (const [testId, key] of Object.entries(stats)) {
        const label = html.match(new RegExp(`data-testid="${testId}".*?<p class="([^"]*)">([^<]*)</p>`, 's'));
        expect(label, `${lang} ${testId}`).not.toBeNull();
        expect(label![2]).toBe(names[key]);
        const classes = label![1].split(' ');
        for (const cut of ['truncate', 'text-ellipsis', 'whitespace-nowrap', 'overflow-hidden']) expect(classes, `${lang} ${testId}`).not.toContain(cut);
        expect(classes.some((c) => c.startsWith('line-clamp'))).toBe(false);
        // A long word breaks rather than overflow the card.
        expect(classes.some((c) => /^(\[overflow-wrap:(anywhere|break-word)\]|break-words)$/.test(c)), `${lang} ${testId}`).toBe(true);
      }
    }
    // The longest of them, which a cut label showed as "Bugünkü ümumi mən…".
    expect(page('az', base)).toMatch(/data-testid="stat-today-profit".*?>Bugünkü ümumi mənfəət<\/p>/s);
  });

  it('shows each provider’s balance, the one below its threshold marked', () => {
    const html = page('en', base);
    expect(html).toMatch(/Main panel.*data-low="true"[^>]*>3\.20 USD.*below the threshold/s);
    expect(html).toMatch(/Second panel.*data-low="false"[^>]*>250\.00 USD/s);
  });

  it('says that a shop without fees sells at cost, linking to the settings, and says nothing once a fee is set', () => {
    for (const lang of ['az', 'tr', 'en'] as const) {
      const html = page(lang, base);
      const notice = html.match(/<p role="note" data-testid="sells-at-cost".*?<\/p>/s)?.[0];
      expect(notice, lang).toBeDefined();
      expect(notice).toContain(`href="/${lang}/admin/settings"`);
      expect(notice).toContain((bundles(lang).admin as { dashboard: { sellsAtCost: string } }).dashboard.sellsAtCost.slice(0, 20));
      expect(page(lang, { ...base, sellsAtCost: false })).not.toContain('sells-at-cost');
    }
  });
});
