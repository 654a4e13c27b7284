import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { isAcceptablePassword } from '../../../core/password';
import { Button, FieldError, Input, Label } from '../../components/ui';
import type { PageMeta } from '../../app/page';
import { accountWrite, ApiError } from './api';
import { StrengthMeter } from './StrengthMeter';

export const ns = ['auth'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('auth:recovery.title')} · ${site.site_name}` });

/** Redirect to /auth after a successful update (docs/rules.md#accounts). */
const DONE_REDIRECT_MS = 2000;

/** /password-recovery?token=…: sets a new password from the e-mailed link. */
export default function PasswordRecoveryPage() {
  const { t } = useTranslation('auth');
  const id = useId();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (token) return;
    toast.error(t('recovery.invalidLink'));
    void navigate('/reset-password', { replace: true });
  }, [token, navigate, t]);

  const mismatch = confirm !== '' && password !== confirm;
  const canSubmit = password !== '' && password === confirm && !busy && !done;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!canSubmit) return;
    if (!isAcceptablePassword(password)) {
      toast.error(t('recovery.weak'));
      return;
    }
    setBusy(true);
    try {
      await accountWrite('/reset-password', { token, newPassword: password });
      setDone(true);
      toast.success(t('recovery.success'));
      setTimeout(() => void navigate('/auth'), DONE_REDIRECT_MS);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'RESET_LINK_INVALID') {
        toast.error(t('recovery.invalidLink'));
        void navigate('/reset-password');
      } else if (err instanceof ApiError && err.code === 'PASSWORD_WEAK') {
        toast.error(t('recovery.weak'));
      } else {
        toast.error(t('recovery.failed'));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold text-slate-900">{t('recovery.title')}</h1>
      <form onSubmit={submit} noValidate className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <div>
          <Label htmlFor={`${id}-new`}>{t('fields.newPassword')}</Label>
          <Input id={`${id}-new`} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          <StrengthMeter password={password} />
        </div>
        <div>
          <Label htmlFor={`${id}-confirm`}>{t('fields.confirmPassword')}</Label>
          <Input
            id={`${id}-confirm`}
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            aria-invalid={mismatch}
            aria-describedby={`${id}-mismatch`}
          />
          <FieldError id={`${id}-mismatch`}>{mismatch ? t('recovery.mismatch') : undefined}</FieldError>
        </div>
        <Button type="submit" className="w-full" disabled={!canSubmit}>
          {busy ? t('recovery.saving') : t('recovery.submit')}
        </Button>
        {done ? (
          <p role="status" className="rounded-xl bg-emerald-50 p-3 text-sm text-emerald-800">
            {t('recovery.success')}
          </p>
        ) : null}
      </form>
      <p className="mt-4 text-center text-sm">
        <Link to="/auth" className="font-medium text-brand-700 hover:underline">
          {t('recovery.backToLogin')}
        </Link>
      </p>
    </main>
  );
}
