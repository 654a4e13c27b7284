/**
 * `sonner` as public pages import it (vite.islands.config.ts): the notice library itself, and,
 * the moment any island loads it, a sign that a notice may follow — the notification area
 * (../app/Notifications.islands.tsx) loads the library's notice list only then, so a page
 * nobody acts on never downloads it. A notice raised before the list is there shows once it is.
 */
export * from 'sonner';

declare global {
  interface Window {
    /** Set once an island has loaded the notice library (./sonner.ts). */
    __artimNotices?: boolean;
  }
}

/** The event the notification area waits for. */
export const NOTICES_EVENT = 'artim:notices';

if (typeof window !== 'undefined' && !window.__artimNotices) {
  window.__artimNotices = true;
  window.dispatchEvent(new Event(NOTICES_EVENT));
}
