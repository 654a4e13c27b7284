import type { TFunction } from '../../i18n';
import { toast } from '../../lib/toast';
import { COUNTER_OF, type OrderStatus, type StatusGroup } from '../../../core/orderStatus';
import type { BadgeTone } from '../../components/ui/Badge';
import { errorText } from '../../lib/errorText';

/**
 * The dashboard's three-way status label (docs/rules.md#admin): completed, pending, or error for the rest.
 * "Pending" covers every status still on its way (processing, in progress, awaiting
 * reconciliation), the same set the pending-orders card counts.
 */
export function dashboardStatus(status: OrderStatus): { key: 'completed' | 'pending' | 'error'; tone: BadgeTone } {
  if (status === 'completed') return { key: 'completed', tone: 'success' };
  if (COUNTER_OF[status] === 'active') return { key: 'pending', tone: 'warning' };
  return { key: 'error', tone: 'danger' };
}

export const STATUS_TONE: Record<StatusGroup, BadgeTone> = {
  active: 'brand',
  completed: 'success',
  partial: 'warning',
  error: 'danger',
  unknown: 'neutral',
};

/** Admin notices last 4 s (docs/rules.md#admin). */
const DURATION = 4000;
export const notify = {
  success: (title: string, description?: string) => toast.success(title, { description, duration: DURATION }),
  info: (title: string, description?: string) => toast.info(title, { description, duration: DURATION }),
  error: (title: string, description?: string) => toast.error(title, { description, duration: DURATION }),
};

/** Shows a failure notice: the situation's title and the server's reason, worded by `errorText` for the team. */
export function notifyError(t: TFunction, titleKey: string, err: unknown) {
  notify.error(t(titleKey), errorText(t, err, 'admin'));
}
