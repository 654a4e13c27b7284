import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ServiceParam } from '../../../core/catalog';
import type { PublicService } from '../../../core/contracts/catalog';
import { placeOrderInputSchema } from '../../../core/contracts/orderInput';
import { I18n, I18nProvider } from '../../i18n';
import catalog from '../../i18n/locales/az/catalog.json';
import common from '../../i18n/locales/az/common.json';
import { ApiError } from '../../lib/api';
import { errorText } from '../../lib/errorText';
import { OrderDetails } from './OrderDetails';
import { issueMessage, issuesByField, orderIssues, serverParamIssue, type OrderDraft } from './orderForm';
import { firstErrorField, orderResolver, type OrderFormContext } from './useOrderForm';

/**
 * The one order form of the catalogue page and the dashboard (useOrderForm): what its resolver
 * refuses and how the form words it, the order it hands on, and how a refusal of the server reads.
 */
const service: PublicService = {
  id: '1204',
  platform: 'instagram',
  name: 'Instagram Followers',
  type: 'Followers',
  group: 'followers',
  min: 10,
  max: 5000,
  step: 10,
  tiers: [{ minimum: 10, maximum: 5000, price: '2.00', pricingPer: 1000 }],
  displayPrice: '2.20',
  displayPer: 1000,
  hasParams: true,
  dripfeed: true,
};
const params: ServiceParam[] = [{ fieldName: 'geo-countries', fieldLabel: 'Country', fieldType: 'text', placeholder: '', description: '', required: true, options: [] }];
const context: OrderFormContext = { service, params };
const resolve = (draft: OrderDraft, ctx: OrderFormContext = context) => orderResolver(draft, ctx);
const i18n = new I18n('az', { az: { catalog, common } });
const t = i18n.getFixedT('az', 'catalog');

describe('order form', () => {
  it('refuses a missing link, a quantity off the steps and a missing param, and the form words them in Azerbaijani', async () => {
    const draft: OrderDraft = { link: '', quantity: '15', params: {} };
    const { errors, values } = await resolve(draft);
    expect(values).toEqual({});
    expect(firstErrorField(errors)).toBe('link');
    expect('quantity' in errors && errors.quantity?.type).toBe('QUANTITY_OUT_OF_RANGE');
    expect('params' in errors && errors.params?.['geo-countries']?.type).toBe('PARAM_REQUIRED');

    const html = renderToStaticMarkup(
      <I18nProvider i18n={i18n}>
        <OrderDetails platform="instagram" service={service} params={[]} paramsLoading={false} draft={draft} onDraft={() => {}} onTouch={() => {}} issues={issuesByField(orderIssues(service, params, draft))} locale="az-AZ" />
      </I18nProvider>,
    );
    expect(html).toContain('Linki daxil edin');
    expect(html).toContain('Miqdar 10 ilə 5.000 arasında, 10 addımla olmalıdır');
  });

  it('asks for a service first, and names a drip-feed field it refuses', async () => {
    expect((await resolve({ link: 'https://instagram.com/artim', quantity: '10', params: {} }, { service: undefined, params: [] })).errors).toMatchObject({ root: { type: 'service' } });
    const { errors } = await resolve({ link: 'https://instagram.com/artim', quantity: '10', params: { 'geo-countries': 'AZ' }, drip: { runs: '1', interval: '60' } });
    expect(firstErrorField(errors)).toBe('runs');
  });

  it('hands on the contract’s order input: trimmed link, a number, filled params only, runs and interval', async () => {
    const { values, errors } = await resolve({
      link: '  https://instagram.com/artim  ',
      quantity: '100',
      params: { 'geo-countries': 'AZ', note: '  ' },
      drip: { runs: '3', interval: '60' },
    });
    expect(errors).toEqual({});
    expect(values).toEqual({ serviceId: '1204', link: 'https://instagram.com/artim', quantity: 100, params: { 'geo-countries': 'AZ' }, runs: 3, interval: 60 });
    expect(placeOrderInputSchema.safeParse({ ...values, idempotencyKey: 'abcdef123456' }).success).toBe(true);
  });

  it('words a refusal of the server in Azerbaijani, a refused param as the form names it', () => {
    const dashboard = i18n.getFixedT('az', ['dashboard', 'catalog']);
    expect(errorText(dashboard, new ApiError('ACTIVE_ORDER_EXISTS', 409), 'dashboard')).toBe('Bu URL üçün aktiv sifariş mövcuddur');
    expect(errorText(dashboard, new ApiError('QUANTITY_OUT_OF_RANGE', 422, { min: 10, max: 500 }), 'dashboard')).toBe('Miqdar 10 ilə 500 arasında olmalıdır');
    expect(errorText(dashboard, new ApiError('VALIDATION_FAILED', 422), 'dashboard')).toBe('Sifariş məlumatlarını yoxlayıb yenidən cəhd edin.');
    const issue = serverParamIssue('PARAM_REQUIRED', { field: 'geo-countries', label: 'Country' });
    expect(issue && issueMessage(t, issue, 'instagram')).toBe('Country vacibdir');
  });
});
