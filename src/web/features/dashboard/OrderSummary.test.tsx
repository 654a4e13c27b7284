import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { I18n, I18nProvider } from '../../i18n';
import catalog from '../../i18n/locales/en/catalog.json';
import common from '../../i18n/locales/en/common.json';
import dashboard from '../../i18n/locales/en/dashboard.json';
import { OrderSummary } from './OrderSummary';

const render = (balanceCents: number, total: number) =>
  renderToStaticMarkup(
    <I18nProvider i18n={new I18n('en', { en: { catalog, common, dashboard } })}>
      <OrderSummary
        service={undefined}
        fees={{ baseFee: 0, serviceFeePercent: 0 }}
        quantity=""
        total={total}
        balanceCents={balanceCents}
        locale="en"
        placing={false}
        blockedBy={balanceCents < total ? 'balance' : null}
        onTopUp={() => {}}
      />
    </I18nProvider>,
  );

describe('order summary', () => {
  it('shows the balance after the order when it is enough', () => {
    const html = render(1000, 250);
    expect(html).toContain('After this order');
    expect(html).toContain('$7.50');
    expect(html).not.toContain('data-testid="balance-short"');
  });

  it('never shows a negative balance: a short balance shows what is missing', () => {
    const html = render(100, 350);
    expect(html).toContain('data-testid="balance-short"');
    expect(html).toContain('Missing from your balance');
    expect(html).toContain('$2.50');
    expect(html).not.toMatch(/-\$|−\$|\$-/);
    expect(html).not.toContain('After this order');
  });
});
