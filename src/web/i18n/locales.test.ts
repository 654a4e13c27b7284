import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../core/i18n';
import { bundles as islandBundles } from './bundles.islands';
import { ISLAND_TEXT } from './islandText';

/**
 * The three languages must stay in step: the same namespaces, the same key paths (arrays of the
 * same length, so list items line up), and no empty text anywhere.
 */
const dir = join(import.meta.dirname, 'locales');

const namespaces = (lang: string) =>
  readdirSync(join(dir, lang))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();

const load = (lang: string, ns: string): unknown => JSON.parse(readFileSync(join(dir, lang, `${ns}.json`), 'utf8'));

/** Every leaf as `path → value`; arrays contribute their indices, so lengths must match too. */
export function leaves(value: unknown, path = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (Array.isArray(value)) {
    out.set(`${path}[]`, value.length);
    value.forEach((v, i) => leaves(v, `${path}[${i}]`).forEach((leaf, p) => out.set(p, leaf)));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k).forEach((leaf, p) => out.set(p, leaf));
  } else {
    out.set(path, value);
  }
  return out;
}

describe('locale files', () => {
  const reference = namespaces('en');

  it('exist for every language with the same namespaces', () => {
    expect(readdirSync(dir).filter((d) => !d.includes('.')).sort()).toEqual([...LANGUAGES].sort());
    expect(reference).toContain('common');
    for (const lang of LANGUAGES) expect(namespaces(lang), lang).toEqual(reference);
  });

  for (const ns of reference) {
    it(`${ns}: same key paths and array lengths in az, tr and en`, () => {
      const en = [...leaves(load('en', ns)).keys()].sort();
      for (const lang of LANGUAGES) expect([...leaves(load(lang, ns)).keys()].sort(), `${lang}/${ns}`).toEqual(en);
    });

    it(`${ns}: every value is a non-empty string`, () => {
      for (const lang of LANGUAGES) {
        for (const [path, value] of leaves(load(lang, ns))) {
          if (path.endsWith('[]')) continue;
          expect(typeof value, `${lang}/${ns}:${path}`).toBe('string');
          expect((value as string).trim(), `${lang}/${ns}:${path}`).not.toBe('');
        }
      }
    });

    it(`${ns}: interpolation placeholders agree across languages`, () => {
      const placeholders = (lang: string) =>
        [...leaves(load(lang, ns))].map(([p, v]) => `${p}:${[...String(v).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(',')}`).sort();
      for (const lang of LANGUAGES) expect(placeholders(lang), `${lang}/${ns}`).toEqual(placeholders('en'));
    });
  }

  it('detects a missing key, a shorter array and an empty value', () => {
    const a = [...leaves({ x: { y: 'a' }, list: ['1', '2'] }).keys()].sort();
    const b = [...leaves({ x: {}, list: ['1'] }).keys()].sort();
    expect(b).not.toEqual(a);
    expect(leaves({ t: '' }).get('t')).toBe('');
  });
});

describe("the public pages' text bundles", () => {
  it('are the namespaces ISLAND_TEXT names, in every language', () => {
    expect(Object.keys(islandBundles).sort()).toEqual(LANGUAGES.flatMap((lang) => ISLAND_TEXT.map((ns) => `./locales/${lang}/${ns}.json`)).sort());
  });
});
