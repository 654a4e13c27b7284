import { useSyncExternalStore } from 'react';
import { NoticeArea } from './Notifications';

export { NoticeArea };

/** Must match NOTICES_EVENT in ../islands/sonner.ts (not imported: that module is the library itself). */
const NOTICES_EVENT = 'artim:notices';
const subscribe = (changed: () => void) => {
  window.addEventListener(NOTICES_EVENT, changed);
  return () => window.removeEventListener(NOTICES_EVENT, changed);
};

/**
 * Public pages' notification area (docs/decisions/0022-islands-on-demand.md): nothing, and none
 * of the notice library's code, until an island loads that library to raise a notice
 * (../islands/sonner.ts); then the same area as in the app.
 */
export function Notifications() {
  const wanted = useSyncExternalStore(
    subscribe,
    () => window.__artimNotices === true,
    () => false,
  );
  return wanted ? <NoticeArea /> : null;
}
