import { zodResolver } from '@hookform/resolvers/zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { topUpInputSchema } from '../../../core/contracts/payments';
import { LOCALES } from '../../../core/i18n';
import { I18n } from '../../i18n';
import common from '../../i18n/locales/az/common.json';
import payments from '../../i18n/locales/az/payments.json';
import { api, ApiError } from '../../lib/api';
import { errorText } from '../../lib/errorText';
import { amountIssueText, topUpFormSchema, type TopUpBounds, type TopUpFormValues } from './amount';

/**
 * The top-up dialog's form: what its resolver (the payments contract behind the amount's own
 * checks) refuses and how the dialog words it, what it hands to the top-up request, and how a
 * refusal of the server reads.
 */
const t = new I18n('az', { az: { common, payments } }).getFixedT('az', 'payments');
const resolve = (values: Omit<TopUpFormValues, 'method'> & { method?: TopUpFormValues['method'] }, bounds?: TopUpBounds) =>
  zodResolver(topUpFormSchema(bounds))({ method: 'epoint', ...values }, undefined, { fields: {}, shouldUseNativeValidation: false });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('top-up form', () => {
  it('refuses an empty, malformed, too small or too large amount, worded in the page language', async () => {
    const cases: [string, string][] = [
      ['', 'Məbləği daxil edin'],
      ['12.345', 'Məbləği 10 və ya 12.50 kimi daxil edin'],
      ['0.5', 'Minimum məbləğ'],
      ['10001', 'Maksimum məbləğ'],
    ];
    for (const [amount, text] of cases) {
      const { errors } = await resolve({ amount, language: 'az' });
      const message = errors.amount?.message;
      expect(message, amount).toBeTypeOf('string');
      expect(amountIssueText(t, String(message), LOCALES.az), amount).toContain(text);
    }
  });

  it('hands on the contract’s top-up input: micro-dollars, the language and the method', async () => {
    const { values, errors } = await resolve({ amount: '12,50', language: 'az', method: 'paytr' });
    expect(errors).toEqual({});
    expect(values).toEqual({ amountMicros: 12_500_000, language: 'az', method: 'paytr' });
    expect(topUpInputSchema.parse(values)).toEqual(values);
  });

  it('keeps the amount within the chosen method’s bounds, and words them', async () => {
    const bounds = { minMicros: 10_000_000, maxMicros: 500_000_000 };
    const low = await resolve({ amount: '9.99', language: 'az' }, bounds);
    expect(amountIssueText(t, String(low.errors.amount?.message), LOCALES.az, bounds)).toBe('Minimum məbləğ 10,00\u00a0$');
    const high = await resolve({ amount: '500.01', language: 'az' }, bounds);
    expect(amountIssueText(t, String(high.errors.amount?.message), LOCALES.az, bounds)).toBe('Maksimum məbləğ 500,00\u00a0$');
    expect((await resolve({ amount: '10', language: 'az' }, bounds)).errors).toEqual({});
  });

  it('words a refusal of the payment server in the page language', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ error: { code: 'PAYMENT_NOT_CREATED', message: 'x' } }), { status: 502 }));
    const { timed } = await import('../../lib/api');
    const refusal = await timed((o) => api.payments.topup.$post({ json: { amountMicros: 12_500_000, language: 'az' } }, o)).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(errorText(t, refusal, 'payments')).toBe('Ödəniş yaradılmadı');
    expect(errorText(t, new ApiError('RATE_LIMITED', 429, { retryAfterSeconds: 120 }), 'payments')).toBe('Çox sayda ödəniş cəhdi. 2 dəqiqə sonra yenidən cəhd edin.');
  });
});
