import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { I18n, I18nProvider } from '../../i18n';
import catalog from '../../i18n/locales/en/catalog.json';
import common from '../../i18n/locales/en/common.json';
import dashboard from '../../i18n/locales/en/dashboard.json';
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
