import { Compass } from 'lucide-react';
import { useTranslation } from '../i18n';
import { ButtonLink } from '../components/ui/Button';
import { useLanguage } from '../lib/language';
import type { PageMeta } from './page';

export const status = 404;
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('notFound.title')} · ${site.site_name}`, description: t('notFound.text') });

export default function NotFoundPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center px-4 py-24 text-center">
      <span className="grid size-16 place-items-center rounded-2xl bg-brand-50 text-brand-600">
        <Compass className="size-8" aria-hidden="true" />
      </span>
      <p className="mt-6 text-6xl font-extrabold tracking-tight text-brand-600">404</p>
      <h1 className="mt-3 text-2xl font-bold text-slate-900">{t('notFound.title')}</h1>
      <p className="mt-2 text-slate-600">{t('notFound.text')}</p>
      <ButtonLink to={`/${lang}`} className="mt-8">
        {t('notFound.home')}
      </ButtonLink>
    </main>
  );
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
