import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ServiceParam } from '../../../core/catalog';
import type { PublicService } from '../../../core/contracts/catalog';
import { localizeParam } from '../../../core/paramTexts';
import { I18n, I18nProvider } from '../../i18n';
import catalog from '../../i18n/locales/az/catalog.json';
import { OrderDetails } from './OrderDetails';
import { issuesByField, orderIssues } from './orderForm';

const service: PublicService = {
  id: '1204',
  platform: 'instagram',
  name: 'Instagram Followers [Targeted Country]',
  type: 'Followers',
  group: 'followers',
  min: 10,
  max: 5000,
  step: 10,
  tiers: [{ minimum: 10, maximum: 5000, price: '2.00', pricingPer: 1000 }],
  displayPrice: '2.20',
  displayPer: 1000,
  hasParams: true,
};

/** The params as the sandbox provider words them. */
const provider: ServiceParam[] = [
  { fieldName: 'gender', fieldLabel: 'Gender', fieldType: 'dropdown', placeholder: '', description: '', required: false, options: [{ name: 'Mixed', value: 'mixed' }, { name: 'Female', value: 'female' }, { name: 'Male', value: 'male' }] },
  { fieldName: 'geo-countries', fieldLabel: 'Country', fieldType: 'text', placeholder: 'US', description: 'Two-letter ISO country code (e.g. US, TR, AZ).', required: true, options: [] },
  { fieldName: 'comments', fieldLabel: 'Comments', fieldType: 'textarea', placeholder: 'Great post!', description: 'One comment per line; the number of lines should match the quantity.', required: true, options: [] },
];

describe('order details in Azerbaijani', () => {
  it('labels, hints, placeholders, options and messages of the provider’s params are Azerbaijani', () => {
    const params = provider.map((p) => localizeParam(p, 'az'));
    const draft = { link: 'https://www.instagram.com/artim.az', quantity: '10', params: {} };
    const issues = issuesByField(orderIssues(service, params, draft));
    const html = renderToStaticMarkup(
      <I18nProvider i18n={new I18n('az', { az: { catalog } })}>
        <OrderDetails
          platform="instagram"
          service={service}
          params={params}
          paramsLoading={false}
          draft={draft}
          onDraft={() => {}}
          onTouch={() => {}}
          issues={issues}
          locale="az-AZ"
        />
      </I18nProvider>,
    );
    for (const text of ['Cins', 'Qarışıq', 'Qadın', 'Kişi', 'Ölkə', 'İki hərfli ISO ölkə kodu (məs. AZ, TR, US).', 'placeholder="AZ"', 'Şərhlər', 'Ölkə kodunu yazın', 'Şərhləri yazın — hər sətirdə bir şərh']) {
      expect(html).toContain(text);
    }
    for (const english of ['Gender', 'Country', 'Two-letter', 'Comments', 'Mixed', 'Female', 'vacibdir', 'One comment per line']) {
      expect(html).not.toContain(english);
    }
  });
});
