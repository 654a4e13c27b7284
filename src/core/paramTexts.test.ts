import { describe, expect, it } from 'vitest';
import type { ServiceParam } from './catalog';
import { LANGUAGES } from './i18n';
import { localizeParam, overrideMap, PARAM_KINDS, PARAM_TEXT_FIELDS, PARAM_TEXTS, paramKind } from './paramTexts';

const param = (fieldName: string, extra: Partial<ServiceParam> = {}): ServiceParam => ({
  fieldName,
  fieldLabel: extra.fieldLabel ?? fieldName,
  fieldType: 'text',
  placeholder: 'provider placeholder',
  description: 'provider hint',
  required: true,
  options: [],
  ...extra,
});

describe('param kinds', () => {
  it('recognises the field names of the sandbox catalogue and of the v2 order types', () => {
    expect(paramKind('comments')).toBe('comments');
    expect(paramKind('usernames')).toBe('usernames');
    expect(paramKind('username')).toBe('username');
    expect(paramKind('hashtag')).toBe('hashtags');
    expect(paramKind('keywords')).toBe('keywords');
    expect(paramKind('geo-countries')).toBe('country');
    expect(paramKind('Country')).toBe('country');
    expect(paramKind('gender')).toBe('gender');
    expect(paramKind('answer_number')).toBe('answer_number');
    expect(paramKind('media')).toBe('media');
    expect(paramKind('share_type')).toBe('share_type');
    expect(paramKind('reaction_type')).toBe('reaction_type');
    expect(paramKind('groups')).toBe('groups');
    expect(paramKind('mentions')).toBe('usernames');
    expect(paramKind('delivery_speed')).toBeNull();
  });

  it('has every text of every kind in every language, none left in English outside en', () => {
    for (const kind of PARAM_KINDS) {
      for (const lang of LANGUAGES) {
        const texts = PARAM_TEXTS[kind][lang];
        for (const field of ['label', 'hint', 'required', 'invalid'] as const) expect(texts[field], `${kind} ${lang} ${field}`).not.toBe('');
        if (lang !== 'en') {
          for (const field of PARAM_TEXT_FIELDS) {
            // Examples and codes read the same in every language, and Turkish says "hashtag" too.
            if (texts[field] && !/^(https:\/\/…|#artim|1|[A-Z]{2}|Hashtag)$/.test(texts[field])) {
              expect(texts[field], `${kind} ${lang} ${field}`).not.toBe(PARAM_TEXTS[kind].en[field]);
            }
          }
        }
      }
    }
  });

  it('words each known kind in the customer’s language, whatever the provider wrote', () => {
    for (const kind of PARAM_KINDS) {
      for (const lang of LANGUAGES) {
        const out = localizeParam(param(kind, { fieldLabel: 'Provider Label' }), lang);
        const texts = PARAM_TEXTS[kind][lang];
        expect(out.fieldLabel, `${kind} ${lang}`).toBe(texts.label);
        expect(out.description).toBe(texts.hint);
        expect(out.placeholder).toBe(texts.placeholder);
        expect(out.requiredMessage).toBe(texts.required);
        expect(out.invalidMessage).toBe(texts.invalid);
        expect(out.kind).toBe(kind);
      }
    }
  });

  it('gives the geo country param of the provider Azerbaijani and Turkish texts', () => {
    const geo = param('geo-countries', { fieldLabel: 'Country', placeholder: 'US', description: 'Two-letter ISO country code (e.g. US, TR, AZ).' });
    expect(localizeParam(geo, 'az')).toMatchObject({ fieldLabel: 'Ölkə', description: 'İki hərfli ISO ölkə kodu (məs. AZ, TR, US).', requiredMessage: 'Ölkə kodunu yazın' });
    expect(localizeParam(geo, 'tr')).toMatchObject({ fieldLabel: 'Ülke', requiredMessage: 'Ülke kodunu yazın' });
    expect(localizeParam(geo, 'en')).toMatchObject({ fieldLabel: 'Country', fieldName: 'geo-countries', required: true });
  });

  it('translates the gender options and keeps their values', () => {
    const gender = param('gender', {
      fieldType: 'dropdown',
      options: [
        { name: 'Mixed', value: 'mixed' },
        { name: 'Female', value: 'female' },
        { name: 'Male', value: 'male' },
        { name: 'Robots', value: 'robots' },
      ],
    });
    expect(localizeParam(gender, 'az').options).toEqual([
      { name: 'Qarışıq', value: 'mixed' },
      { name: 'Qadın', value: 'female' },
      { name: 'Kişi', value: 'male' },
      { name: 'Robots', value: 'robots' },
    ]);
  });

  it('keeps the provider’s texts for an unknown kind, with no messages of its own', () => {
    const unknown = param('delivery_speed', { fieldLabel: 'Delivery speed' });
    const out = localizeParam(unknown, 'az');
    expect(out).toMatchObject({ fieldLabel: 'Delivery speed', description: 'provider hint', placeholder: 'provider placeholder', kind: 'delivery_speed' });
    expect(out.requiredMessage).toBeUndefined();
    expect(out.invalidMessage).toBeUndefined();
    expect(localizeParam(param('x-y', { fieldLabel: '' }), 'tr').fieldLabel).toBe('x-y');
  });

  it('lets an admin override any text per kind and language, the rest keeps its default', () => {
    const overrides = overrideMap([
      { kind: 'country', lang: 'az', label: 'Hədəf ölkə', hint: null, placeholder: 'TR', required: 'Hədəf ölkəni yazın', invalid: null },
      { kind: 'delivery_speed', lang: 'az', label: 'Çatdırılma sürəti', hint: 'Gündə neçə ədəd', placeholder: null, required: null, invalid: null },
    ]);
    const geo = localizeParam(param('geo-countries'), 'az', overrides);
    expect(geo).toMatchObject({ fieldLabel: 'Hədəf ölkə', description: PARAM_TEXTS.country.az.hint, placeholder: 'TR', requiredMessage: 'Hədəf ölkəni yazın', invalidMessage: PARAM_TEXTS.country.az.invalid });
    // Another language is untouched.
    expect(localizeParam(param('geo-countries'), 'tr', overrides).fieldLabel).toBe('Ülke');
    // An unknown field name can be worded too.
    expect(localizeParam(param('delivery_speed'), 'az', overrides)).toMatchObject({ fieldLabel: 'Çatdırılma sürəti', description: 'Gündə neçə ədəd', placeholder: 'provider placeholder' });
  });
});
