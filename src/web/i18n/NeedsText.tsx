import { use, type ReactNode } from 'react';
import { DEFAULT_LANGUAGE, isLanguage } from '../../core/i18n';
import { loadNamespaces } from './index';
import { useTranslation } from './react';

const loading = new Map<string, Promise<void>>();

/**
 * Renders its children once the text namespaces they read are there, suspending until then (a
 * `<Suspense>` above shows its loading state): for a part that loads on demand with text the page
 * did not bring (a dashboard tab on a page of islands: docs/decisions/0032).
 */
export function NeedsText({ ns, children }: { ns: readonly string[]; children: ReactNode }) {
  const { i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const missing = ns.filter((n) => !i18n.hasResourceBundle(lang, n));
  if (missing.length) {
    const key = `${lang}/${missing.join(',')}`;
    let done = loading.get(key);
    // A bundle that could not load is asked for again at the next render; meanwhile the part shows its keys.
    if (!done) loading.set(key, (done = loadNamespaces(i18n, lang, missing).catch(() => void loading.delete(key))));
    use(done);
  }
  return children;
}
