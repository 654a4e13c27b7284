import { Repeat2 } from 'lucide-react';
import type { OrderView } from '../../../core/contracts/orders';
import { useTranslation } from '../../i18n';
import { Button } from '../../components/ui/Button';
import type { OrderNavigationState } from '../catalog/pages';

/** The order form's starting choices for "Order again": the same service, link and quantity. */
export function reorderState(o: Pick<OrderView, 'serviceId' | 'platform' | 'link' | 'quantity'>): OrderNavigationState {
  return { tab: 'orders', serviceId: o.serviceId, platform: o.platform, link: o.link, quantity: o.quantity, params: {} };
}

/** "Order again" on a history row: opens the new-order form filled from the order. */
export function ReorderButton({ order, onReorder }: { order: OrderView; onReorder: (state: OrderNavigationState) => void }) {
  const { t } = useTranslation('order-tools');
  return (
    <Button
      variant="ghost"
      size="sm"
      className="mt-1.5 h-7 px-2 text-xs"
      data-reorder={order.number}
      aria-label={t('reorder.labelFor', { number: order.number })}
      onClick={() => onReorder(reorderState(order))}
    >
      <Repeat2 className="size-3.5" aria-hidden="true" />
      {t('reorder.label')}
    </Button>
  );
}
