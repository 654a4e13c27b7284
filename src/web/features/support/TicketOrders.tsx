import { ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import type { TicketOrderView } from '../../../core/contracts/support';
import { formatMoney, formatNumber } from '../../lib/format';
import { useTranslation } from '../../i18n';
import { useAdminBase } from '../admin';

const dash = '—';

/**
 * The orders a ticket is about, beside its thread for the team: each order as it is now (status,
 * service, link, quantity, start count, remains, the provider's order id, charge and refunds), with
 * a link to it in the team's order list.
 */
export function TicketOrders({ orders }: { orders: TicketOrderView[] }) {
  const { t, i18n } = useTranslation('admin-support');
  const base = useAdminBase();
  if (!orders.length) return null;
  const n = (v: number | null) => (v === null ? dash : formatNumber(v, i18n.language));
  return (
    <details open={orders.length <= 3} className="group mt-3 rounded-xl border border-slate-200" data-testid="ticket-orders">
      <summary className="cursor-pointer select-none rounded-xl px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50">
        {t('orders.title', { count: orders.length })}
      </summary>
      <ul className="space-y-2 p-3 pt-1">
        {orders.map((o) => (
          <li key={o.id} className="rounded-lg bg-slate-50 p-3 text-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <Link
                to={`${base}/orders?q=${encodeURIComponent(o.number)}`}
                className="inline-flex items-center gap-1 font-mono font-semibold text-brand-700 hover:underline"
                aria-label={t('orders.open', { number: o.number })}
              >
                {o.number}
                <ExternalLink className="size-3.5" aria-hidden="true" />
              </Link>
              <span className="rounded-full bg-white px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-200">{t(`admin:status.${o.status}`)}</span>
            </div>
            <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs sm:grid-cols-[auto_minmax(0,1fr)_auto_minmax(0,1fr)]">
              <dt className="text-slate-500">{t('orders.service')}</dt>
              <dd className="min-w-0 break-words text-slate-800 sm:col-span-3">
                {o.serviceName} <span className="text-slate-500">#{o.serviceId}</span>
              </dd>
              <dt className="text-slate-500">{t('orders.link')}</dt>
              <dd className="min-w-0 break-all text-slate-800 sm:col-span-3">
                <a href={o.link} target="_blank" rel="noopener noreferrer nofollow" className="text-brand-700 hover:underline">
                  {o.link}
                </a>
              </dd>
              <dt className="text-slate-500">{t('orders.quantity')}</dt>
              <dd className="text-slate-800">{n(o.quantity)}</dd>
              <dt className="text-slate-500">{t('orders.startCount')}</dt>
              <dd className="text-slate-800">{n(o.startCount)}</dd>
              <dt className="text-slate-500">{t('orders.remains')}</dt>
              <dd className="text-slate-800">{n(o.remains)}</dd>
              <dt className="text-slate-500">{t('orders.providerOrderId')}</dt>
              <dd className="break-all font-mono text-slate-800">{o.providerOrderId ?? dash}</dd>
              <dt className="text-slate-500">{t('orders.charge')}</dt>
              <dd className="text-slate-800">{formatMoney(o.chargeMicros, 'USD', i18n.language)}</dd>
              <dt className="text-slate-500">{t('orders.refunded')}</dt>
              <dd className="text-slate-800">{o.refundedMicros ? formatMoney(o.refundedMicros, 'USD', i18n.language) : dash}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </details>
  );
}
