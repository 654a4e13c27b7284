import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { useNavigate, useSearchParams } from 'react-router';
import type { PageMeta } from '../../app/page';
import { useLanguage } from '../../lib/language';
import { useMe } from './api';
import type { AuthTab } from './authDialogStore';
import { AuthTabs } from './AuthForms';

export const ns = ['auth'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('auth:page.title')} · ${site.site_name}` });

/**
 * Where a signed-in visitor goes from /auth (docs/rules.md#accounts): the page that sent them
 * (`?next=`, an address of this site), else their dashboard.
 */
export function afterSignIn(next: string | null, lang: string): string {
  if (next && /^\/(?![/\\])/.test(next) && !/^\/auth(?:[/?#]|$)/.test(next)) return next;
  return `/${lang}/dashboard`;
}

/** /auth: the same login and sign-up tabs as the dialog, as a page. */
export default function AuthPage() {
  const { t } = useTranslation('auth');
  const lang = useLanguage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [tab, setTab] = useState<AuthTab>('login');
  const destination = afterSignIn(params.get('next'), lang);
  const signedIn = !!useMe().data;

  // Signed in — by this form, the header's dialog, or before the page opened: on to the destination.
  useEffect(() => {
    if (signedIn) void navigate(destination, { replace: true });
  }, [signedIn, destination, navigate]);

  return (
    <main id="main" className="mx-auto w-full max-w-md px-4 py-12">
      <h1 className="mb-6 text-2xl font-bold text-slate-900">{t('page.title')}</h1>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <AuthTabs tab={tab} onTabChange={setTab} onDone={() => void navigate(destination, { replace: true })} />
      </div>
    </main>
  );
}
