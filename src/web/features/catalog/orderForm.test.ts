import { describe, expect, it } from 'vitest';
import type { ServiceParam } from '../../../core/catalog';
import type { PublicService } from '../../../core/contracts/catalog';
import { localizeParam } from '../../../core/paramTexts';
import { createI18n } from '../../i18n';
import { dripInput, issueMessage, issuesByField, linkExample, orderIssues, orderTotal, parseQuantity, serverParamIssue, unitPrice } from './orderForm';
import az from '../../i18n/locales/az/catalog.json';
import en from '../../i18n/locales/en/catalog.json';
import tr from '../../i18n/locales/tr/catalog.json';

const service: PublicService = {
  id: '7',
  platform: 'instagram',
  name: 'Instagram Şərhlər',
  type: 'Custom',
  group: 'comments',
  min: 10,
  max: 500,
  step: 5,
  tiers: [{ minimum: 10, maximum: 500, price: '4.00', pricingPer: 100 }],
  displayPrice: '0.40',
  displayPer: 10,
  hasParams: true,
};
const params: ServiceParam[] = [
  { fieldName: 'comments', fieldLabel: 'Comments', fieldType: 'textarea', placeholder: '', description: '', required: true, options: [] },
];

describe('parseQuantity', () => {
  it('reads whole numbers only', () => {
    expect(parseQuantity(' 150 ')).toBe(150);
    expect(parseQuantity('1.5')).toBeNaN();
    expect(parseQuantity('1e3')).toBeNaN();
    expect(parseQuantity('')).toBeNaN();
    expect(parseQuantity('-5')).toBeNaN();
  });
});

describe('orderIssues', () => {
  it('reports link, quantity and required params through the shared rules', () => {
    const issues = issuesByField(orderIssues(service, params, { link: 'https://tiktok.com/@x', quantity: '12', params: {} }));
    expect([...issues.keys()]).toEqual(['link', 'quantity', 'params.comments']);
    expect(issues.get('quantity')).toMatchObject({ code: 'QUANTITY_OUT_OF_RANGE', details: { min: 10, max: 500, step: 5 } });
  });

  it('accepts a valid draft', () => {
    expect(orderIssues(service, params, { link: 'https://www.instagram.com/p/abc', quantity: '15', params: { comments: 'nice' } })).toEqual([]);
  });
});

describe('issueMessage', () => {
  const i18n = createI18n('az', { az: { catalog: az }, en: { catalog: en } });
  it('uses the spec wording for required params and the bounds in the quantity message', () => {
    const issues = orderIssues(service, params, { link: '', quantity: '3', params: {} });
    const text = issues.map((i) => issueMessage(i18n.t, i, 'instagram'));
    expect(text).toEqual([
      'Linki daxil edin',
      'Miqdar 10 ilə 500 arasında, 5 addımla olmalıdır',
      'Comments vacibdir',
    ]);
  });

  it('words a known param’s messages in the page’s language, not with the provider’s English label', () => {
    const geo: ServiceParam = { fieldName: 'geo-countries', fieldLabel: 'Country', fieldType: 'text', placeholder: 'US', description: '', required: true, options: [] };
    const gender: ServiceParam = { fieldName: 'gender', fieldLabel: 'Gender', fieldType: 'dropdown', placeholder: '', description: '', required: false, options: [{ name: 'Male', value: 'male' }] };
    const raw = [geo, gender, ...params];
    const draft = { link: 'https://www.instagram.com/p/abc', quantity: '10', params: { gender: 'robot' } };
    const issues = orderIssues(service, raw, draft);
    const az = raw.map((p) => localizeParam(p, 'az'));
    expect(issues.map((i) => issueMessage(i18n.t, i, 'instagram', az))).toEqual([
      'Ölkə kodunu yazın',
      'Cins üçün variantlardan birini seçin',
      'Şərhləri yazın — hər sətirdə bir şərh',
    ]);
    // An unknown kind: the generic sentence with the label the page shows.
    const odd: ServiceParam = { ...geo, fieldName: 'speed', fieldLabel: 'Speed' };
    const [issue] = orderIssues(service, [odd], { ...draft, params: {} });
    expect(issueMessage(i18n.t, issue!, 'instagram', [{ ...odd, fieldLabel: 'Sürət' }])).toBe('Sürət vacibdir');
  });

  it('words the server’s refusal of a param like the form does', () => {
    const az = params.map((p) => localizeParam(p, 'az'));
    const issue = serverParamIssue('PARAM_REQUIRED', { field: 'comments', label: 'Comments' });
    expect(issueMessage(i18n.t, issue!, 'instagram', az)).toBe('Şərhləri yazın — hər sətirdə bir şərh');
    expect(serverParamIssue('VALIDATION_FAILED', { field: 'link' })).toBeNull();
    expect(serverParamIssue('INSUFFICIENT_FUNDS', {})).toBeNull();
  });

  it('names the platform and an example for a link in the wrong format', () => {
    const [issue] = orderIssues(service, [], { link: 'https://example.com/x', quantity: '10', params: {} });
    expect(issueMessage(i18n.getFixedT('en'), issue!, 'instagram')).toBe(
      'Enter a valid Instagram link, for example https://instagram.com/username',
    );
  });
});

