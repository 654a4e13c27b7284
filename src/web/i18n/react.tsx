import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { I18n, TFunction } from './translator';

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

/**
 * The translate function for a component: its namespace(s) (default `common`) in the current
 * language. The component re-renders when the language changes, and `t` changes with it.
 */
export function useTranslation(namespaces?: string | readonly string[]): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useTranslation outside I18nProvider');
  const lang = useSyncExternalStore(i18n.subscribe, () => i18n.language, () => i18n.language);
  const key = typeof namespaces === 'string' ? namespaces : (namespaces?.join(',') ?? '');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the namespaces' content
  const t = useMemo(() => i18n.getFixedT(lang, namespaces), [i18n, lang, key]);
  return { t, i18n };
}
