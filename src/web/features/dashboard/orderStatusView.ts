import type { OrderStatus } from '../../../core/orderStatus';
import { statusGroup } from '../../../core/orderStatus';
import type { BadgeTone } from '../../components/ui/Badge';

/**
 * How an order status is shown to its owner (docs/rules.md#statuses): every active status reads as
 * "processing", `unknown` as "verifying"; final statuses keep their own names.
 */
export function statusLabelKey(status: OrderStatus): string {
  const group = statusGroup(status);
  if (group === 'active') return 'status.processing';
  if (group === 'unknown') return 'status.verifying';
  return `status.${status}`;
}

export function statusTone(status: OrderStatus): BadgeTone {
  switch (statusGroup(status)) {
    case 'completed':
      return 'success';
    case 'active':
      return 'brand';
    case 'partial':
    case 'unknown':
      return 'warning';
    case 'error':
      return 'danger';
  }
}
