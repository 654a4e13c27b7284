import { type Language } from '../../core/i18n';
import { bundles } from './bundles';
import { I18n, type Resources } from './translator';

export { I18n, type Resources, type TFunction, type TOptions } from './translator';
export { I18nProvider, useTranslation } from './react';

/**
 * Strings live in `locales/{lang}/{namespace}.json` (./bundles.ts). `common` is needed by every
 * page; other namespaces load with the route that declares them (`handle.ns`), so a page ships
 * only its own text. The server sends the bundles it used with the HTML; the browser starts from those.
 */

export async function loadNamespaces(i18n: I18n, lang: Language, namespaces: readonly string[]): Promise<void> {
  await Promise.all(
    namespaces.map(async (ns) => {
      if (i18n.hasResourceBundle(lang, ns)) return;
      const load = bundles[`./locales/${lang}/${ns}.json`];
      if (!load) throw new Error(`Missing locale bundle ${lang}/${ns}`);
      const mod = await load();
      i18n.addResourceBundle(lang, ns, mod.default);
    }),
  );
}

export function createI18n(lang: Language, resources: Resources = {}): I18n {
  return new I18n(lang, resources);
}

/** The bundles an instance holds (or only the namespaces named), to embed in the server's HTML for hydration. */
export function usedResources(i18n: I18n, lang: Language, only?: readonly string[]): Resources {
  const all = i18n.data[lang] ?? {};
  // By name, not in the order the bundles finished loading: two renders of one page write the same
  // bytes (server/web/personalPages.ts shares a shell only between identical renders).
  const kept = Object.entries(all)
    .filter(([ns]) => !only || only.includes(ns))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { [lang]: Object.fromEntries(kept) };
}
