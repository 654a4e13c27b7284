import type { toast as sonnerToast } from 'sonner';

type Toast = typeof sonnerToast;
type Kind = 'success' | 'error' | 'info' | 'warning';

let loading: Promise<Toast> | undefined;
/** sonner, fetched with the first notice or with the notification area (app/Notifications.tsx), whichever comes first. */
const sonner = () => (loading ??= import('sonner').then((m) => m.toast));

type Message = Parameters<Toast['success']>[0];
type Options = Parameters<Toast['success']>[1];

const raise =
  (kind: Kind) =>
  (message: Message, options?: Options): void => {
    void sonner().then((toast) => toast[kind](message, options));
  };

/**
 * The site's notices, as sonner raises them, without sonner in a page's first download: a notice
 * raised before its code has arrived shows once it has (a chunk the notification area loads
 * after hydration anyway). Pages import this, never `sonner` itself.
 */
export const toast = { success: raise('success'), error: raise('error'), info: raise('info'), warning: raise('warning') };
