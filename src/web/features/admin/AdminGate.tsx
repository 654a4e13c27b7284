import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { can } from '../../../core/permissions';
import type { PageMeta } from '../../app/page';
import { routeLanguage } from '../../app/page';
import { type Me, requireMe } from '../auth';

export const ns = ['auth'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('auth:admin.title')} · ${site.site_name}` });

/** Admin pages: signed-out visitors go home with the sign-in dialog; the role is checked on the server too. */
export const loader = async (args: LoaderFunctionArgs) => {
  const lang = routeLanguage(args.params, args.request);
  return { me: await requireMe(args, lang), lang };
};

/** Renders its children for the team (admins and moderators); everyone else sees 'Giriş Qadağandır' with a way back. */
export function AdminGate({ me, lang, children }: { me: Me; lang: string; children: ReactNode }) {
  const { t } = useTranslation('auth');
  if (can(me.roles, 'staff:enter')) return <>{children}</>;
  return (
    <main id="main" className="mx-auto flex max-w-lg flex-col items-center px-4 py-24 text-center">
      <ShieldAlert className="size-12 text-rose-600" aria-hidden="true" />
      <h1 className="mt-6 text-2xl font-bold text-slate-900">{t('admin.forbiddenTitle')}</h1>
      <p className="mt-2 text-slate-600">{t('admin.forbiddenText')}</p>
      <Link to={`/${lang}/dashboard`} className="mt-8 inline-flex h-11 items-center rounded-xl bg-brand-600 px-5 text-sm font-semibold text-white hover:bg-brand-700">
        {t('admin.backToDashboard')}
      </Link>
    </main>
  );
}

/** /admin and /{lang}/admin: the gate around the admin home. */
export default function AdminHomePage() {
  const { t } = useTranslation('auth');
  const { me, lang } = useLoaderData<{ me: Me; lang: string }>();
  return (
    <AdminGate me={me} lang={lang}>
      <main id="main" className="mx-auto max-w-5xl px-4 py-10">
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.title')}</h1>
        <p className="mt-2 text-slate-600">{t('admin.welcome', { name: me.fullName || me.email })}</p>
      </main>
    </AdminGate>
  );
}
