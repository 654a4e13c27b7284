import { useTranslation } from '../../i18n';
import type { OrderView } from '../../../core/contracts/orders';
import { statusLabelKey } from './orderStatusView';
import { formatNumber } from '../../lib/format';

/** A drip-feed parent's runs in the history: how many were sent of how many, and each run's state. */
export function DripRuns({ order, runs, locale }: { order: OrderView; runs: readonly OrderView[] | undefined; locale: string }) {
  const { t } = useTranslation('dashboard');
  if (!order.drip) return null;
  const { runs: total, runsSent, intervalMinutes, quantityPerRun } = order.drip;
  return (
    <span data-testid="drip-runs" className="mt-1 block text-xs text-slate-500">
      <span className="block">{t('history.dripSent', { sent: formatNumber(runsSent, locale), total: formatNumber(total, locale) })}</span>
      <span className="block">{t('history.dripEvery', { quantity: formatNumber(quantityPerRun, locale), minutes: formatNumber(intervalMinutes, locale) })}</span>
      {runs?.length ? (
        <span className="mt-1 block space-y-0.5">
          {runs.map((r, i) => (
            <span key={r.id} data-run={r.number} data-status={r.status} className="block whitespace-nowrap">
              {t('history.dripRun', { n: i + 1 })} · <span className="font-mono">{r.number}</span> · {t(statusLabelKey(r.status))}
            </span>
          ))}
        </span>
      ) : null}
    </span>
  );
}
