import { useTranslation } from 'react-i18next';
import type { PageMeta } from '../../app/page';

export const meta: PageMeta = ({ t }) => ({ title: `${t('brand')} · ${t('home.title')}`, description: t('home.title') });

export default function HomePage() {
  const { t } = useTranslation();
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">{t('home.title')}</h1>
    </main>
  );
}