describe('links customers paste', () => {
  const linkedin: PublicService = { ...service, platform: 'linkedin', hasParams: false };
  const i18n = createI18n('en', { az: { catalog: az }, tr: { catalog: tr }, en: { catalog: en } });
  it('accepts shared links of the platform and refuses the same path on another site, with the platform’s example in each language', () => {
    const draft = (link: string) => ({ link, quantity: '10', params: {} });
    expect(orderIssues(linkedin, [], draft('https://www.linkedin.com/feed/update/urn:li:activity:7123456789012345678/'))).toEqual([]);
    expect(orderIssues(service, [], draft('https://www.instagram.com/reels/C9xYz12AbCd/?igsh=MWQ1'))).toEqual([]);
    const [issue] = orderIssues(linkedin, [], draft('https://evil.example/linkedin.com/in/someone'));
    expect(issue).toMatchObject({ code: 'LINK_INVALID', details: { reason: 'format' } });
    expect(['az', 'tr', 'en'].map((lang) => issueMessage(i18n.getFixedT(lang), issue!, 'linkedin'))).toEqual([
      'Düzgün LinkedIn linki daxil edin, məsələn https://linkedin.com/in/username',
      'Geçerli bir LinkedIn bağlantısı girin, örneğin https://linkedin.com/in/username',
      'Enter a valid LinkedIn link, for example https://linkedin.com/in/username',
    ]);
    expect(linkExample('linkedin')).toBe('https://linkedin.com/in/username');
    expect(linkExample('spotify')).toBe('https://…');
  });
});

describe('prices', () => {
  const fees = { serviceFeePercent: 10, baseFee: 0.5 };
  it('shows comment services per 10 whatever the display name says', () => {
    expect(unitPrice(service, fees)).toEqual({ per: 10, micros: 440_000, usd: '0.44' });
    expect(unitPrice({ ...service, group: 'likes' }, fees)).toEqual({ per: 1000, micros: 44_000_000, usd: '44.00' });
  });

  it('totals with the base fee and the service fee, in micro-dollars', () => {
    // 4.00 per 100 is 44.00 per 1000 with the fee: 44 × 15 / 1000 + 0.50 × 1.10 = 1.21
    expect(orderTotal(service, 15, fees)).toBe(1_210_000);
    // 44 × 11 / 1000 + 0.55 = 1.034, not rounded up to a cent
    expect(orderTotal(service, 11, fees)).toBe(1_034_000);
    expect(orderTotal(service, Number.NaN, fees)).toBeNull();
    expect(orderTotal(service, 0, fees)).toBeNull();
  });
});

describe('dripInput', () => {
  const draft = (drip?: { runs: string; interval: string }) => ({ link: '', quantity: '100', params: {}, ...(drip ? { drip } : {}) });
  it('is an ordinary order unless the service allows drip-feed and it is ticked', () => {
    expect(dripInput({ ...service, dripfeed: false }, draft({ runs: '3', interval: '10' }))).toBeNull();
    expect(dripInput({ ...service, dripfeed: true }, draft())).toBeNull();
  });
  it('checks runs ≥ 2 and interval ≥ 1 (whole numbers)', () => {
    const drip = { ...service, dripfeed: true };
    expect(dripInput(drip, draft({ runs: '3', interval: '10' }))).toEqual({ runs: 3, interval: 10 });
    expect(dripInput(drip, draft({ runs: '1', interval: '10' }))).toEqual({ invalid: 'runs' });
    expect(dripInput(drip, draft({ runs: '3', interval: '0' }))).toEqual({ invalid: 'interval' });
    expect(dripInput(drip, draft({ runs: '2.5', interval: '10' }))).toEqual({ invalid: 'runs' });
  });
});
