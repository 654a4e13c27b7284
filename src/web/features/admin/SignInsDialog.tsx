import { ShieldCheck, ShieldOff, ShieldX } from 'lucide-react';
import { useState } from 'react';
import { secondFactorResetSchema } from '../../../core/contracts/admin';
import { useTranslation } from '../../i18n';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { useMe } from '../auth';
import { SignInsList } from '../auth/pages';
import { useCan } from './access';
import { useResetSecondFactor, useUserSignIns, type AdminUser } from './api';
import { FormDialog } from './dialogs';
import { notify, notifyError } from './format';
import { QueryView, ReasonField } from './ui';

/**
 * A user's recent sign-ins (time, address, device) and whether they sign in with a second factor;
 * an admin may remove another account's second factor from here (docs/rules.md#second-factor).
 */
export function SignInsDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const signIns = useUserSignIns(user.id);
  const allowed = useCan();
  const me = useMe().data;
  const [resetting, setResetting] = useState(false);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t('users.signInsTitle', { email: user.email })} closeLabel={t('common.close')} className="max-w-xl">
      <QueryView query={signIns} error={t('users.signInsNotLoaded')} empty="" isEmpty={() => false}>
        {(data) => (
          <div className="space-y-4" data-testid="user-sign-ins">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="flex items-center gap-2 text-sm font-medium text-slate-800" data-two-factor={data.twoFactorEnabled}>
                {data.twoFactorEnabled ? <ShieldCheck className="size-4 text-emerald-600" aria-hidden="true" /> : <ShieldOff className="size-4 text-slate-400" aria-hidden="true" />}
                {data.twoFactorEnabled ? t('users.twoFactorOn') : t('users.twoFactorOff')}
              </p>
              {/* One's own factor is turned off with the password in one's own settings; the server refuses it here too. */}
              {data.twoFactorEnabled && allowed('users:reset-second-factor') && me && me.id !== user.id ? (
                <Button size="sm" variant="outline" onClick={() => setResetting(true)} aria-label={t('users.resetTwoFactorFor', { email: user.email })}>
                  <ShieldX className="size-4" aria-hidden="true" />
                  {t('users.resetTwoFactor')}
                </Button>
              ) : null}
            </div>
            <SignInsList entries={data.signIns} />
          </div>
        )}
      </QueryView>
      {resetting ? <ResetSecondFactorDialog user={user} onClose={() => setResetting(false)} /> : null}
    </Dialog>
  );
}

/** Asks why (required, up to 500 characters) before another account's second factor is removed. */
export function ResetSecondFactorDialog({ user, onClose }: { user: Pick<AdminUser, 'id' | 'email'>; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const reset = useResetSecondFactor();
  const valid = secondFactorResetSchema.shape.reason.safeParse(reason).success;
  const submit = () => {
    setTried(true);
    if (!valid) return;
    reset.mutate(
      { userId: user.id, reason: reason.trim() },
      {
        onSuccess: (r) => {
          if (r.mailSent) notify.success(t('notices.secondFactorRemoved'), t('notices.secondFactorRemovedText', { email: user.email }));
          else notify.info(t('notices.secondFactorRemoved'), t('users.resetMailNotSent', { email: user.email }));
          onClose();
        },
        onError: (err) => notifyError(t, 'notices.secondFactorNotRemoved', err),
      },
    );
  };
  return (
    <FormDialog
      title={t('users.resetTwoFactorTitle')}
      description={t('users.resetTwoFactorText', { email: user.email })}
      onClose={onClose}
      onSubmit={submit}
      pending={reset.isPending}
      submitLabel={t('users.resetTwoFactor')}
    >
      <ReasonField value={reason} onChange={setReason} error={tried && !valid ? t('users.resetReasonRequired') : undefined} />
    </FormDialog>
  );
}
