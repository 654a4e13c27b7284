import { lazy, Suspense, useSyncExternalStore } from 'react';
import { noticeRaised, subscribeNotices } from '../lib/toast';
import { useAnyModalOpen } from '../lib/openModals';

// The notification area's code loads with the first notice (lib/toast.ts), so a page nobody acts
// on never downloads it; a notice raised before it has mounted shows once it has.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/**
 * The notification area: nothing until the page raises its first notice. Its own state, so
 * mounting it re-renders only this, not the whole page under the root layout.
 */
export function Notifications() {
  const wanted = useSyncExternalStore(subscribeNotices, noticeRaised, () => false);
  return wanted ? <NoticeArea /> : null;
}

/** The notices themselves: top right below the header, or at the bottom while a dialog is open. */
function NoticeArea() {
  const modalOpen = useAnyModalOpen();
  return (
    <Suspense fallback={null}>
      {/* Below the 64 px header, so a notification never covers its buttons; at the bottom while a
          dialog is open, so it never covers the dialog's title and close button. */}
      <Toaster
        position={modalOpen ? 'bottom-center' : 'top-right'}
        offset={modalOpen ? { bottom: 16 } : { top: 76 }}
        mobileOffset={modalOpen ? { bottom: 12 } : { top: 72 }}
        duration={5000}
        richColors
        closeButton
      />
    </Suspense>
  );
}
