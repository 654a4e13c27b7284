import { Receipt } from 'lucide-react';
import { useTranslation } from '../../i18n';
import type { PaymentView } from '../../../core/contracts/payments';
import { Badge, type BadgeTone } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { EmptyBox, LoadErrorBox, LoadingBox } from '../../components/ui/QueryState';
import { WideTable } from '../../components/ui/Table';
import { usePayments } from './api';
import { formatDateTime, formatMoney } from '../../lib/format';
import { errorText } from '../../lib/errorText';

const STATUS_TONE: Record<PaymentView['status'], BadgeTone> = {
  completed: 'success',
  pending: 'warning',
  failed: 'danger',
  cancelled: 'neutral',
};

const PROVIDER_NAMES: Record<string, string> = { epoint: 'Epoint', sandbox: 'Sandbox' };

/** The customer's own payments, newest first, at most 50 (docs/rules.md#payments). */
export function PaymentsTab({ locale, onTopUp }: { locale: string; onTopUp: () => void }) {
  const { t } = useTranslation('payments');
  const payments = usePayments();

  if (payments.isPending) {
    return <LoadingBox label={t('list.loading')} spinnerClassName="size-8" />;
  }
  if (payments.isError) {
    return (
      <LoadErrorBox title={t('list.failed')} detail={errorText(t, payments.error, 'payments')} retryLabel={t('list.retry')} onRetry={() => void payments.refetch()} />
    );
  }
  const list = payments.data;
  if (list.length === 0) {
    return (
      <EmptyBox icon={Receipt} title={t('list.empty')} text={t('list.emptyText')}>
        <Button size="sm" onClick={onTopUp}>
          {t('list.topUp')}
        </Button>
      </EmptyBox>
    );
  }

  const amount = (p: PaymentView) => (
    <>
      <span className="font-semibold text-slate-900">{formatMoney(p.amountUsdMicros, 'USD', locale)}</span>
      <span className="block text-xs text-slate-500">{formatMoney(p.amountMinor, p.currency, locale)}</span>
      {p.bonusMicros + p.couponMicros > 0 ? (
        <span className="block text-xs font-medium text-emerald-700">{t('list.bonus', { amount: formatMoney(p.bonusMicros + p.couponMicros, 'USD', locale) })}</span>
      ) : null}
    </>
  );
  // A top-up the bank took back reads "reversed" (docs/decisions/0019); one the team gave back to
  // the card "refunded", "refund pending" while the gateway has not confirmed it, or "partly refunded"
  // when the card got only part of it back (docs/rules.md#top-up-refunds).
  const refundBadge = { completed: ['neutral', 'refunded'], pending: ['warning', 'refunding'], partial: ['warning', 'refundedPartly'] } as const;
  const status = (p: PaymentView) =>
    p.refundStatus === 'completed' || p.refundStatus === 'pending' || p.refundStatus === 'partial' ? (
      <Badge tone={refundBadge[p.refundStatus][0]} data-status={refundBadge[p.refundStatus][1]} className="shrink-0 whitespace-nowrap">
        {t(`status.${refundBadge[p.refundStatus][1]}`)}
      </Badge>
    ) : p.reversedAt ? (
      <Badge tone="danger" data-status="reversed" className="shrink-0 whitespace-nowrap">
        {t('status.reversed')}
      </Badge>
    ) : (
      <Badge tone={STATUS_TONE[p.status]} data-status={p.status} className="shrink-0 whitespace-nowrap">
        {t(`status.${p.status}`)}
      </Badge>
    );
  const provider = (p: PaymentView) => PROVIDER_NAMES[p.provider] ?? p.provider;
  const transaction = (p: PaymentView) => <span className="break-all font-mono text-xs text-slate-600">{p.transactionId ?? '—'}</span>;

  return (
    <div data-testid="payment-history">
      <WideTable
        caption={t('list.caption')}
        columns={[
          { label: t('list.date') },
          { label: t('list.type') },
          { label: t('list.amount'), className: 'text-right' },
          { label: t('list.status') },
          { label: t('list.provider') },
          { label: t('list.transaction') },
        ]}
      >
        {list.map((p) => (
          <tr key={p.id} data-payment={p.reference} className="align-top">
            <td className="whitespace-nowrap px-4 py-3 text-slate-600">{formatDateTime(p.createdAt, locale)}</td>
            <td className="px-4 py-3 text-slate-900">{t(`type.${p.type}`)}</td>
            <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">{amount(p)}</td>
            <td className="px-4 py-3">{status(p)}</td>
            <td className="px-4 py-3 text-slate-700">{provider(p)}</td>
            <td className="max-w-56 px-4 py-3">{transaction(p)}</td>
          </tr>
        ))}
      </WideTable>
      <ul className="space-y-3 md:hidden">
        {list.map((p) => (
          <li key={p.id} data-payment={p.reference} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <div className="flex items-start justify-between gap-3">
              <div>
                <p className="font-semibold text-slate-900">{t(`type.${p.type}`)}</p>
                <p className="mt-0.5 text-xs text-slate-500">{formatDateTime(p.createdAt, locale)}</p>
              </div>
              {status(p)}
            </div>
            <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-xs text-slate-500">{t('list.amount')}</dt>
                <dd className="tabular-nums">{amount(p)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">{t('list.provider')}</dt>
                <dd>{provider(p)}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-xs text-slate-500">{t('list.transaction')}</dt>
                <dd>{transaction(p)}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </div>
  );
}
