import { Menu, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n';
import { Link, NavLink, useLocation } from 'react-router';
import { AccountMenu, useAuthDialog } from '../auth';
import { PlatformMenu } from '../catalog';
import { useSite } from '../../app/site';
import { hasLanguagePrefix, settleLanguage, useLanguage } from '../../lib/language';
import { LanguageSwitcher } from './LanguageSwitcher';
import { EARLY_TOGGLE_ATTR } from '../../islands/attrs';
import { Logo } from './Logo';
import { NAV_ITEMS, navHref } from './navigation';

const MOBILE_MENU_ID = 'mobile-menu';

/** Site header: logo, main navigation, social-media menu, language, account; a menu on phones. */
export function Header() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const site = useSite();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const prefixed = hasLanguagePrefix(location.pathname);

  // A page in a language, seen in the browser, settles the remembered language (lib/language.ts).
  useEffect(() => {
    if (prefixed) settleLanguage(lang);
  }, [lang, prefixed]);

  // Any navigation (a link in the menu, back/forward, a redirect) closes the mobile menu, and so
  // does the sign-in sheet opening over it: the menu must not wait behind it or after it.
  useEffect(() => setOpen(false), [location.key]);
  const authOpen = useAuthDialog().isOpen;
  useEffect(() => {
    if (authOpen) setOpen(false);
  }, [authOpen]);

  // Escape closes the menu. The listener lives as long as the header, so a key pressed the moment
  // the menu opens is not missed while effects of the new render are still pending.
  const openRef = useRef(open);
  openRef.current = open;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && openRef.current) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const links = (mobile: boolean) =>
    NAV_ITEMS.map((item) => (
      <li key={item.key}>
        <NavLink
          to={navHref(lang, item.path)}
          end={item.end}
          className={({ isActive }) =>
            mobile
              ? `block rounded-xl px-4 py-3 text-base font-semibold ${isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-50'}`
              : `rounded-lg px-2 py-2 text-sm font-semibold whitespace-nowrap transition-colors xl:px-3 ${isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:text-slate-900'}`
          }
          onClick={() => setOpen(false)}
        >
          {t(`nav.${item.key}`)}
        </NavLink>
      </li>
    ));

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Link to={`/${lang}`} className="rounded-xl" aria-label={t('nav.homeLink', { site: site.site_name })}>
          <Logo name={site.site_name} />
        </Link>

        <nav aria-label={t('nav.label')} className="ml-1 hidden lg:block xl:ml-4">
          <ul className="flex items-center gap-0.5 xl:gap-1">{links(false)}</ul>
        </nav>

        <div className="ml-auto flex items-center gap-2">
          <div className="hidden lg:block">
            <PlatformMenu />
          </div>
          <LanguageSwitcher />
          <div className="hidden lg:block">
            <AccountMenu />
          </div>
          {/* Opened by the page's first script at the tap when React is not there yet
              (islands/capture.ts): the icon follows `aria-expanded`, not the state. */}
          <button
            type="button"
            className="group inline-flex size-10 items-center justify-center rounded-xl border border-slate-200 text-slate-700 hover:bg-slate-50 lg:hidden"
            aria-expanded={open}
            aria-controls={MOBILE_MENU_ID}
            aria-label={open ? t('nav.closeMenu') : t('nav.openMenu')}
            {...{ [EARLY_TOGGLE_ATTR]: '' }}
            onClick={() => setOpen((o) => !o)}
          >
            <Menu className="size-5 group-aria-expanded:hidden" aria-hidden="true" />
            <X className="hidden size-5 group-aria-expanded:block" aria-hidden="true" />
          </button>
        </div>
      </div>

      <div id={MOBILE_MENU_ID} hidden={!open} className="border-t border-slate-200 bg-white lg:hidden">
        <nav aria-label={t('nav.mobileLabel')} className="mx-auto max-w-7xl px-4 py-4 sm:px-6">
          <ul className="space-y-1">{links(true)}</ul>
          <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-slate-100 pt-4">
            <PlatformMenu />
            <AccountMenu />
          </div>
        </nav>
      </div>
    </header>
  );
}
