import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import { AUTH_WRITE_BODIES } from '../../../core/contracts/account';
import { isAcceptablePassword } from '../../../core/password';
import { Button, FieldError, Input, Label } from '../../components/ui';
import { TabList, TabPanel } from '../../components/ui/Tabs';
import { api, ApiError, unwrap } from '../../lib/api';
import { useRefreshMe, type Me } from '../auth';
import { ConfirmPasswordField, CurrentPasswordField, NewPasswordField, OwnSignIns, TwoFactorSettings } from '../auth/pages';

/** The profile form: the `/update-user` body. */
const profileSchema = AUTH_WRITE_BODIES['/update-user'];

/** The password form: the `/change-password` body, and the new password typed a second time. */
const passwordSchema = AUTH_WRITE_BODIES['/change-password']
  .extend({ confirm: z.string() })
  .refine((v) => v.confirm === v.newPassword, { path: ['confirm'], message: 'mismatch' })
  .transform(({ confirm: _confirm, ...body }) => ({ ...body, revokeOtherSessions: true }));

/** Profile (full name) and security (password change, second factor, recent sign-ins) of the dashboard's settings tab. */
export function SettingsTab({ me }: { me: Me }) {
  const [tab, setTab] = useState<'profile' | 'security'>('profile');
  const { t } = useTranslation('dashboard');
  const idPrefix = useId();
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <TabList
        value={tab}
        onChange={setTab}
        label={t('tabs.settings')}
        idPrefix={idPrefix}
        look="pill"
        items={[
          { id: 'profile', label: t('settings.profile') },
          { id: 'security', label: t('settings.security') },
        ]}
      />
      <TabPanel id={tab} idPrefix={idPrefix} active>
        {tab === 'profile' ? (
          <ProfileForm me={me} />
        ) : (
          <div className="space-y-10">
            <PasswordForm />
            <TwoFactorSettings me={me} />
            <OwnSignIns />
          </div>
        )}
      </TabPanel>
    </div>
  );
}

function ProfileForm({ me }: { me: Me }) {
  const { t } = useTranslation('dashboard');
  const id = useId();
  const refreshMe = useRefreshMe();
  const form = useForm({ resolver: zodResolver(profileSchema), defaultValues: { name: me.fullName } });
  const busy = form.formState.isSubmitting;
  const blank = form.watch('name').trim() === '';

  const submit = form.handleSubmit(
    async (body) => {
      try {
        await unwrap((o) => api.auth['update-user'].$post({ json: body }, o));
        await refreshMe();
        toast.success(t('settings.profileSaved'));
      } catch {
        toast.error(t('settings.profileFailed'));
      }
    },
    // A name the account rules refuse (too short, invisible characters) is not saved.
    () => {
      if (!blank) toast.error(t('settings.profileFailed'));
    },
  );

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="max-w-md space-y-4">
      <div>
        <Label htmlFor={`${id}-email`}>{t('auth:fields.email')}</Label>
        <Input id={`${id}-email`} value={me.email} readOnly disabled />
      </div>
      <div>
        <Label htmlFor={`${id}-name`}>{t('auth:fields.fullName')}</Label>
        <Input id={`${id}-name`} {...form.register('name')} aria-invalid={blank} aria-describedby={`${id}-name-error`} />
        <FieldError id={`${id}-name-error`}>{blank ? t('settings.nameRequired') : undefined}</FieldError>
      </div>
      <Button type="submit" disabled={blank || busy}>
        {t('settings.save')}
      </Button>
    </form>
  );
}

function PasswordForm() {
  const { t } = useTranslation('dashboard');
  const id = useId();
  const form = useForm({ resolver: zodResolver(passwordSchema), defaultValues: { currentPassword: '', newPassword: '', confirm: '' } });
  const busy = form.formState.isSubmitting;
  const [current, next, confirm] = form.watch(['currentPassword', 'newPassword', 'confirm']);
  const mismatch = confirm !== '' && next !== confirm;
  const weak = next.length >= 3 && !isAcceptablePassword(next);
  const canSubmit = current !== '' && next !== '' && next === confirm && isAcceptablePassword(next) && !busy;

  const submit = form.handleSubmit(async (body) => {
    if (!canSubmit) return;
    try {
      await unwrap((o) => api.auth['change-password'].$post({ json: body }, o));
      form.reset();
      toast.success(t('settings.passwordChanged'));
    } catch (err) {
      const code = err instanceof ApiError ? err.code : null;
      toast.error(t('settings.passwordFailedTitle'), {
        description: code === 'INVALID_CREDENTIALS' ? t('settings.currentWrong') : code === 'PASSWORD_WEAK' ? t('auth:recovery.weak') : t('settings.passwordFailed'),
      });
    }
  }, (errors) => {
    // A current password longer than any stored one cannot be right (the contract says so).
    if (errors.currentPassword && current !== '') toast.error(t('settings.passwordFailedTitle'), { description: t('settings.currentWrong') });
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="max-w-md space-y-4">
      <CurrentPasswordField id={`${id}-current`} label={t('settings.currentPassword')} registration={form.register('currentPassword')} />
      <NewPasswordField id={`${id}-new`} registration={form.register('newPassword')} password={next} describedBy={`${id}-rule`}>
        <p id={`${id}-rule`} className={`mt-1 text-xs ${weak ? 'text-rose-600' : 'text-slate-500'}`}>
          {t('auth:signup.passwordRule')}
        </p>
      </NewPasswordField>
      <ConfirmPasswordField idPrefix={id} registration={form.register('confirm')} mismatch={mismatch} />
      <Button type="submit" disabled={!canSubmit}>
        {t('settings.changePassword')}
      </Button>
    </form>
  );
}
