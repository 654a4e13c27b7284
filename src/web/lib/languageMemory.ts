import { cookieLanguage, LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE, LANGUAGE_STORAGE_KEY, pathLanguage, type Language } from '../../core/i18n';

/*
 * The remembered language (docs/rules.md#languages), free of React: ./language.ts re-exports it
 * for components, and the public pages' loader (entry-islands.tsx) settles it before any island
 * wakes.
 */

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

/** Whether a path starts with a language segment (public pages) rather than being unprefixed. */
export const hasLanguagePrefix = (pathname: string) => pathLanguage(pathname) !== null;
