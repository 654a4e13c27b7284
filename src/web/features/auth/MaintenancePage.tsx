import { Wrench } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Link } from 'react-router';
import type { PageMeta } from '../../app/page';

export const ns = ['auth'];
export const status = 503;
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('auth:maintenance.title')} · ${site.site_name}` });

/** Shown to visitors and customers while maintenance_mode is on. */
export default function MaintenancePage() {
  const { t } = useTranslation('auth');
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <Wrench className="size-12 text-brand-600" aria-hidden="true" />
      <h1 className="mt-6 text-3xl font-bold text-slate-900">{t('maintenance.title')}</h1>
      <p className="mt-3 text-slate-600">{t('maintenance.text')}</p>
      <Link to="/auth" className="mt-8 text-sm font-medium text-brand-700 hover:underline">
        {t('maintenance.adminSignIn')}
      </Link>
    </main>
  );
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
