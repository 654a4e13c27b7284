import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, type Language } from '../../core/i18n';

/**
 * Strings live in `locales/{lang}/{namespace}.json`. `common` is needed by every page; other
 * namespaces load with the route that declares them (`handle.ns`), so a page ships only its own
 * text. The server sends the bundles it used with the HTML; the browser starts from those.
 */
const bundles = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json');

export async function loadNamespaces(i18n: I18n, lang: Language, namespaces: readonly string[]): Promise<void> {
  await Promise.all(
    namespaces.map(async (ns) => {
      if (i18n.hasResourceBundle(lang, ns)) return;
      const load = bundles[`./locales/${lang}/${ns}.json`];
      if (!load) throw new Error(`Missing locale bundle ${lang}/${ns}`);
      const mod = await load();
      i18n.addResourceBundle(lang, ns, mod.default, true, true);
    }),
  );
}

export function createI18n(lang: Language, resources: Resource = {}): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: DEFAULT_LANGUAGE,
    defaultNS: 'common',
    ns: ['common'],
    resources,
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
    returnNull: false,
  });
  return instance;
}

/** The bundles an instance holds, to embed in the server's HTML for hydration. */
export function usedResources(i18n: I18n, lang: Language): Resource {
  const data = i18n.store.data[lang] ?? {};
  return { [lang]: data };
}
