import type { Language } from '../../../core/i18n';

/** The header's links, in order; `end` marks links that match only their exact path. */
export const NAV_ITEMS = [
  { key: 'home', path: '', end: true },
  { key: 'services', path: '/services', end: false },
  { key: 'about', path: '/about', end: false },
  { key: 'contact', path: '/contact', end: false },
  { key: 'prices', path: '/prices', end: false },
  { key: 'order', path: '/order', end: false },
] as const;

/** Pages linked from the footer only, to keep the header short. */
export const FOOTER_EXTRA_ITEMS = [
  { key: 'blog', path: '/blog' },
  { key: 'faq', path: '/faq' },
  { key: 'api', path: '/api' },
  // Tracking has no language prefix (docs/rules.md#languages).
  { key: 'track', path: '/track', unprefixed: true },
] as const;

export const navHref = (lang: Language, path: string) => `/${lang}${path}`;
