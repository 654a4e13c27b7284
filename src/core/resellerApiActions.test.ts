import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './i18n';
import { ORDER_PARAM_MAX_LENGTH } from './orderRules';
import { V2_ERRORS, V2_SERVICE_TYPES } from './resellerApi';
import { ADD_FORMS, CANCEL_FORM, formSchema, readForm, STATUS_FORMS, V2_ACTIONS, V2_COMMON_PARAMS, V2_FORMATS, V2_FORMS } from './resellerApiActions';

describe('the reseller API’s definitions', () => {
  it('define add for every service type, every action, unique anchors and parameter names, texts in every language', () => {
    expect(Object.keys(ADD_FORMS).sort()).toEqual([...V2_SERVICE_TYPES].sort());
    for (const type of V2_SERVICE_TYPES) expect(ADD_FORMS[type].type).toBe(type);
    expect(new Set(V2_FORMS.map((f) => f.action))).toEqual(new Set(V2_ACTIONS));
    expect(new Set(V2_FORMS.map((f) => f.id)).size).toBe(V2_FORMS.length);
    for (const f of V2_FORMS) {
      const names = [...V2_COMMON_PARAMS, ...f.params].flatMap((p) => [p.name, ...('aliases' in p ? (p.aliases ?? []) : [])]);
      expect(new Set(names).size, f.id).toBe(names.length);
      for (const text of [f.description, ...[...V2_COMMON_PARAMS, ...f.params].map((p) => p.description), ...Object.values(V2_FORMATS)]) {
        for (const lang of LANGUAGES) expect(text[lang].trim(), `${f.id} ${lang}`).not.toBe('');
      }
    }
  });

  it('build a form’s schema once, and again only when its parameters change', () => {
    for (const f of V2_FORMS) expect(formSchema(f), f.id).toBe(formSchema(f));
    const changed = { ...STATUS_FORMS.one, params: [...STATUS_FORMS.one.params] };
    const first = formSchema(changed);
    changed.params.pop();
    expect(formSchema(changed)).not.toBe(first);
    expect(Object.keys(formSchema(changed).shape)).toEqual(changed.params.map((p) => p.name));
  });

  it('read each parameter as defined: its example is accepted, a missing required one is refused in the protocol’s words', () => {
    for (const f of V2_FORMS) {
      const examples = Object.fromEntries(f.params.map((p) => [p.name, p.example]));
      expect(readForm(f, examples), f.id).toHaveProperty('values');
      expect(Object.keys(formSchema(f).shape)).toEqual(f.params.map((p) => p.name));
      for (const p of f.params.filter((x) => x.required)) {
        const { [p.name]: _left, ...rest } = examples;
        expect(readForm(f, rest), `${f.id} without ${p.name}`).toHaveProperty('error');
      }
    }
  });

  it('refuse the first wrong parameter in the form’s order, and read a value sent under an alias', () => {
    expect(readForm(ADD_FORMS.Default, { link: 'x', quantity: 'many' })).toEqual({ error: V2_ERRORS.service });
    expect(readForm(ADD_FORMS.Default, { service: '1', link: 'tiktok.com/@a', quantity: 'many' })).toEqual({ error: V2_ERRORS.request });
    expect(readForm(ADD_FORMS.Default, { service: '1', link: 'tiktok.com/@a', quantity: '100.0', runs: 'undefined' })).toEqual({ values: { service: '1', link: 'https://tiktok.com/@a', quantity: 100, runs: undefined } });
    expect(readForm(CANCEL_FORM, { order: '5, 6,5' })).toEqual({ values: { orders: ['5', '6'] } });
    expect(readForm(STATUS_FORMS.many, { orders: Array.from({ length: 101 }, (_, i) => i).join(',') })).toEqual({ error: V2_ERRORS.request });
  });

  it('read a line list as its non-empty lines; a quantity is no parameter of the list types', () => {
    expect(readForm(ADD_FORMS['Custom Comments'], { service: '1', link: 'https://x.io', comments: 'a\n\n b \n', quantity: '50' })).toEqual({ values: { service: '1', link: 'https://x.io', comments: ['a', 'b'] } });
    expect(readForm(ADD_FORMS['Mentions Custom List'], { service: '1', link: 'https://x.io', usernames: '\n \n' })).toEqual({ error: 'usernames is required' });
    expect(readForm(ADD_FORMS['Custom Comments'], { service: '1', link: 'https://x.io', comments: 'a'.repeat(ORDER_PARAM_MAX_LENGTH + 1) })).toEqual({ error: `comments is too long (at most ${ORDER_PARAM_MAX_LENGTH} characters)` });
  });
});
