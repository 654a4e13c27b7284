import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { HistoryQuery, OrderView } from '../../../core/contracts/orders';
import { I18n, I18nProvider } from '../../i18n';
import common from '../../i18n/locales/en/common.json';
import dashboard from '../../i18n/locales/en/dashboard.json';
import reseller from '../../i18n/locales/en/reseller.json';
import { dashboardKeys } from './api';
import { HistoryTab } from './HistoryTab';
import { historyFromAddress, withHistory } from './historyAddress';

const order: OrderView = {
  id: 'o1',
  number: 'AR-ABCDEFGHJK',
  serviceId: '7',
  serviceName: 'YouTube Views',
  platform: 'youtube',
  serviceType: 'Default',
  link: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf&index=7',
  quantity: 1000,
  chargeMicros: 1_250_000,
  refundedMicros: 0,
  status: 'in_progress',
  startCount: 18_214,
  currentCount: 18_600,
  remains: 614,
  note: null,
  createdAt: '2026-11-01T10:00:00Z',
};

const render = (query: HistoryQuery, page: { orders: OrderView[]; total: number }) => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(dashboardKeys.history(query), { ...page, runs: [], page: query.page, pageSize: 20 });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n('en', { en: { common, dashboard, reseller } })}>
        <MemoryRouter>
          <HistoryTab query={query} onQuery={() => {}} locale="en-US" onNewOrder={() => {}} />
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
};

describe('order history rows', () => {
  it('show the whole link, the start count and what remains, and link to the order’s tracking page', () => {
    const html = render({ status: 'all', page: 1 }, { orders: [order], total: 1 });
    expect(html).toContain(`>${order.link.replace(/&/g, '&amp;')}<`);
    expect(html).not.toContain('truncate');
    expect(html.match(/Start count: 18,214/g)).toHaveLength(2);
    expect(html.match(/Remains: 614/g)).toHaveLength(2);
    expect(html.match(/href="\/track\?order=AR-ABCDEFGHJK"/g)).toHaveLength(2);
    expect(html).toContain('aria-label="Track order AR-ABCDEFGHJK"');
  });

  it('offers the status tabs, the search, and pages when there are more than one', () => {
    const html = render({ status: 'active', q: 'youtube', page: 2 }, { orders: [order], total: 41 });
    expect(html).toMatch(/role="tab"[^>]*aria-selected="true"[^>]*>Active</);
    expect(html).toContain('value="youtube"');
    expect(html).toContain('Page 2 of 3');
    expect(html).toContain('41 orders found');
  });

  it('says nothing matches, and offers every order again, when a search finds none', () => {
    const html = render({ status: 'failed', page: 1 }, { orders: [], total: 0 });
    expect(html).toContain('No matching orders');
    expect(html).toContain('Show all orders');
    expect(html).not.toContain('No orders yet');
  });
});

describe('the history in the address', () => {
  it('reads the tab, search and page, and falls back to the defaults for what it cannot mean', () => {
    expect(historyFromAddress(new URLSearchParams('status=partial&q=%20AR-12%20&page=3'))).toEqual({ status: 'partial', q: 'AR-12', page: 3 });
    expect(historyFromAddress(new URLSearchParams('status=done&page=-1&q='))).toEqual({ status: 'all', page: 1 });
  });

  it('writes only what differs from the defaults and keeps other parameters', () => {
    expect(withHistory(new URLSearchParams('payment=success&page=4'), { status: 'all', page: 1 }).toString()).toBe('payment=success');
    expect(withHistory(new URLSearchParams(), { status: 'failed', q: 'youtube.com/watch', page: 2 }).toString()).toBe('status=failed&q=youtube.com%2Fwatch&page=2');
  });
});
