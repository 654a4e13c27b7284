import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { can } from '../../../core/permissions';
import type { PageMeta } from '../../app/page';
import { routeLanguage } from '../../app/page';
import { type Me, requireMe, useMe } from '../auth';
import { TwoFactorSettings } from '../auth/pages';

export const ns = ['auth'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('auth:admin.title')} · ${site.site_name}` });

/** Admin pages: signed-out visitors go home with the sign-in dialog; the role is checked on the server too. */
export const loader = async (args: LoaderFunctionArgs) => {
  const lang = routeLanguage(args.params, args.request);
  return { me: await requireMe(args, lang), lang };
};

/**
 * Renders its children for the team (admins and moderators); everyone else sees 'Giriş Qadağandır'
 * with a way back. A team member without a second factor sets one up here first in production
 * (the server refuses the admin API until then), and is offered one elsewhere
 * (docs/rules.md#second-factor).
 */
export function AdminGate({ me, lang, children }: { me: Me; lang: string; children: ReactNode }) {
  const { t } = useTranslation('auth');
  if (can(me.roles, 'staff:enter')) {
    if (me.twoFactorEnabled) return <>{children}</>;
    if (me.twoFactorRequired) return <SecondFactorGate me={me}>{children}</SecondFactorGate>;
    return <SecondFactorOffer me={me}>{children}</SecondFactorOffer>;
  }
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

/** The signed-in state as it is now: turning the second factor on here opens the gate without a reload. */
function useLiveMe(me: Me): Me {
  return useMe().data ?? me;
}

/** Production: the admin area waits for a second factor; setting it up happens right here. */
function SecondFactorGate({ me, children }: { me: Me; children: ReactNode }) {
  const { t } = useTranslation('auth');
  const live = useLiveMe(me);
  if (live.twoFactorEnabled) return <>{children}</>;
  return (
    <main id="main" className="mx-auto flex max-w-2xl flex-col px-4 py-16" data-testid="two-factor-gate">
      <ShieldAlert className="size-12 text-amber-600" aria-hidden="true" />
      <h1 className="mt-6 text-2xl font-bold text-slate-900">{t('twoFactor.gateTitle')}</h1>
      <p className="mt-2 text-slate-600">{t('twoFactor.gateText')}</p>
      <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <TwoFactorSettings me={live} />
      </div>
    </main>
  );
}

/** Outside production: the area opens, with a notice that offers the second factor until it is on. */
function SecondFactorOffer({ me, children }: { me: Me; children: ReactNode }) {
  const { t } = useTranslation('auth');
  const live = useLiveMe(me);
  const [open, setOpen] = useState(false);
  if (live.twoFactorEnabled && !open) return <>{children}</>;
  return (
    <>
      <div className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900" role="status" data-testid="two-factor-offer">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-1">
          <ShieldCheck className="size-4 shrink-0" aria-hidden="true" />
          <span>{t('twoFactor.offeredNotice')}</span>
          <button type="button" className="font-semibold underline" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? t('twoFactor.cancel') : t('twoFactor.setUp')}
          </button>
        </div>
        {open ? (
          <div className="mx-auto mt-3 max-w-6xl rounded-xl bg-white p-4 text-slate-900 ring-1 ring-amber-200">
            <TwoFactorSettings me={live} />
          </div>
        ) : null}
      </div>
      {children}
    </>
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
