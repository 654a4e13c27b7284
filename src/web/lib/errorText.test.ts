import type { TFunction } from '../i18n';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../core/i18n';
import { ERROR_CODES } from '../../core/errors';
import { ApiError } from './api';
import { errorText } from './errorText';

describe('errorText', () => {
  const texts: Record<string, string> = {
    'common:errors.NETWORK': 'network',
    'common:errors.TIMEOUT': 'Sorğu vaxtı bitdi',
    'common:errors.generic': 'generic',
    'common:errors.QUANTITY_OUT_OF_RANGE': 'between {{min}} and {{max}}',
    'common:errors.dashboard.RATE_LIMITED': 'wait {{minutes}}',
    'common:errors.RATE_LIMITED': 'shared wait',
    'common:errors.support.generic': 'support generic',
  };
  const t = ((key: string, opts?: Record<string, unknown>) => {
    const text = texts[key] ?? (opts?.defaultValue as string | undefined) ?? key;
    return text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(opts?.[k]));
  }) as unknown as TFunction;

  it('words the code with its details, and falls back to the shared texts', () => {
    expect(errorText(t, new ApiError('QUANTITY_OUT_OF_RANGE', 422, { min: 10, max: 500 }), 'dashboard')).toBe('between 10 and 500');
    expect(errorText(t, new ApiError('RATE_LIMITED', 429, { retryAfterSeconds: 125 }), 'dashboard')).toBe('wait 3');
    expect(errorText(t, new ApiError('TIMEOUT', 0), 'dashboard')).toBe('Sorğu vaxtı bitdi');
    expect(errorText(t, new ApiError('NETWORK', 0), 'dashboard')).toBe('network');
    expect(errorText(t, new ApiError('DUPLICATE', 409), 'dashboard')).toBe('generic');
    expect(errorText(t, new Error('boom'), 'dashboard')).toBe('generic');
  });

  it("prefers the screen's own wording and its own fallback", () => {
    expect(errorText(t, new ApiError('RATE_LIMITED', 429), 'tracking')).toBe('shared wait');
    expect(errorText(t, new ApiError('RATE_LIMITED', 429))).toBe('shared wait');
    expect(errorText(t, new ApiError('DUPLICATE', 409), 'support')).toBe('support generic');
    expect(errorText(t, new Error('boom'), 'support')).toBe('support generic');
  });
});

describe('the errors section of common', () => {
  const errors = (lang: string) =>
    (JSON.parse(readFileSync(join(import.meta.dirname, '../i18n/locales', lang, 'common.json'), 'utf8')) as { errors: Record<string, unknown> }).errors;

  it('words every server error code, and NETWORK and TIMEOUT, in az, tr and en', () => {
    const codes = [...Object.keys(ERROR_CODES), 'NETWORK', 'TIMEOUT', 'generic'];
    for (const lang of LANGUAGES) {
      const missing = codes.filter((code) => typeof errors(lang)[code] !== 'string');
      expect(missing, lang).toEqual([]);
    }
  });
});

describe('refusal reasons', () => {
  it('words every refill refusal in az, tr and en', async () => {
    const { REFILL_REFUSALS } = await import('../../core/refill');
    for (const lang of LANGUAGES) {
      const reasons = (JSON.parse(readFileSync(join(import.meta.dirname, '../i18n/locales', lang, 'common.json'), 'utf8')) as { errors: { reasons: Record<string, Record<string, unknown>> } }).errors.reasons;
      const missing = REFILL_REFUSALS.filter((r) => typeof reasons.REFILL_NOT_ALLOWED?.[r] !== 'string');
      expect(missing, lang).toEqual([]);
    }
  });
});

describe('error texts have one home', () => {
  const namespaces = (lang: string) => readdirSync(join(import.meta.dirname, '../i18n/locales', lang));
  const read = (lang: string, file: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../i18n/locales', lang, file), 'utf8')) as Record<string, unknown>;

  it('no namespace but common words a server error code', () => {
    const codes = new Set([...Object.keys(ERROR_CODES), 'NETWORK', 'TIMEOUT']);
    for (const lang of LANGUAGES) {
      const elsewhere = namespaces(lang)
        .filter((file) => file !== 'common.json')
        .flatMap((file) => Object.keys((read(lang, file).errors ?? {}) as Record<string, unknown>).filter((key) => codes.has(key)).map((key) => `${file}: ${key}`));
      expect(elsewhere, lang).toEqual([]);
    }
  });

  it("the team's screens read their own wording where it differs, and the shared one otherwise", async () => {
    const { I18n } = await import('../i18n');
    const bundles = Object.fromEntries(namespaces('en').map((file) => [file.replace(/\.json$/, ''), read('en', file)]));
    const t = new I18n('en', { en: bundles }).getFixedT('en', 'admin');
    expect(errorText(t, new ApiError('FORBIDDEN', 403), 'admin')).toBe('You do not have admin rights for this.');
    expect(errorText(t, new ApiError('REFILL_NOT_ALLOWED', 409, { reason: 'too late' }), 'admin')).toBe('Refill not possible: too late');
    expect(errorText(t, new ApiError('REFILL_NOT_ALLOWED', 409, { reason: 'later_order' }), 'admin')).toBe('Refill not possible: a later order targets the same link.');
    expect(errorText(t, new ApiError('REFILL_NOT_ALLOWED', 409, { reason: 'cooldown', hours: 24 }), 'reseller')).toBe('Refill not possible: the last refill was less than 24 hours ago.');
    expect(errorText(t, new ApiError('LAST_ADMIN', 409), 'admin')).toBe('The last admin cannot lose the admin role.');
    expect(errorText(t, new Error('boom'), 'admin')).toBe('Something went wrong on the server. Please try again.');
  });
});
