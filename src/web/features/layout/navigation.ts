import type { Language } from '../../../core/i18n';

/** The header's links, in order; `end` marks links that match only their exact path. */
export const NAV_ITEMS = [
  { key: 'home', path: '', end: true },
  { key: 'services', path: '/services', end: false },
  { key: 'about', path: '/about', end: false },
  { key: 'contact', path: '/contact', end: false },
  { key: 'order', path: '/order', end: false },
] as const;

export const navHref = (lang: Language, path: string) => `/${lang}${path}`;
