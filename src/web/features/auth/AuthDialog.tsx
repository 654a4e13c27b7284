import { useSyncExternalStore } from 'react';
import { useTranslation } from '../../i18n';
import { Dialog, Sheet } from '../../components/ui/Dialog';
import { useAuthDialog } from './authDialogStore';
import { AuthTabs } from './AuthForms';

/** Narrower than 768 px the dialog is a bottom sheet (docs/rules.md#screens). */
const MOBILE = '(max-width: 767px)';
const subscribeMedia = (l: () => void) => {
  const mq = window.matchMedia(MOBILE);
  mq.addEventListener('change', l);
  return () => mq.removeEventListener('change', l);
};

/** The sign-in / sign-up dialog, loaded on first open. */
export default function AuthDialog() {
  const { t } = useTranslation('auth');
  const { isOpen, tab, close, setTab } = useAuthDialog();
  const mobile = useSyncExternalStore(subscribeMedia, () => window.matchMedia(MOBILE).matches, () => false);
  const Frame = mobile ? Sheet : Dialog;
  return (
    <Frame
      open={isOpen}
      onOpenChange={(next) => (next ? undefined : close())}
      title={tab === 'login' ? t('dialog.loginTitle') : t('dialog.signupTitle')}
      description={t('dialog.description')}
      closeLabel={t('dialog.close')}
      className={mobile ? undefined : 'max-w-md'}
    >
      <div data-testid={mobile ? 'auth-sheet' : 'auth-dialog'}>
        <AuthTabs tab={tab} onTabChange={setTab} onDone={close} onLeave={close} />
      </div>
    </Frame>
  );
}
