import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY, type Language } from '../../core/i18n';

/** The language chosen before: local storage in the browser, the mirror cookie on the server. */
export function preferredLanguage(request?: Request): Language {
  if (typeof window !== 'undefined') {
    try {
      const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
      if (isLanguage(stored)) return stored;
    } catch {
      // storage disabled: fall through to the cookie
    }
  }
  const cookie = request?.headers.get('cookie') ?? (typeof document !== 'undefined' ? document.cookie : '');
  const match = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([a-z]{2})`).exec(cookie);
  return isLanguage(match?.[1]) ? match[1] : DEFAULT_LANGUAGE;
}

/** Remembers the choice in local storage and in a cookie the server can read. */
export function rememberLanguage(lang: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // storage disabled: the cookie still carries the choice
  }
  document.cookie = `${LANGUAGE_COOKIE}=${lang}; path=/; max-age=31536000; samesite=lax`;
}

/** Rewrites only the language segment of a path; query string and hash are kept by the caller. */
export function switchLanguagePath(pathname: string, lang: Language): string {
  const parts = pathname.split('/');
  if (isLanguage(parts[1])) parts[1] = lang;
  else parts.splice(1, 0, lang);
  return parts.join('/').replace(/\/$/, '') || `/${lang}`;
}
