import { describe, expect, it } from 'vitest';
import { pathLanguage } from './i18n';

describe('pathLanguage', () => {
  it('is the first path segment when it is a language, and nothing otherwise', () => {
    expect(pathLanguage('/az')).toBe('az');
    expect(pathLanguage('/tr/services/12')).toBe('tr');
    expect(pathLanguage('/en/')).toBe('en');
    expect(pathLanguage('/')).toBeNull();
    expect(pathLanguage('/track')).toBeNull();
    expect(pathLanguage('/admin/en')).toBeNull();
    expect(pathLanguage('/EN')).toBeNull();
    expect(pathLanguage('')).toBeNull();
  });
});
