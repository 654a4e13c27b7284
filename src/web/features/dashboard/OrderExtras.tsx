import { useState } from 'react';
import { toast } from '../../lib/toast';
import type { OrderActions } from '../../../core/contracts/reseller';
import { useTranslation } from '../../i18n';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { useDashboardCache } from './cache';
import { requestCancel, requestRefill } from './resellerApi';
import { errorText } from '../../lib/errorText';

/**
 * Under an order's status in the history: the "via API" mark, the refill state, and the refill
 * and cancel buttons — shown only when the server says the order allows them.
 */
export function OrderExtras({ orderId, actions }: { orderId: string; actions: OrderActions | undefined }) {
  const { t } = useTranslation('reseller');
  const cache = useDashboardCache();
  const [busy, setBusy] = useState(false);
  if (!actions) return null;

  async function run(kind: 'refill' | 'cancel') {
    if (busy) return;
    if (kind === 'cancel' && !window.confirm(t('orders.cancelConfirm'))) return;
    setBusy(true);
    try {
      if (kind === 'refill') await requestRefill(orderId);
      else await requestCancel(orderId);
      toast.success(t(kind === 'refill' ? 'orders.refillSent' : 'orders.cancelSent'));
    } catch (err) {
      toast.error(t(kind === 'refill' ? 'orders.refillFailed' : 'orders.cancelFailed'), { description: errorText(t, err, 'reseller') });
    } finally {
      setBusy(false);
      cache.reload();
    }
  }

  return (
    <div className="mt-1.5 flex flex-wrap items-center gap-1.5" data-order-extras>
      {actions.viaApi ? (
        <Badge tone="neutral" className="text-[11px]" data-via-api>
          {t('orders.viaApi')}
        </Badge>
      ) : null}
      {actions.refill ? (
        <span className="text-xs text-slate-500" data-refill={actions.refill.status}>
          {t('orders.refillState', { status: t(`orders.refillStatus.${actions.refill.status}`) })}
        </span>
      ) : null}
      {actions.cancelRequested && !actions.canCancel ? <span className="text-xs text-slate-500">{t('orders.cancelRequested')}</span> : null}
      {actions.canRefill ? (
        <Button size="sm" variant="outline" className="h-7 px-2 text-xs" disabled={busy} onClick={() => void run('refill')}>
          {t('orders.refill')}
        </Button>
      ) : null}
      {actions.canCancel ? (
        <Button size="sm" variant="ghost" className="h-7 px-2 text-xs text-rose-700" disabled={busy} onClick={() => void run('cancel')}>
          {t('orders.cancel')}
        </Button>
      ) : null}
    </div>
  );
}
