import { useTranslation } from 'react-i18next';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { PageMeta } from '../../app/page';
import { routeLanguage } from '../../app/page';
import { useMe, type Me } from '../auth/api';
import { requireMe } from '../auth/session';
import { SettingsTab } from './SettingsTab';

export const ns = ['dashboard', 'auth'];
export const meta: PageMeta = ({ t }) => ({ title: `${t('dashboard:title')} · ${t('brand')}` });

/** Signed-out visitors go home with the sign-in dialog (spec 01 §2). */
export const loader = async (args: LoaderFunctionArgs) => ({ me: await requireMe(args, routeLanguage(args.params, args.request)) });

/** /{lang}/dashboard: title, welcome and the tabs; settings here, the order tabs join it. */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { me: initial } = useLoaderData<{ me: Me }>();
  const me = useMe().data ?? initial;
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold text-slate-900">{t('title')}</h1>
      <p className="mt-1 text-slate-600" data-testid="dashboard-welcome">
        {t('welcome', { name: me.fullName || me.email })}
      </p>
      <section aria-labelledby="settings-heading" className="mt-8">
        <h2 id="settings-heading" className="mb-4 text-xl font-semibold text-slate-900">
          {t('tabs.settings')}
        </h2>
        <SettingsTab me={me} />
      </section>
    </main>
  );
}
