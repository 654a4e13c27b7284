import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../../core/contracts/orders';
import { LOCALES, type Language } from '../../../core/i18n';
import type { OrderNote } from '../../../core/orderNotes';
import { I18n, I18nProvider } from '../../i18n';
import { dashboardKeys } from './api';
import { HistoryTab } from './HistoryTab';

/* An order's note is worded in the reader's language; the provider's message follows as it was sent. */

const localesDir = join(import.meta.dirname, '../../i18n/locales');
const bundles = (lang: Language) =>
  Object.fromEntries(readdirSync(join(localesDir, lang)).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(localesDir, lang, f), 'utf8')) as Record<string, unknown>]));

const order = (note: OrderNote | null): OrderView => ({
  id: 'o1',
  number: 'AR-0000000001',
  serviceId: '1',
  serviceName: 'Instagram Followers',
  platform: 'instagram',
  serviceType: 'Followers',
  link: 'https://instagram.com/artim',
  quantity: 100,
  chargeMicros: 5_000_000,
  refundedMicros: 5_000_000,
  status: 'error',
  startCount: null,
  currentCount: null,
  remains: null,
  note,
  createdAt: new Date(2026, 10, 23, 19, 8).toISOString(),
});

function history(lang: Language, note: OrderNote | null): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(dashboardKeys.history({ status: 'all', page: 1 }), { orders: [order(note)], runs: [], total: 1, page: 1, pageSize: 20 });
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

describe('order notes in the order history', () => {
  it('an English customer reads a provider failure in English', () => {
    const html = history('en', { code: 'provider_no_answer', message: null });
    expect(html).toContain('The API did not answer. Please try again.');
    expect(html).not.toContain('cavab');
  });

  it('a Turkish customer reads a refusal in Turkish, with the provider message as it was sent', () => {
    const html = history('tr', { code: 'provider_refused', message: 'Incorrect link' });
    expect(html).toContain('Sipariş verilemedi. Lütfen tekrar deneyin. Sağlayıcının yanıtı: Incorrect link');
  });

  it('an Azerbaijani customer reads the sentences orders carried before notes were codes', () => {
    expect(history('az', { code: 'provider_no_answer', message: null })).toContain('API cavab vermədi. Yenidən cəhd edin.');
    expect(history('az', { code: 'provider_refused', message: null })).toContain('Sifariş verilmədi. Yenidən cəhd edin.');
    expect(history('az', { code: 'provider_never_received', message: null })).toContain('Sifariş ID alınmadı. Yenidən cəhd edin.');
  });

  it('an old note of unknown meaning is shown as it was written', () => {
    for (const lang of ['az', 'tr', 'en'] as const) expect(history(lang, { code: 'other', message: 'Link is private' })).toContain('Link is private');
  });
});
