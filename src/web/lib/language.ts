import { useTranslation } from '../i18n';
import { useParams } from 'react-router';
import {
  acceptedLanguage,
  cookieLanguage,
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_STORAGE_KEY,
  requestLanguage,
  type Language,
} from '../../core/i18n';

// Remembering the language needs no React: the islands loader does it too.
export { hasLanguagePrefix, rememberLanguage, settleLanguage } from './languageMemory';

function readStorage(): Language | null {
  if (typeof window === 'undefined') return null;
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    // storage disabled
    return null;
  }
}

/**
 * The language for a page without a language prefix (docs/rules.md#languages): the remembered one
 * (the cookie the server sets on every page in a language; local storage when cookies are
 * blocked), else the first of ours among the browser's languages, else English. On the server
 * it is read from the request's headers.
 */
export function preferredLanguage(request?: Request): Language {
  if (typeof document === 'undefined') return requestLanguage(request?.headers.get('cookie'), request?.headers.get('accept-language'));
  return cookieLanguage(document.cookie) ?? readStorage() ?? acceptedLanguage(navigator.languages) ?? DEFAULT_LANGUAGE;
}

/** Rewrites only the language segment of a path; query string and hash are kept by the caller. */
export function switchLanguagePath(pathname: string, lang: Language): string {
  const parts = pathname.split('/');
  if (isLanguage(parts[1])) parts[1] = lang;
  else parts.splice(1, 0, lang);
  return parts.join('/').replace(/\/$/, '') || `/${lang}`;
}

/** The language of the page being shown: the route's `:lang`, else the one the text is in. */
export function useLanguage(): Language {
  const { lang } = useParams();
  const { i18n } = useTranslation();
  if (isLanguage(lang)) return lang;
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}
