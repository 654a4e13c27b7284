import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { PageMeta } from './page';

export const status = 404;
export const meta: PageMeta = ({ t }) => ({ title: `${t('notFound.title')} · Artım` });

export default function NotFoundPage() {
  const { t } = useTranslation();
  const { lang } = useParams();
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-brand-500">404</p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900">{t('notFound.title')}</h1>
      <p className="mt-2 text-slate-600">{t('notFound.text')}</p>
      <Link to={lang ? `/${lang}` : '/'} className="mt-8 rounded-lg bg-brand-600 px-5 py-2.5 font-medium text-white hover:bg-brand-700">
        {t('notFound.home')}
      </Link>
    </main>
  );
}
