import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../../core/contracts/orders';
import { LOCALES, type Language } from '../../../core/i18n';
import { I18n, I18nProvider } from '../../i18n';
import { dashboardKeys } from './api';
import { HistoryTab } from './HistoryTab';

/* A delayed order says so in the reader's language, with how soon its service usually starts (docs/rules.md#delayed-orders). */

const localesDir = join(import.meta.dirname, '../../i18n/locales');
const bundles = (lang: Language) =>
  Object.fromEntries(readdirSync(join(localesDir, lang)).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(localesDir, lang, f), 'utf8')) as Record<string, unknown>]));

const order = (delay: OrderView['delay']): OrderView => ({
  id: 'o1',
  number: 'AR-0000000001',
  serviceId: '1',
  serviceName: 'Instagram Followers',
  platform: 'instagram',
  serviceType: 'Followers',
  link: 'https://instagram.com/artim',
  quantity: 100,
  chargeMicros: 5_000_000,
  refundedMicros: 0,
  status: 'pending',
  startCount: null,
  currentCount: null,
  remains: null,
  note: null,
  delay,
  createdAt: new Date(2026, 10, 23, 19, 8).toISOString(),
});

function history(lang: Language, delay: OrderView['delay']): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(dashboardKeys.history({ status: 'all', page: 1 }), { orders: [order(delay)], runs: [], total: 1, page: 1, pageSize: 20 });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n(lang, { [lang]: bundles(lang) })}>
        <MemoryRouter initialEntries={[`/${lang}`]}>
          <HistoryTab query={{ status: 'all', page: 1 }} onQuery={() => {}} locale={LOCALES[lang]} onNewOrder={() => {}} />
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
}

describe('a delayed order in the order history', () => {
  const delay = { since: '2026-11-23T20:00:00.000Z', usualMinutes: 136 };

  it('is worded in each language with the service’s usual start', () => {
    expect(history('az', delay)).toContain('Gecikir — bu xidmət adətən 136 dəqiqəyə başlayır');
    expect(history('tr', delay)).toContain('Gecikiyor — bu hizmet genellikle 136 dakika içinde başlar');
    expect(history('en', delay)).toContain('Delayed — this service usually starts within 136 minutes');
  });

  it('says nothing of a delay for an order that is not delayed', () => {
    for (const lang of ['az', 'tr', 'en'] as const) expect(history(lang, null)).not.toContain('data-testid="order-delay"');
  });
});
