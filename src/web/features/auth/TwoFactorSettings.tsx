import { useQuery } from '@tanstack/react-query';
import { KeyRound, ShieldCheck } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { toast } from '../../lib/toast';
import { useTranslation } from '../../i18n';
import { twoFactorSetupSchema, type TwoFactorSetup } from '../../../core/contracts/account';
import { secretOf, totpCode } from '../../../core/secondFactor';
import { Button, Input, Label } from '../../components/ui';
import { errorText } from '../../lib/errorText';
import { api, unwrap, useRefreshMe, type Me } from './api';
import { SignInsList } from './SignInsList';

type Action = 'enable' | 'disable' | 'regenerate';

/** The QR code's drawing (and its encoder) load with the set-up step only. */
const QrCode = lazy(() => import('../../components/QrCode').then((m) => ({ default: m.QrCode })));
const QR_BOX = 'size-52 shrink-0 rounded-lg bg-white ring-1 ring-slate-200';

const failed = (t: ReturnType<typeof useTranslation>['t'], err: unknown) => toast.error(t('twoFactor.failed'), { description: errorText(t, err, 'auth') });

/**
 * The account's second factor (docs/rules.md#second-factor): turning it on (password, then the
 * authenticator's address or key, then a first code), the recovery codes shown once and made
 * anew, turning it off (password). On the account page, and on the admin gate for the team.
 */
