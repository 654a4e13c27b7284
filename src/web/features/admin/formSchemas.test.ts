import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../core/settings';
import { refundFormSchema } from './AdminOrdersPage';
import { settingsFormSchema } from './AdminSettingsPage';
import { localServiceFormSchema } from './LocalServicesTab';
import { paramTextsFormSchema } from './ParamTextsTab';
import { serviceNameFormSchema } from './ServiceNamesTab';

/** The admin dialogs' form schemas: which fields they refuse and the body they hand to the server. */
describe('refund form', () => {
  const schema = refundFormSchema(12_500_000);
  const issues = (values: Parameters<typeof schema.safeParse>[0]) => (schema.safeParse(values).error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

  it('refunds the whole remaining charge without an amount, whatever the amount field holds', () => {
    expect(schema.parse({ mode: 'full', amount: 'x', reason: '  Not delivered ' })).toEqual({ reason: 'Not delivered' });
  });

  it('sends a part typed in dollars, to the micro, as micro-dollars, a decimal comma read as a point', () => {
    expect(schema.parse({ mode: 'partial', amount: '2,50', reason: 'Partly delivered' })).toEqual({ amountMicros: 2_500_000, reason: 'Partly delivered' });
    expect(schema.parse({ mode: 'partial', amount: '12.50', reason: 'Partly delivered' })).toEqual({ amountMicros: 12_500_000, reason: 'Partly delivered' });
    expect(schema.parse({ mode: 'partial', amount: '0.021272', reason: 'Partly delivered' })).toEqual({ amountMicros: 21_272, reason: 'Partly delivered' });
  });

  it('refuses a part that is zero, malformed or more than is left, and a reason under 3 characters, both at once', () => {
    for (const amount of ['0', '1.2345678', 'abc', '12.51', '12.500001']) expect(issues({ mode: 'partial', amount, reason: 'Partly delivered' })).toEqual(['amount:amount']);
    expect(issues({ mode: 'partial', amount: '13', reason: ' ab ' })).toEqual(['amount:amount', 'reason:reason']);
    expect(issues({ mode: 'full', amount: '', reason: '' })).toEqual(['reason:reason']);
  });
});

describe('param texts form', () => {
  const texts = { label: ' Link ', hint: '', placeholder: 'https://…', required: '', invalid: '' };

  it('sends the kind trimmed and lower-cased and the texts as typed', () => {
    expect(paramTextsFormSchema.parse({ kind: '  Channel_URL ', ...texts })).toEqual({ kind: 'channel_url', ...texts });
  });

  it('refuses a kind outside the contract’s pattern', () => {
    for (const kind of ['', '_x', 'a-b', 'x'.repeat(65)]) {
      expect(paramTextsFormSchema.safeParse({ kind, ...texts }).error?.issues.map((i) => `${i.path.join('.')}:${i.message}`)).toEqual(['kind:kind']);
    }
  });
});

describe('service name form', () => {
  const schema = serviceNameFormSchema(new Set(['11', '14']));
  const base = { apiServiceName: ' instagram followers ', az: ' İzləyicilər ', tr: 'Takipçiler', scope: 'all' as const, serviceId: '14' };
  const issues = (values: typeof base | (Omit<typeof base, 'scope'> & { scope: 'one' })) => (schema.safeParse(values).error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

  it('sends the names trimmed, for every service unless limited to one', () => {
    expect(schema.parse(base)).toEqual({ apiServiceName: 'instagram followers', az: 'İzləyicilər', tr: 'Takipçiler', serviceId: null });
    expect(schema.parse({ ...base, scope: 'one', serviceId: ' 14 ' })).toEqual({ apiServiceName: 'instagram followers', az: 'İzləyicilər', tr: 'Takipçiler', serviceId: '14' });
  });

  it('asks for all three names first, then for a service of the catalogue when limited to one', () => {
    expect(issues({ ...base, az: '   ', scope: 'one', serviceId: '' })).toEqual(['apiServiceName:fillAll']);
    expect(issues({ ...base, scope: 'one', serviceId: '' })).toEqual(['serviceId:chooseService']);
    expect(issues({ ...base, scope: 'one', serviceId: '12' })).toEqual(['serviceId:chooseService']);
  });
});

describe('local service form', () => {
  const texts = (az: string, tr = az, en = az) => ({ az, tr, en });
  const base = {
    name: texts(' Loqo dizaynı ', 'Logo tasarımı', 'Logo design'),
    description: texts(''),
    details: texts(' Bir loqo '),
    benefits: texts(''),
    price: '12,5',
    category: 'standard' as const,
    platform: '  ',
    icon: ' Heart ',
    active: false,
    orderIndex: '3',
  };
  const issues = (values: Partial<typeof base>) => (localServiceFormSchema.safeParse({ ...base, ...values }).error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

  it('sends the texts trimmed, the AZN price as qəpik, a blank platform as none and the position as a number', () => {
    expect(localServiceFormSchema.parse(base)).toEqual({
      name: texts('Loqo dizaynı', 'Logo tasarımı', 'Logo design'),
      description: texts(''),
      details: texts('Bir loqo'),
      benefits: texts(''),
      priceQepik: 1250,
      category: 'standard',
      platform: null,
      icon: 'Heart',
      active: false,
      orderIndex: 3,
    });
    expect(localServiceFormSchema.parse({ ...base, price: ' ', orderIndex: '' })).toMatchObject({ priceQepik: null, orderIndex: 0 });
  });

  it('marks each language without a name, a price that is not one and a position that is not a whole number, all at once', () => {
    expect(issues({ name: texts('Ad', ' ', '') })).toEqual(['name.tr:required', 'name.en:required']);
    expect(issues({ price: '1.234', orderIndex: '1.5' })).toEqual(['price:priceInvalid', 'orderIndex:orderIndexInvalid']);
    expect(issues({ price: '10000001', orderIndex: '100001' })).toEqual(['price:priceInvalid', 'orderIndex:orderIndexInvalid']);
  });
});

describe('settings form', () => {
  // The form holds numbers as typed text.
  const typed = Object.fromEntries(Object.entries(DEFAULT_SETTINGS).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
  const issues = (values: Record<string, string>) => (settingsFormSchema.safeParse({ ...typed, ...values }).error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

  it('refuses each number off its declared step, and takes one on it', () => {
    expect(issues({ service_fee: '12.55', base_fee: '0.375', usd_azn_rate: '1.70005', provider_low_balance: '0,125' })).toEqual([
      'service_fee:offStep',
      'base_fee:offStep',
      'usd_azn_rate:offStep',
      'provider_low_balance:offStep',
    ]);
    expect(issues({ service_fee: '12.5', base_fee: '0.38', usd_azn_rate: '1.7005', provider_low_balance: '0,12' })).toEqual([]);
  });
});
