import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Dialog } from '../../components/ui/Dialog';
import { SignInsList } from '../auth/pages';
import { useUserSignIns, type AdminUser } from './api';
import { QueryView } from './ui';

/** A user's recent sign-ins (time, address, device) and whether they sign in with a second factor. */
export function SignInsDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const signIns = useUserSignIns(user.id);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t('users.signInsTitle', { email: user.email })} closeLabel={t('common.close')} className="max-w-xl">
      <QueryView query={signIns} error={t('users.signInsNotLoaded')} empty="" isEmpty={() => false}>
        {(data) => (
          <div className="space-y-4" data-testid="user-sign-ins">
            <p className="flex items-center gap-2 text-sm font-medium text-slate-800" data-two-factor={data.twoFactorEnabled}>
              {data.twoFactorEnabled ? <ShieldCheck className="size-4 text-emerald-600" aria-hidden="true" /> : <ShieldOff className="size-4 text-slate-400" aria-hidden="true" />}
              {data.twoFactorEnabled ? t('users.twoFactorOn') : t('users.twoFactorOff')}
            </p>
            <SignInsList entries={data.signIns} />
          </div>
        )}
      </QueryView>
    </Dialog>
  );
}
