import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from '../../i18n';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from '../../lib/toast';
import { AUTH_WRITE_BODIES } from '../../../core/contracts/account';
import type { PageMeta } from '../../app/page';
import { api, ApiError, unwrap } from './api';
import { ConfirmPasswordField, NewPasswordField } from './AccountFields';
import { AccountPageFrame } from './AccountPageFrame';

export const ns = ['auth'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('auth:recovery.title')} · ${site.site_name}` });

/** Redirect to /auth after a successful update (docs/rules.md#accounts). */
const DONE_REDIRECT_MS = 2000;

/** The `/reset-password` body (the link's token and the new password), with the password typed twice. */
const recoverySchema = AUTH_WRITE_BODIES['/reset-password'].extend({ confirm: z.string() }).transform(({ confirm: _confirm, ...body }) => body);

/** /password-recovery?token=…: sets a new password from the e-mailed link. */
export default function PasswordRecoveryPage() {
  const { t } = useTranslation('auth');
  const id = useId();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const form = useForm({ resolver: zodResolver(recoverySchema), defaultValues: { token, newPassword: '', confirm: '' } });
  const busy = form.formState.isSubmitting;
  const [password, confirm] = form.watch(['newPassword', 'confirm']);
  const [done, setDone] = useState(false);
  // Whether the link still works is asked as the page opens, before anything is typed.
  const [linkChecked, setLinkChecked] = useState(false);

  useEffect(() => {
    let current = true;
    const refuse = () => {
      toast.error(t('recovery.invalidLink'));
      void navigate('/reset-password', { replace: true });
    };
    if (!token) {
      refuse();
      return;
    }
    unwrap((o) => api['auth-extra']['reset-link'].$post({ json: { token } }, o)).then(
      ({ valid }) => {
        if (!current) return;
        if (valid) setLinkChecked(true);
        else refuse();
      },
      // Not known now (offline, too many checks): setting the password checks the link again.
      () => current && setLinkChecked(true),
    );
    return () => {
      current = false;
    };
  }, [token, navigate, t]);

  const mismatch = confirm !== '' && password !== confirm;
  const canSubmit = linkChecked && password !== '' && password === confirm && !busy && !done;

  const submit = form.handleSubmit(
    async (body) => {
      if (!canSubmit) return;
      try {
        await unwrap((o) => api.auth['reset-password'].$post({ json: body }, o));
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
      }
    },
    // A new password the strength rules refuse (docs/rules.md#accounts) is not sent.
    (errors) => {
      if (canSubmit && errors.newPassword) toast.error(t('recovery.weak'));
    },
  );

  return (
    <AccountPageFrame
      title={t('recovery.title')}
      onSubmit={(e) => void submit(e)}
      submitLabel={busy ? t('recovery.saving') : t('recovery.submit')}
      canSubmit={canSubmit}
      done={done ? t('recovery.success') : undefined}
    >
      <NewPasswordField id={`${id}-new`} registration={form.register('newPassword')} password={password} />
      <ConfirmPasswordField idPrefix={id} registration={form.register('confirm')} mismatch={mismatch} />
    </AccountPageFrame>
  );
}
