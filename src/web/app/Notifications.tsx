import { lazy, Suspense } from 'react';
import { useIdle } from '../lib/idle';
import { useAnyModalOpen } from '../lib/openModals';

// The notification area loads when the browser is first idle after hydration, so its code stays
// out of the page's load; toasts raised before then (lib/toast.ts) appear once it has mounted.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/**
 * The notification area, mounted once the page has hydrated. Its own state, so mounting it
 * re-renders only this, not the whole page under the root layout.
 */
export function Notifications() {
  const mounted = useIdle();
  const modalOpen = useAnyModalOpen();
  if (!mounted) return null;
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