export function TwoFactorSettings({ me }: { me: Me }) {
  const { t } = useTranslation('auth');
  const [asking, setAsking] = useState<Action | null>(null);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const refresh = useRefreshMe();

  const confirmed = async (action: Action, password: string) => {
    if (action === 'enable') {
      setSetup(twoFactorSetupSchema.parse(await unwrap((o) => api.auth['two-factor'].enable.$post({ json: { password } }, o))));
    } else if (action === 'disable') {
      await unwrap((o) => api.auth['two-factor'].disable.$post({ json: { password } }, o));
      toast.success(t('twoFactor.disabled'));
      await refresh();
    } else {
      const answer = twoFactorSetupSchema.pick({ backupCodes: true }).parse(await unwrap((o) => api.auth['two-factor']['generate-backup-codes'].$post({ json: { password } }, o)));
      setCodes(answer.backupCodes);
    }
    setAsking(null);
  };

  return (
    <section className="space-y-4" aria-labelledby="two-factor-title" data-testid="two-factor">
      <div className="flex items-start gap-3">
        <ShieldCheck className={`mt-0.5 size-6 shrink-0 ${me.twoFactorEnabled ? 'text-emerald-600' : 'text-slate-400'}`} aria-hidden="true" />
        <div>
          <h2 id="two-factor-title" className="text-lg font-semibold text-slate-900">
            {t('twoFactor.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t('twoFactor.intro')}</p>
          <p className="mt-2 text-sm font-medium text-slate-900" data-testid="two-factor-status" data-on={me.twoFactorEnabled}>
            {me.twoFactorEnabled ? t('twoFactor.statusOn') : t('twoFactor.statusOff')}
          </p>
        </div>
      </div>

      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : setup ? (
        <SetupStep
          setup={setup}
          onCancel={() => setSetup(null)}
          onEnabled={async () => {
            setCodes(setup.backupCodes);
            setSetup(null);
            toast.success(t('twoFactor.enabled'));
            await refresh();
          }}
        />
      ) : asking ? (
        <PasswordPrompt action={asking} onCancel={() => setAsking(null)} onConfirm={confirmed} />
      ) : (
        <div className="flex flex-wrap gap-2">
          {me.twoFactorEnabled ? (
            <>
              <Button variant="outline" onClick={() => setAsking('regenerate')}>
                <KeyRound className="size-4" aria-hidden="true" />
                {t('twoFactor.regenerate')}
              </Button>
              <Button variant="outline" onClick={() => setAsking('disable')}>
                {t('twoFactor.disable')}
              </Button>
            </>
          ) : (
            <Button onClick={() => setAsking('enable')}>{t('twoFactor.enable')}</Button>
          )}
        </div>
      )}
    </section>
  );
}

/** The password asked again before the second factor changes. */
function PasswordPrompt({ action, onCancel, onConfirm }: { action: Action; onCancel: () => void; onConfirm: (action: Action, password: string) => Promise<void> }) {
  const { t } = useTranslation('auth');
  const id = useId();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!password || busy) return;
    setBusy(true);
    try {
      await onConfirm(action, password);
    } catch (err) {
      failed(t, err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="max-w-md space-y-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div>
        <Label htmlFor={`${id}-password`}>{t('twoFactor.passwordPrompt')}</Label>
        <Input id={`${id}-password`} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={!password || busy}>
          {t('twoFactor.continue')}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          {t('twoFactor.cancel')}
        </Button>
      </div>
    </form>
  );
}

/**
 * The authenticator's address as a QR code to scan, as a link that opens the app on a phone, and
 * as its key in groups of four to type, then a first code.
 */
function SetupStep({ setup, onCancel, onEnabled }: { setup: TwoFactorSetup; onCancel: () => void; onEnabled: () => Promise<void> }) {
  const { t } = useTranslation('auth');
  const id = useId();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const typed = totpCode(code);
  const submit = async () => {
    if (typed === null || busy) return;
    setBusy(true);
    try {
      await unwrap((o) => api.auth['two-factor']['verify-totp'].$post({ json: { code: typed } }, o));
      await onEnabled();
    } catch (err) {
      failed(t, err);
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="max-w-xl space-y-4 rounded-xl border border-slate-200 bg-slate-50 p-4" data-testid="two-factor-setup">
      <div>
        <h3 className="font-semibold text-slate-900">{t('twoFactor.scanTitle')}</h3>
        <p className="mt-1 text-sm text-slate-600">{t('twoFactor.scanText')}</p>
      </div>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <Suspense fallback={<div className={QR_BOX} aria-hidden="true" />}>
          <QrCode text={setup.totpURI} label={t('twoFactor.qrLabel')} className={QR_BOX} />
        </Suspense>
        <div className="w-full min-w-0 space-y-4">
          <a href={setup.totpURI} className="inline-flex text-sm font-medium text-brand-700 hover:underline" data-testid="totp-uri">
            {t('twoFactor.openInApp')}
          </a>
          <div>
            <p className="text-sm font-medium text-slate-700">{t('twoFactor.secretLabel')}</p>
            <code className="mt-1 block select-all break-all rounded-lg bg-white px-3 py-2 font-mono text-base tracking-wider text-slate-900 ring-1 ring-slate-200" data-testid="totp-secret">
              {secretOf(setup.totpURI)}
            </code>
          </div>
        </div>
      </div>
      <form
        className="space-y-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="max-w-xs">
          <Label htmlFor={`${id}-code`}>{t('twoFactor.codeLabel')}</Label>
          <Input id={`${id}-code`} value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" inputMode="numeric" maxLength={9} />
        </div>
        <div className="flex gap-2">
          <Button type="submit" disabled={typed === null || busy}>
            {t('twoFactor.confirm')}
          </Button>
          <Button type="button" variant="ghost" onClick={onCancel}>
            {t('twoFactor.cancel')}
          </Button>
        </div>
      </form>
    </div>
  );
}

/** The recovery codes, shown once: each signs in once without the app. */
function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const { t } = useTranslation('auth');
  const [copied, setCopied] = useState(false);
  return (
    <div className="max-w-xl space-y-3 rounded-xl border border-amber-200 bg-amber-50 p-4" data-testid="recovery-codes">
      <h3 className="font-semibold text-slate-900">{t('twoFactor.recoveryTitle')}</h3>
      <p className="text-sm text-slate-700">{t('twoFactor.recoveryText')}</p>
      <ul className="grid grid-cols-2 gap-2 font-mono text-sm text-slate-900">
        {codes.map((code) => (
          <li key={code} className="rounded bg-white px-2 py-1 ring-1 ring-amber-200" data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() => {
            void navigator.clipboard
              ?.writeText(codes.join('\n'))
              .then(() => setCopied(true))
              .catch(() => undefined);
          }}
        >
          {copied ? t('twoFactor.copied') : t('twoFactor.copy')}
        </Button>
        <Button onClick={onDone}>{t('twoFactor.done')}</Button>
      </div>
    </div>
  );
}

/** The account's own recent sign-ins. */
export function OwnSignIns() {
  const { t } = useTranslation('auth');
  const signIns = useQuery({ queryKey: ['sign-ins'], queryFn: () => unwrap((o) => api['auth-extra']['sign-ins'].$get({}, o)), staleTime: 30_000 });
  return (
    <section className="space-y-3" aria-labelledby="sign-ins-title">
      <h2 id="sign-ins-title" className="text-lg font-semibold text-slate-900">
        {t('signIns.title')}
      </h2>
      {signIns.data ? <SignInsList entries={signIns.data.signIns} /> : signIns.isError ? <p className="text-sm text-rose-600">{t('common:errors.generic')}</p> : null}
    </section>
  );
}
