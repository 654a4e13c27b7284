/** Languages of the storefront (docs/rules.md#languages): the first path segment of public routes. */
export const LANGUAGES = ['az', 'tr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** Locale for dates and numbers; az uses az-AZ. */
export const LOCALES: Record<Language, string> = { az: 'az-AZ', tr: 'tr-TR', en: 'en-US' };

/** Cookie that mirrors the stored language so the server can redirect and render in it. */
export const LANGUAGE_COOKIE = 'lang';
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
