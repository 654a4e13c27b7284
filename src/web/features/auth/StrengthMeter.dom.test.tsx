// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import azAuth from '../../i18n/locales/az/auth.json';
import trAuth from '../../i18n/locales/tr/auth.json';
import enAuth from '../../i18n/locales/en/auth.json';
import { I18n, I18nProvider } from '../../i18n';
import { StrengthMeter } from './StrengthMeter';

afterEach(cleanup);

function shown(lang: 'az' | 'tr' | 'en', password: string) {
  const auth = { az: azAuth, tr: trAuth, en: enAuth }[lang];
  render(
    <I18nProvider i18n={new I18n(lang, { [lang]: { auth } })}>
      <StrengthMeter password={password} />
    </I18nProvider>,
  );
  const meter = screen.getByTestId('strength-meter');
  const text = meter.querySelector('strong')!.textContent;
  const heard = meter.querySelector('[aria-live]')!.textContent;
  cleanup();
  return { text, heard };
}

/** One password of each score: 0–1 very weak, 2 weak, 3 medium, 4 strong, 5 very strong. */
const PASSWORDS = ['   ', 'abc', 'abcdefgh', 'Abcdefgh', 'Abcdefg1', 'Abcdef1!'] as const;

describe('the strength meter', () => {
  it('names each level as the password’s, in Azerbaijani as the shop words it ("Zəif şifrə")', () => {
    expect(PASSWORDS.map((p) => shown('az', p).text)).toEqual([
      'Çox zəif şifrə',
      'Çox zəif şifrə',
      'Zəif şifrə',
      'Orta güclü şifrə',
      'Güclü şifrə',
      'Çox güclü şifrə',
    ]);
  });

  it('does so in Turkish and English too, and screen readers hear the title first', () => {
    expect(shown('tr', 'abcdefgh').text).toBe('Zayıf şifre');
    expect(shown('en', 'abcdefgh').text).toBe('Weak password');
    expect(shown('az', 'abcdefgh').heard).toBe('Şifrənin gücü: Zəif şifrə');
  });
});
