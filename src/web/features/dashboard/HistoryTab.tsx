import type { UseQueryResult } from '@tanstack/react-query';
import { ExternalLink, PackageOpen } from 'lucide-react';
import { useTranslation } from '../../i18n';
import type { OrderView } from '../../../core/contracts/orders';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { EmptyBox, LoadErrorBox, LoadingBox } from '../../components/ui/QueryState';
import { WideTable } from '../../components/ui/Table';
import { statusLabelKey, statusTone } from './orderStatusView';
import { OrderExtras } from './OrderExtras';
import { DripRuns } from './DripRuns';
import { useOrderActions } from './resellerApi';
import { ReorderButton } from './reorder';
import type { OrderNavigationState } from '../catalog/pages';
import { formatDateTime, formatMoney, formatNumber } from '../../lib/format';
import { orderNoteText } from '../../lib/orderNote';
import { orderDelayText } from '../../lib/orderDelay';
import { errorText } from '../../lib/errorText';

/** All of the customer's orders, newest first (docs/rules.md#screens): a table on wide screens, cards on phones. */
export function HistoryTab({
  orders,
  locale,
  onNewOrder,
  onReorder,
}: {
  orders: UseQueryResult<OrderView[]>;
  locale: string;
  onNewOrder: () => void;
  /** "Order again" on each row, when given. */
  onReorder?: (state: OrderNavigationState) => void;
}) {
  const { t } = useTranslation('dashboard');
  const actions = useOrderActions(orders.isSuccess);

  if (orders.isPending) {
    return <LoadingBox label={t('history.loading')} spinnerClassName="size-8" />;
  }
  if (orders.isError) {
    return (
      <LoadErrorBox title={t('errors.ordersLoad')} detail={errorText(t, orders.error, 'dashboard')} retryLabel={t('retry')} onRetry={() => void orders.refetch()} />
    );
  }
  // A drip-feed's runs are shown under their parent, not as orders of their own.
  const runsOf = new Map<string, OrderView[]>();
  for (const o of [...orders.data].reverse()) if (o.parentId) runsOf.set(o.parentId, [...(runsOf.get(o.parentId) ?? []), o]);
  const list = orders.data.filter((o) => !o.parentId);
  if (list.length === 0) {
    return (
      <EmptyBox icon={PackageOpen} title={t('history.empty')} text={t('history.emptyText')}>
        <Button size="sm" onClick={onNewOrder}>
          {t('history.newOrder')}
        </Button>
      </EmptyBox>
    );
  }

  const status = (o: OrderView) => (
    <Badge tone={statusTone(o.status)} data-status={o.status} className="shrink-0 whitespace-nowrap">
      {t(statusLabelKey(o.status))}
    </Badge>
  );
  const price = (o: OrderView) => (
    <>
      {formatMoney(o.chargeMicros, 'USD', locale)}
      {o.refundedMicros > 0 ? (
        <span className="block text-xs font-normal text-emerald-700">{t('history.refunded', { amount: formatMoney(o.refundedMicros, 'USD', locale) })}</span>
      ) : null}
    </>
  );
  const link = (o: OrderView) => (
    <a href={o.link} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex max-w-full items-center gap-1 text-brand-700 hover:underline">
      <span className="truncate">{o.link.replace(/^https?:\/\/(www\.)?/i, '')}</span>
      <ExternalLink className="size-3.5 shrink-0" aria-hidden="true" />
    </a>
  );
  const progress = (o: OrderView) => (
    <>
      {o.remains !== null && o.status !== 'completed' ? (
        <span className="block text-xs text-slate-500">{t('history.delivered', { done: formatNumber(Math.max(0, o.quantity - o.remains), locale), total: formatNumber(o.quantity, locale) })}</span>
      ) : null}
      <DripRuns order={o} runs={runsOf.get(o.id)} locale={locale} />
    </>
  );

  return (
    <div data-testid="order-history">
      {/* Wide screens: a table. */}
      <WideTable
        caption={t('history.caption')}
        columns={[
          { label: t('history.date') },
          { label: t('history.service') },
          { label: t('history.link') },
          { label: t('history.quantity'), className: 'text-right' },
          { label: t('history.price'), className: 'text-right' },
          { label: t('history.status') },
        ]}
      >
        {list.map((o) => (
          <tr key={o.id} data-order={o.number} className="align-top">
            <td className="whitespace-nowrap px-4 py-3 text-slate-600">
              {formatDateTime(o.createdAt, locale)}
              <span className="block whitespace-nowrap font-mono text-xs text-slate-400">{o.number}</span>
            </td>
            <td className="max-w-56 px-4 py-3">
              <span className="font-medium text-slate-900">{o.serviceName}</span>
              {o.note ? <span className="mt-1 block text-xs text-slate-500">{orderNoteText(t, o.note)}</span> : null}
              {o.delay ? (
                <span className="mt-1 block text-xs font-medium text-amber-700" data-testid="order-delay">
                  {orderDelayText(t, o.delay, locale)}
                </span>
              ) : null}
            </td>
            <td className="max-w-48 px-4 py-3">{link(o)}</td>
            <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">
              {formatNumber(o.quantity, locale)}
              {progress(o)}
            </td>
            <td className="whitespace-nowrap px-4 py-3 text-right font-semibold tabular-nums text-slate-900">{price(o)}</td>
            <td className="px-4 py-3">
              {status(o)}
              <OrderExtras orderId={o.id} actions={actions.data?.[o.id]} />
              {onReorder ? <ReorderButton order={o} onReorder={onReorder} /> : null}
            </td>
          </tr>
        ))}
      </WideTable>

      {/* Phones: one card per order. */}
      <ul className="space-y-3 md:hidden">
        {list.map((o) => (
          <li key={o.id} data-order={o.number} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="font-semibold text-slate-900">{o.serviceName}</p>
                <p className="mt-0.5 text-xs text-slate-500">
                  {formatDateTime(o.createdAt, locale)} · <span className="whitespace-nowrap font-mono">{o.number}</span>
                </p>
              </div>
              {status(o)}
            </div>
            <div className="mt-2 text-sm">{link(o)}</div>
            <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
              <div>
                <dt className="text-xs text-slate-500">{t('history.quantity')}</dt>
                <dd className="tabular-nums">
                  {formatNumber(o.quantity, locale)}
                  {progress(o)}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">{t('history.price')}</dt>
                <dd className="font-semibold tabular-nums">{price(o)}</dd>
              </div>
            </dl>
            {o.note ? <p className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600">{orderNoteText(t, o.note)}</p> : null}
            {o.delay ? (
              <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-xs font-medium text-amber-800" data-testid="order-delay">
                {orderDelayText(t, o.delay, locale)}
              </p>
            ) : null}
            <OrderExtras orderId={o.id} actions={actions.data?.[o.id]} />
            {onReorder ? <ReorderButton order={o} onReorder={onReorder} /> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
