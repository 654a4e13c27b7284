import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { I18n, I18nProvider } from '../../i18n';
import catalog from '../../i18n/locales/en/catalog.json';
import common from '../../i18n/locales/en/common.json';
import dashboard from '../../i18n/locales/en/dashboard.json';
import azCatalog from '../../i18n/locales/az/catalog.json';
import azCommon from '../../i18n/locales/az/common.json';
import azDashboard from '../../i18n/locales/az/dashboard.json';
import { OrderSummary } from './OrderSummary';

const render = (balanceMicros: number, total: number) =>
  renderToStaticMarkup(
    <I18nProvider i18n={new I18n('en', { en: { catalog, common, dashboard } })}>
      <OrderSummary
        service={undefined}
        fees={{ baseFee: 0, serviceFeePercent: 0 }}
        quantity=""
        total={total}
        balanceMicros={balanceMicros}
        locale="en"
        placing={false}
        blockedBy={balanceMicros < total ? 'balance' : null}
        onTopUp={() => {}}
      />
    </I18nProvider>,
  );

describe('order summary', () => {
  it('shows the balance after the order when it is enough', () => {
    const html = render(10_000_000, 2_500_000);
    expect(html).toContain('After this order');
    expect(html).toContain('$7.50');
    expect(html).not.toContain('data-testid="balance-short"');
  });

  it('never shows a negative balance: a short balance shows what is missing', () => {
    const html = render(1_000_000, 3_500_000);
    expect(html).toContain('data-testid="balance-short"');
    expect(html).toContain('Missing from your balance');
    expect(html).toContain('$2.50');
    expect(html).not.toMatch(/-\$|−\$|\$-/);
    expect(html).not.toContain('After this order');
  });

  it('shows a fraction of a cent with the decimals it has', () => {
    const html = render(1_000_000, 212_720);
    expect(html).toContain('$0.21272');
    expect(html).toContain('$0.78728');
  });
});

describe('order summary for a customer with a discount (docs/rules.md#discounts)', () => {
  const service = {
    id: '12',
    platform: 'instagram',
    name: 'Instagram Followers',
    type: 'Default',
    group: 'followers' as const,
    min: 100,
    max: 10_000,
    step: 1,
    tiers: [{ minimum: 100, maximum: 10_000, price: '0.2', pricingPer: 1000 }],
    displayPrice: '0.21272',
    displayPer: 1000,
    hasParams: false,
  };
  const summary = (fees: { serviceFeePercent: number; baseFee: number; discountPercent?: string }) =>
    renderToStaticMarkup(
      <I18nProvider i18n={new I18n('en', { en: { catalog, common, dashboard } })}>
        <OrderSummary service={service} fees={fees} quantity="1000" total={191_450} balanceMicros={10_000_000} locale="en" placing={false} blockedBy={null} onTopUp={() => {}} />
      </I18nProvider>,
    );

  it('shows their price per 1000 with the list price struck through and the discount on its own line', () => {
    const html = summary({ serviceFeePercent: 6.36, baseFee: 0, discountPercent: '10' });
    expect(html).toContain('Your price per 1,000');
    expect(html).toMatch(/>\$0\.19145</);
    expect(html).toContain('<s>List price $0.21272</s>');
    expect(html).toMatch(/data-testid="your-discount"[^>]*>−10%</);
  });

  it('shows list prices and no discount line without one', () => {
    const html = summary({ serviceFeePercent: 6.36, baseFee: 0 });
    expect(html).toContain('Price per 1,000');
    expect(html).not.toContain('Your price');
    expect(html).not.toContain('your-discount');
    expect(html).not.toContain('List price');
  });
});

describe('order summary of a drip-feed', () => {
  const service = {
    id: '14',
    platform: 'instagram',
    name: 'Instagram Views',
    type: 'Default',
    group: 'views' as const,
    min: 100,
    max: 10_000,
    step: 1,
    tiers: [{ minimum: 100, maximum: 10_000, price: '1', pricingPer: 1000 }],
    displayPrice: '1',
    displayPer: 1000,
    hasParams: false,
    dripfeed: true,
  };
  const summary = (lang: 'az' | 'en', runs: number) =>
    renderToStaticMarkup(
      <I18nProvider i18n={new I18n(lang, { [lang]: lang === 'en' ? { catalog, common, dashboard } : { catalog: azCatalog, common: azCommon, dashboard: azDashboard } })}>
        <OrderSummary service={service} fees={{ serviceFeePercent: 0, baseFee: 0.5 }} quantity="1000" total={runs * 1_500_000} runs={runs} balanceMicros={100_000_000} locale={lang === 'en' ? 'en-US' : 'az-AZ'} placing={false} blockedBy={null} onTopUp={() => {}} />
      </I18nProvider>,
    );

  it('shows one run’s quantity, runs × quantity = the quantity of all runs, and the total of all runs', () => {
    const html = summary('en', 3);
    expect(html).toContain('Quantity per run');
    expect(html).toMatch(/data-testid="total-quantity"[^>]*>3 × 1,000 = 3,000</);
    expect(html).toContain('Order fee (each run)');
    expect(html).toContain('for 3 runs');
    expect(html).toMatch(/data-testid="order-total"[^>]*>\$4\.50</);
    expect(summary('az', 4)).toMatch(/data-testid="total-quantity"[^>]*>4 × 1\.000 = 4\.000</);
  });

  it('shows the plain quantity for an order of one run', () => {
    const html = summary('en', 1);
    expect(html).not.toContain('total-quantity');
    expect(html).not.toContain('per run');
  });
});
