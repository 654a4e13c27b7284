import { Mail, MapPin, Phone } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Link } from 'react-router';
import { telHref, useSite } from '../../app/site';
import { useLanguage } from '../../lib/language';
import { Logo } from './Logo';
import { FOOTER_EXTRA_ITEMS, NAV_ITEMS, navHref } from './navigation';

/** Site footer: about line, page links, the rules and policy, the contact details of the site settings. */
export function Footer() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const site = useSite();
  const year = new Date().getFullYear();
  const linkClass = 'rounded text-sm text-slate-300 hover:text-white';
  return (
    <footer className="bg-slate-950 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div>
          <Link to={`/${lang}`} className="inline-block rounded-xl" aria-label={t('nav.homeLink', { site: site.site_name })}>
            <Logo name={site.site_name} inverted />
          </Link>
          <p className="mt-4 max-w-xs text-sm leading-relaxed text-slate-400">{t('footer.tagline')}</p>
        </div>
        <nav aria-label={t('footer.pages')}>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">{t('footer.pages')}</h2>
          <ul className="mt-4 space-y-2.5">
            {[...NAV_ITEMS, ...FOOTER_EXTRA_ITEMS].map((item) => (
              <li key={item.key}>
                <Link to={'unprefixed' in item ? item.path : navHref(lang, item.path)} className={linkClass}>
                  {t(`nav.${item.key}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label={t('footer.legal')}>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">{t('footer.legal')}</h2>
          <ul className="mt-4 space-y-2.5">
            <li>
              <Link to="/terms" className={linkClass}>
                {t('footer.terms')}
              </Link>
            </li>
            <li>
              <Link to="/privacy" className={linkClass}>
                {t('footer.privacy')}
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">{t('footer.contact')}</h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li className="flex items-center gap-2.5">
              <Mail className="size-4 text-brand-300" aria-hidden="true" />
              <a href={`mailto:${site.contact_email}`} className={linkClass}>
                {site.contact_email}
              </a>
            </li>
            <li className="flex items-center gap-2.5">
              <Phone className="size-4 text-brand-300" aria-hidden="true" />
              <a href={telHref(site.contact_phone)} className={linkClass}>
                {site.contact_phone}
              </a>
            </li>
            <li className="flex items-center gap-2.5">
              <MapPin className="size-4 text-brand-300" aria-hidden="true" />
              <span>{t('company.address')}</span>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-6 text-xs text-slate-400 sm:px-6 lg:px-8">{t('footer.rights', { year })}</p>
      </div>
    </footer>
  );
}
