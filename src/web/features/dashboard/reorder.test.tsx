import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../../core/contracts/orders';
import { I18n, I18nProvider } from '../../i18n';
import common from '../../i18n/locales/en/common.json';
import dashboard from '../../i18n/locales/en/dashboard.json';
import orderTools from '../../i18n/locales/en/order-tools.json';
import reseller from '../../i18n/locales/en/reseller.json';
import { dashboardKeys } from './api';
import { HistoryTab } from './HistoryTab';
import { reorderState } from './reorder';

const order: OrderView = {
  id: 'o1',
  number: 'AR-ABCDEFGHJK',
  serviceId: '1203',
  serviceName: 'Instagram Followers',
  platform: 'instagram',
  serviceType: 'Default',
  link: 'https://instagram.com/artim',
  quantity: 250,
  chargeMicros: 1_250_000,
  refundedMicros: 0,
  status: 'completed',
  startCount: null,
  currentCount: null,
  remains: 0,
  note: null,
  createdAt: '2026-11-01T10:00:00Z',
};

const render = (onReorder?: () => void) => {
  const client = new QueryClient();
  client.setQueryData(dashboardKeys.history({ status: 'all', page: 1 }), { orders: [order], runs: [], total: 1, page: 1, pageSize: 20 });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n('en', { en: { common, dashboard, reseller, 'order-tools': orderTools } })}>
        <MemoryRouter>
          <HistoryTab query={{ status: 'all', page: 1 }} onQuery={() => {}} locale="en-US" onNewOrder={() => {}} onReorder={onReorder} />
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
};

describe('history: order again', () => {
  it('offers "Order again" on every row (table and card) when the dashboard handles it', () => {
    const html = render(() => {});
    expect(html.match(/data-reorder="AR-ABCDEFGHJK"/g)).toHaveLength(2);
    expect(html).toContain('Order again');
    expect(render()).not.toContain('Order again');
  });

  it('fills the order form with the same service, link and quantity', () => {
    expect(reorderState(order)).toEqual({
      tab: 'orders',
      serviceId: '1203',
      platform: 'instagram',
      link: 'https://instagram.com/artim',
      quantity: 250,
      params: {},
    });
  });
});
