import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../core/i18n';
import { I18n, I18nProvider } from '../../i18n';
import { formatMoney } from '../../lib/format';
import { OrderCost } from './AdminOrdersPage';
import type { OrderDetail } from './api';

/* What an order cost in the team's order detail (docs/rules.md#what-an-order-cost). */

const localesDir = join(import.meta.dirname, '../../i18n/locales');
const bundles = (lang: Language) =>
  Object.fromEntries(readdirSync(join(localesDir, lang)).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(localesDir, lang, f), 'utf8')) as Record<string, unknown>]));

const base: OrderDetail['cost'] = {
  providerId: '00000000-0000-4000-8000-000000000001',
  providerName: 'Panel V2',
  providerServiceId: '4021',
  costMicros: 1_234_567,
  costRefundedMicros: 0,
  providerChargeMicros: 1_234_570,
  difference: { differenceMicros: 3, flagged: false },
  marginMicros: 765_433,
};

const render = (lang: Language, cost: OrderDetail['cost']) =>
  renderToStaticMarkup(
    <I18nProvider i18n={new I18n(lang, { [lang]: bundles(lang) })}>
      <OrderCost cost={cost} />
    </I18nProvider>,
  );

const words = {
  en: { title: 'What it cost', differs: 'Differs', matches: 'Matches', margin: 'Margin', unknown: 'Not known', notReported: 'Not reported', byDefault: 'Default provider' },
  az: { title: 'Xərc', differs: 'Fərqlənir', matches: 'Uyğundur', margin: 'Marja', unknown: 'Məlum deyil', notReported: 'Bildirilməyib', byDefault: 'Əsas provayder' },
  tr: { title: 'Maliyet', differs: 'Farklı', matches: 'Eşleşiyor', margin: 'Kâr marjı', unknown: 'Bilinmiyor', notReported: 'Bildirilmedi', byDefault: 'Varsayılan sağlayıcı' },
} as const;

describe('the order detail: what it cost', () => {
  it('shows the provider, its service, our cost, its charge to the micro and the margin; no flag when they match', () => {
    for (const lang of ['az', 'tr', 'en'] as const) {
      const html = render(lang, base);
      expect(html).toContain(words[lang].title);
      expect(html).toContain('Panel V2');
      expect(html).toContain('4021');
      expect(html).toContain(formatMoney(1_234_567, 'USD', lang));
      expect(html).toContain(formatMoney(1_234_570, 'USD', lang));
      expect(html).toContain(formatMoney(765_433, 'USD', lang));
      expect(html).toContain(words[lang].matches);
      expect(html).not.toContain('data-testid="order-cost-differs"');
    }
  });

  it('marks a charge that differs, with the difference, in each language', () => {
    for (const lang of ['az', 'tr', 'en'] as const) {
      const html = render(lang, { ...base, providerChargeMicros: 1_234_578, difference: { differenceMicros: 11, flagged: true } });
      expect(html).toMatch(new RegExp(`data-testid="order-cost-differs"[^>]*>.*?${words[lang].differs}`, 's'));
      expect(html).toContain(`+${formatMoney(11, 'USD', lang)}`);
    }
  });

  it('says when the cost is not known, no charge was reported, and the default provider holds the order', () => {
    for (const lang of ['az', 'tr', 'en'] as const) {
      const html = render(lang, { ...base, providerId: null, providerName: null, costMicros: null, providerChargeMicros: null, difference: null, marginMicros: null });
      expect(html).toContain(words[lang].byDefault);
      expect(html).toContain(words[lang].unknown);
      expect(html).toContain(words[lang].notReported);
      expect(html).not.toContain(words[lang].matches);
    }
  });
});
