/** The site's frame, as the admin area reuses it (docs/ARCHITECTURE.md#layers). */
export { Footer } from './Footer';
export { Header } from './Header';
export { LanguageSwitcher } from './LanguageSwitcher';
export { Logo } from './Logo';
