import { useTranslation } from '../i18n';
import { useParams } from 'react-router';
import {
  acceptedLanguage,
  cookieLanguage,
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_COOKIE,
  LANGUAGE_COOKIE_MAX_AGE,
  LANGUAGE_STORAGE_KEY,
  requestLanguage,
  type Language,
} from '../../core/i18n';

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

/** Remembers a language in the cookie the server reads, and in local storage. */
export function rememberLanguage(lang: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // storage disabled: the cookie still carries the choice
  }
  if (cookieLanguage(document.cookie) !== lang) {
    const secure = window.location.protocol === 'https:' ? '; secure' : '';
    document.cookie = `${LANGUAGE_COOKIE}=${lang}; path=/; max-age=${LANGUAGE_COOKIE_MAX_AGE}; samesite=lax${secure}`;
  }
}

/**
 * Run once a page in `pageLanguage` is shown in the browser: the language of the last page seen
 * in a language is the remembered one, as the server does for pages it sends. This covers pages
 * reached in the browser without asking the server.
 */
export function settleLanguage(pageLanguage: Language): void {
  rememberLanguage(pageLanguage);
}

/** Rewrites only the language segment of a path; query string and hash are kept by the caller. */
export function switchLanguagePath(pathname: string, lang: Language): string {
  const parts = pathname.split('/');
  if (isLanguage(parts[1])) parts[1] = lang;
  else parts.splice(1, 0, lang);
  return parts.join('/').replace(/\/$/, '') || `/${lang}`;
}

/** Whether a path starts with a language segment (public pages) rather than being unprefixed. */
export const hasLanguagePrefix = (pathname: string) => isLanguage(pathname.split('/')[1]);

/** The language of the page being shown: the route's `:lang`, else the one the text is in. */
export function useLanguage(): Language {
  const { lang } = useParams();
  const { i18n } = useTranslation();
  if (isLanguage(lang)) return lang;
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}
