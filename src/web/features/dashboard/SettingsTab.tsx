import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { toast } from 'sonner';
import { isAcceptablePassword } from '../../../core/password';
import { Button, FieldError, Input, Label } from '../../components/ui';
import { TabList, TabPanel } from '../../components/ui/Tabs';
import { ApiError, apiPost, ME_QUERY_KEY, type Me } from '../auth/api';
import { StrengthMeter } from '../auth/StrengthMeter';

/** Profile (full name) and security (password change) of the dashboard's settings tab. */
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
        {tab === 'profile' ? <ProfileForm me={me} /> : <PasswordForm />}
      </TabPanel>
    </div>
  );
}

function ProfileForm({ me }: { me: Me }) {
  const { t } = useTranslation('dashboard');
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(me.fullName);
  const [busy, setBusy] = useState(false);
  const blank = name.trim() === '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (blank || busy) return;
    setBusy(true);
    try {
      await apiPost('/api/auth/update-user', { name: name.trim() });
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      toast.success(t('settings.profileSaved'));
    } catch {
      toast.error(t('settings.profileFailed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="max-w-md space-y-4">
      <div>
        <Label htmlFor={`${id}-email`}>{t('auth:fields.email')}</Label>
        <Input id={`${id}-email`} value={me.email} readOnly disabled />
      </div>
      <div>
        <Label htmlFor={`${id}-name`}>{t('auth:fields.fullName')}</Label>
        <Input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} aria-invalid={blank} aria-describedby={`${id}-name-error`} />
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
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const mismatch = confirm !== '' && next !== confirm;
  const weak = next.length >= 3 && !isAcceptablePassword(next);
  const canSubmit = current !== '' && next !== '' && next === confirm && isAcceptablePassword(next) && !busy;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    try {
      await apiPost('/api/auth/change-password', { currentPassword: current, newPassword: next, revokeOtherSessions: true });
      setCurrent('');
      setNext('');
      setConfirm('');
      toast.success(t('settings.passwordChanged'));
    } catch (err) {
      const code = err instanceof ApiError ? err.code : null;
      toast.error(t('settings.passwordFailedTitle'), {
        description: code === 'INVALID_CREDENTIALS' ? t('settings.currentWrong') : code === 'PASSWORD_WEAK' ? t('auth:recovery.weak') : t('settings.passwordFailed'),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="max-w-md space-y-4">
      <div>
        <Label htmlFor={`${id}-current`}>{t('settings.currentPassword')}</Label>
        <Input id={`${id}-current`} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
      </div>
      <div>
        <Label htmlFor={`${id}-new`}>{t('auth:fields.newPassword')}</Label>
        <Input id={`${id}-new`} type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} aria-describedby={`${id}-rule`} />
        <StrengthMeter password={next} />
        <p id={`${id}-rule`} className={`mt-1 text-xs ${weak ? 'text-rose-600' : 'text-slate-500'}`}>
          {t('auth:signup.passwordRule')}
        </p>
      </div>
      <div>
        <Label htmlFor={`${id}-confirm`}>{t('auth:fields.confirmPassword')}</Label>
        <Input
          id={`${id}-confirm`}
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          aria-invalid={mismatch}
          aria-describedby={`${id}-mismatch`}
        />
        <FieldError id={`${id}-mismatch`}>{mismatch ? t('auth:recovery.mismatch') : undefined}</FieldError>
      </div>
      <Button type="submit" disabled={!canSubmit}>
        {t('settings.changePassword')}
      </Button>
    </form>
  );
}
