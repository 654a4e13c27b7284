import { describe, expect, it } from 'vitest';
import { I18n } from './translator';

const resources = {
  en: {
    common: { brand: 'Artım', nav: { home: 'Home' }, hello: 'Hello, {{name}}!', items_one: '{{count}} item', items_other: '{{count}} items' },
    legal: { terms: { title: 'Terms', points: ['Refund within {{days}} days', 'Support 24/7'] } },
    extra: { onlyEnglish: 'English only' },
  },
  az: {
    common: { brand: 'Artım', nav: { home: 'Ana səhifə' }, items_one: '{{count}} xidmət', items_other: '{{count}} xidmət' },
    legal: { terms: { title: 'Şərtlər' } },
  },
};

describe('translator', () => {
  it('reads nested keys in the current language and the default namespace', () => {
    const i18n = new I18n('az', resources);
    expect(i18n.t('nav.home')).toBe('Ana səhifə');
    expect(i18n.getFixedT('en')('nav.home')).toBe('Home');
  });

  it('fills placeholders and leaves unknown ones as written', () => {
    const t = new I18n('en', resources).t;
    expect(t('hello', { name: 'Aysel' })).toBe('Hello, Aysel!');
    expect(t('hello')).toBe('Hello, {{name}}!');
  });

  it('chooses the plural form by the language rules and falls back to _other', () => {
    const t = new I18n('en', resources).t;
    expect(t('items', { count: 1 })).toBe('1 item');
    expect(t('items', { count: 0 })).toBe('0 items');
    expect(t('items', { count: 5 })).toBe('5 items');
    expect(new I18n('az', resources).t('items', { count: 1 })).toBe('1 xidmət');
  });

  it('searches the given namespaces in order, and a ns: prefix names one', () => {
    const i18n = new I18n('en', resources);
    const t = i18n.getFixedT(null, ['extra', 'common']);
    expect(t('onlyEnglish')).toBe('English only');
    expect(t('brand')).toBe('Artım');
    expect(i18n.t('legal:terms.title')).toBe('Terms');
  });

  it('falls back to English, then to the default value, then to the key', () => {
    const t = new I18n('az', resources).getFixedT(null, 'extra');
    expect(t('onlyEnglish')).toBe('English only');
    expect(t('missing', { defaultValue: 'Fallback {{n}}', n: 2 })).toBe('Fallback 2');
    expect(t('missing.key')).toBe('missing.key');
  });

  it('returns objects and arrays only when asked, with placeholders filled', () => {
    const t = new I18n('en', resources).getFixedT(null, 'legal');
    expect(t('terms.points', { returnObjects: true, days: 30 })).toEqual(['Refund within 30 days', 'Support 24/7']);
    expect(t('terms')).toBe('terms');
  });

  it('adds bundles by deep merge and tells subscribers about a language change', async () => {
    const i18n = new I18n('en', resources);
    i18n.addResourceBundle('en', 'common', { nav: { about: 'About' } });
    expect(i18n.t('nav.home')).toBe('Home');
    expect(i18n.t('nav.about')).toBe('About');
    expect(i18n.hasResourceBundle('tr', 'common')).toBe(false);

    let calls = 0;
    const unsubscribe = i18n.subscribe(() => calls++);
    await i18n.changeLanguage('az');
    await i18n.changeLanguage('az');
    expect(calls).toBe(1);
    expect(i18n.t('nav.home')).toBe('Ana səhifə');
    unsubscribe();
    await i18n.changeLanguage('en');
    expect(calls).toBe(1);
  });

  it('does not share text between instances (one per server request)', () => {
    const a = new I18n('en', resources);
    const b = new I18n('en', resources);
    a.addResourceBundle('en', 'common', { brand: 'Changed' });
    expect(b.t('brand')).toBe('Artım');
  });
});
