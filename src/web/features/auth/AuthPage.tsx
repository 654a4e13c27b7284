import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { useNavigate } from 'react-router';
import type { PageMeta } from '../../app/page';
import type { AuthTab } from './authDialogStore';
import { AuthTabs } from './AuthForms';

export const ns = ['auth'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('auth:page.title')} · ${site.site_name}` });

/** /auth: the same login and sign-up tabs as the dialog, as a page. */
export default function AuthPage() {
  const { t, i18n } = useTranslation('auth');
  const navigate = useNavigate();
  const [tab, setTab] = useState<AuthTab>('login');
  return (
    <main id="main" className="mx-auto w-full max-w-md px-4 py-12">
      <h1 className="mb-6 text-2xl font-bold text-slate-900">{t('page.title')}</h1>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <AuthTabs tab={tab} onTabChange={setTab} onDone={() => void navigate(`/${i18n.language}/dashboard`)} />
      </div>
    </main>
  );
}
