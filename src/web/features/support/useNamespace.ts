import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../core/i18n';
import { loadNamespaces } from '../../i18n';

/**
 * Loads a text namespace for a component that is not a page of its own (the support tab inside
 * the dashboard, the consultation dialog, the contact form). True once the text is there.
 */
export function useNamespaceReady(ns: string): boolean {
  const { i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const has = i18n.hasResourceBundle(lang, ns);
  const [loaded, setLoaded] = useState<string | null>(null);
  // The server may or may not hold the text already; the first render in the browser must match
  // it, so the component shows its placeholder until mounted.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  useEffect(() => {
    if (has) return;
    let live = true;
    void loadNamespaces(i18n, lang, [ns]).then(() => {
      if (live) setLoaded(`${lang}/${ns}`);
    });
    return () => {
      live = false;
    };
  }, [has, i18n, lang, ns]);
  return mounted && (has || loaded === `${lang}/${ns}`);
}
