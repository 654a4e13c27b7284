// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../i18n/locales/en/common.json';
import tr from '../i18n/locales/tr/tracking.json';

const boot = (json: object) => {
  document.body.innerHTML = `<script type="application/json" id="artim-boot">${JSON.stringify(json)}</script>`;
};

describe("a public page's text (pageBoot)", () => {
  beforeEach(() => vi.resetModules());

  it('is the boot data as it is when the page came with its text', async () => {
    boot({ lang: 'en', resources: { en: { common: { brand: 'x' } } }, me: null, site: {} });
    const { pageBoot } = await import('./text');
    expect((await pageBoot()).resources).toEqual({ en: { common: { brand: 'x' } } });
  });

  it('loads the bundles the page names, once, when it came without its text', async () => {
    boot({ lang: 'tr', text: ['common', 'tracking'], me: null, site: {} });
    const { pageBoot } = await import('./text');
    const first = pageBoot();
    expect(pageBoot()).toBe(first);
    const { resources, lang } = await first;
    expect(lang).toBe('tr');
    expect((resources.tr as Record<string, unknown>).tracking).toEqual(tr);
    expect(Object.keys((resources.tr as Record<string, Record<string, unknown>>).common!).sort()).toEqual(Object.keys(en).sort());
  });

  it('fails on a bundle there is none of, rather than hydrating without its text', async () => {
    boot({ lang: 'en', text: ['nowhere'], me: null, site: {} });
    const { pageBoot } = await import('./text');
    await expect(pageBoot()).rejects.toThrow(/en\/nowhere/);
  });
});
