import { useTranslation } from '../i18n';
import { useParams } from 'react-router';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY, type Language } from '../../core/i18n';

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

function readCookie(request?: Request): Language | null {
  const cookie = request?.headers.get('cookie') ?? (typeof document !== 'undefined' ? document.cookie : '');
  const match = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([a-z]{2})`).exec(cookie);
  return isLanguage(match?.[1]) ? match[1] : null;
}

/** The language chosen before: local storage in the browser, the mirror cookie on the server. */
export function preferredLanguage(request?: Request): Language {
  return readStorage() ?? readCookie(request) ?? DEFAULT_LANGUAGE;
}

/** Remembers the choice in local storage and in a cookie the server can read. */
export function rememberLanguage(lang: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // storage disabled: the cookie still carries the choice
  }
  writeCookie(lang);
}

function writeCookie(lang: Language): void {
  document.cookie = `${LANGUAGE_COOKIE}=${lang}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * Run once a page in `pageLanguage` is shown in the browser. A visitor who arrives by a link keeps
 * that link's language until they choose another one; a stored choice is mirrored to the cookie so
 * the server's redirects agree with the browser's.
 */
export function settleLanguage(pageLanguage: Language): void {
  const stored = readStorage();
  if (!stored) rememberLanguage(pageLanguage);
  else if (readCookie() !== stored) writeCookie(stored);
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
