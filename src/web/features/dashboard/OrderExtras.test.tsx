import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { OrderActions } from '../../../core/contracts/reseller';
import { I18n, I18nProvider } from '../../i18n';
import common from '../../i18n/locales/en/common.json';
import reseller from '../../i18n/locales/en/reseller.json';
import { OrderExtras } from './OrderExtras';

const base: OrderActions = { viaApi: false, apiId: 100001, canRefill: false, canCancel: false, refillUntil: null, refill: null, cancelRequested: false };
const render = (actions: OrderActions) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider i18n={new I18n('en', { en: { common, reseller } })}>
        <OrderExtras orderId="o1" actions={actions} />
      </I18nProvider>
    </QueryClientProvider>,
  );

describe('history: order extras', () => {
  it('shows refill and cancel buttons only where the order allows them', () => {
    expect(render(base)).not.toMatch(/Refill|Cancel/);
    expect(render({ ...base, canRefill: true })).toContain('>Refill<');
    expect(render({ ...base, canRefill: true })).not.toContain('>Cancel<');
    expect(render({ ...base, canCancel: true })).toContain('>Cancel<');
  });

  it('marks orders placed through the API and shows a refill’s state', () => {
    expect(render({ ...base, viaApi: true })).toContain('via API');
    expect(render(base)).not.toContain('via API');
    expect(render({ ...base, refill: { id: 5001, status: 'in_progress', createdAt: '2026-01-01T00:00:00Z' } })).toContain('Refill: in progress');
  });
});
