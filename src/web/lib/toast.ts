import type { toast as sonnerToast } from 'sonner';
import { askIsland } from '../islands/ask';

type Toast = typeof sonnerToast;
type Kind = 'success' | 'error' | 'info' | 'warning';

let loading: Promise<Toast> | undefined;
/** sonner, fetched with the first notice. */
const sonner = () => (loading ??= import('sonner').then((m) => m.toast));

/** Whether a notice has been raised on this page: the notification area (app/Notifications.tsx) mounts only then. */
let raised = false;
const listeners = new Set<() => void>();
export const noticeRaised = () => raised;
export function subscribeNotices(changed: () => void): () => void {
  listeners.add(changed);
  return () => listeners.delete(changed);
}

type Message = Parameters<Toast['success']>[0];
type Options = Parameters<Toast['success']>[1];

const raise =
  (kind: Kind) =>
  (message: Message, options?: Options): void => {
    if (!raised) {
      raised = true;
      listeners.forEach((changed) => changed());
      // On a public page the notification area is an island that waits for this.
      askIsland('Notifications');
    }
    void sonner().then((toast) => toast[kind](message, options));
  };

/**
 * The site's notices, as sonner raises them, without sonner in any page's download until a notice
 * is raised: the notice shows once sonner's code has arrived and the notification area has
 * mounted (sonner shows a notice raised before its list subscribed). Pages import this, never
 * `sonner` itself.
 */
export const toast = { success: raise('success'), error: raise('error'), info: raise('info'), warning: raise('warning') };
