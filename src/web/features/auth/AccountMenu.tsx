import { lazy, Suspense, useEffect, useId, useState, useSyncExternalStore, type ComponentType } from 'react';
import type { I18n } from '../../i18n';
import { useTranslation } from '../../i18n';
import { Link, useLocation, useNavigate } from 'react-router';
import { isLanguage, type Language } from '../../../core/i18n';
import { loadNamespaces } from '../../i18n';
import { PRELOAD_DIALOG_WHEN_LIVE } from './dialogPreload';
import { useMe } from './api';
import { authDialog, useAuthDialog } from './authDialogStore';
import { useSignOut } from './useSignOut';
import { toast } from '../../lib/toast';

const button =
  'inline-flex h-10 items-center justify-center rounded-xl px-4 text-sm font-semibold transition-colors disabled:pointer-events-none disabled:opacity-60';

// The header appears twice (desktop and mobile menu); only the first mounted menu hosts the dialog.
const hosts: string[] = [];
const hostListeners = new Set<() => void>();
const notifyHosts = () => hostListeners.forEach((l) => l());
const subscribeHosts = (l: () => void) => {
  hostListeners.add(l);
  return () => hostListeners.delete(l);
};

let dialogModule: Promise<{ default: ComponentType }> | null = null;
/** The dialog's code and its text, fetched on first open. */
function loadDialog(i18n: I18n): Promise<{ default: ComponentType }> {
  const lang = (isLanguage(i18n.language) ? i18n.language : 'en') as Language;
  dialogModule ??= Promise.all([import('./AuthDialog'), loadNamespaces(i18n, lang, ['auth'])]).then(
    ([mod]) => mod,
    (error: unknown) => {
      // A failed fetch (the network dropped) is tried again at the next opening.
      dialogModule = null;
      throw error;
    },
  );
  return dialogModule;
}

/** The header's account area: Sign in for visitors; Dashboard and Sign out once signed in. */
export function AccountMenu() {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const id = useId();
  const { signingOut, signOut } = useSignOut();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';

  useEffect(() => {
    hosts.push(id);
    notifyHosts();
    return () => {
      hosts.splice(hosts.indexOf(id), 1);
      notifyHosts();
    };
  }, [id]);
  const isHost = useSyncExternalStore(subscribeHosts, () => hosts[0] === id, () => false);
  const signedOut = me.data === null;
  useEffect(() => {
    if (PRELOAD_DIALOG_WHEN_LIVE && isHost && signedOut) loadDialog(i18n).catch(() => {});
  }, [isHost, signedOut, i18n]);

  return (
    <>
      {me.data ? (
        <div className="flex items-center gap-2">
          <Link to={`/${lang}/dashboard`} className={`${button} bg-brand-50 text-brand-700 hover:bg-brand-100`}>
            {t('account.dashboard')}
          </Link>
          <button
            type="button"
            onClick={signOut}
            disabled={signingOut}
            aria-busy={signingOut}
            className={`${button} border border-slate-300 bg-white text-slate-800 hover:border-brand-500 hover:text-brand-700`}
          >
            {signingOut ? t('account.signingOut') : t('account.signOut')}
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => authDialog.open('login')} className={`${button} bg-brand-600 text-white shadow-sm hover:bg-brand-700`}>
          {t('account.signIn')}
        </button>
      )}
      {isHost ? <AuthDialogHost /> : null}
    </>
  );
}

const HOME = /^\/(?:az|tr|en)\/?$/;
/** The home page's query parameters the dialog's host acts on (and takes out of the address, with `error`). */
export const ADDRESS_PARAMS = ['auth', 'from-signout', 'verified'] as const;

/**
 * Loads and shows the dialog when asked; opens it on the home page for ?auth=required. The
 * e-mail confirmation link lands on the home page with ?verified=1 (and &error=… when the link
 * did not work) and says how it went.
 */
function AuthDialogHost() {
  const { t, i18n } = useTranslation();
  const { isOpen } = useAuthDialog();
  const location = useLocation();
  const navigate = useNavigate();
  const [wanted, setWanted] = useState(false);
  const [Dialog] = useState(() => lazy(() => loadDialog(i18n)));

  useEffect(() => {
    if (isOpen) setWanted(true);
  }, [isOpen]);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!HOME.test(location.pathname) || !ADDRESS_PARAMS.some((name) => params.has(name))) return;
    if (params.get('auth') === 'required' && !params.has('from-signout')) authDialog.open('login');
    if (params.has('verified')) {
      const failed = params.has('error');
      // The notice's code loads with it (lib/toast.ts), so it stays out of every page's download.
      if (failed) toast.error(t('account.emailVerifyFailed'), { description: t('account.emailVerifyFailedText') });
      else toast.success(t('account.emailVerified'), { description: t('account.emailVerifiedText') });
    }
    [...ADDRESS_PARAMS, 'error'].forEach((name) => params.delete(name));
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true, preventScrollReset: true });
  }, [location.pathname, location.search, location.hash, navigate, t]);

  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Dialog />
    </Suspense>
  );
}
