/** Languages of the storefront (docs/rules.md#languages): the first path segment of public routes. */
export const LANGUAGES = ['az', 'tr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The language a path starts with (`/az/services` → `az`), if any. */
export function pathLanguage(pathname: string): Language | null {
  const first = pathname.split('/')[1];
  return isLanguage(first) ? first : null;
}

/** Locale for dates and numbers; az uses az-AZ. */
export const LOCALES: Record<Language, string> = { az: 'az-AZ', tr: 'tr-TR', en: 'en-US' };

/**
 * Cookie of the remembered language: set by the server on every page with a language prefix (and
 * by the language switcher), read by the server to redirect `/` and to render pages without one.
 */
export const LANGUAGE_COOKIE = 'lang';
/** How long the remembered language is kept: a year. */
export const LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** The language a `Cookie` header's `lang` cookie names, or null when it names none of ours. */
export function cookieLanguage(header: string | null | undefined): Language | null {
  const match = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([a-z]{2})(?=\\s*(?:;|$))`).exec(header ?? '');
  return isLanguage(match?.[1]) ? match[1] : null;
}

/** The language of a tag such as `az-AZ`, `tr` or `en-GB`; null when it is none of ours. */
const languageOfTag = (tag: string): Language | null => {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(primary) ? primary : null;
};

/**
 * The first of ours among the browser's languages, most preferred first: an `Accept-Language`
 * header (read in its quality order, `q=0` meaning "not this one") or `navigator.languages`.
 * Null when it lists none of ours.
 */
export function acceptedLanguage(accept: string | readonly string[] | null | undefined): Language | null {
  if (!accept) return null;
  if (typeof accept !== 'string') {
    for (const tag of accept) {
      const lang = languageOfTag(tag);
      if (lang) return lang;
    }
    return null;
  }
  let best: { lang: Language; q: number } | null = null;
  for (const part of accept.split(',').slice(0, 50)) {
    const [tag = '', ...params] = part.split(';');
    const lang = languageOfTag(tag);
    if (!lang) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    // Equal qualities keep the header's order.
    if (!best || q > best.q) best = { lang, q };
  }
  return best?.lang ?? null;
}

/**
 * The language a request names (docs/rules.md#languages): the remembered one (the cookie), else
 * the first of ours among the browser's languages; null when neither names one.
 */
export function namedLanguage(cookie: string | null | undefined, accept: string | readonly string[] | null | undefined): Language | null {
  return cookieLanguage(cookie) ?? acceptedLanguage(accept);
}

/** The language to show a page without a language prefix in, or to send `/` to: English when nothing names one. */
export const requestLanguage = (cookie: string | null | undefined, accept: string | readonly string[] | null | undefined): Language =>
  namedLanguage(cookie, accept) ?? DEFAULT_LANGUAGE;
/** Local-storage key of the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'artim.language';

/** Routes without a language prefix (docs/rules.md#languages). */
export const UNPREFIXED_ROUTES = [
  'auth',
  'terms',
  'privacy',
  'track',
  'reset-password',
  'password-recovery',
  'payment-success',
  'payment-error',
  'admin',
  'dev',
] as const;
