import { CreditCard, FileCheck2, Flag, RefreshCw, Undo2 } from 'lucide-react';
import { useState } from 'react';
import type { ADMIN_PAYMENT_STATUS_FILTERS } from '../../../core/contracts/admin';
import type { TFunction } from '../../i18n';
import { useTranslation } from '../../i18n';
import { Badge, type BadgeTone } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { useLanguage } from '../../lib/language';
import { formatDateTime, formatMoney } from '../../lib/format';
import { useCan } from './access';
import { useRefundPayment, useReversePayment, useReviewTransfer, type AdminPayment } from './api';
import { FormAlert, FormDialog } from './dialogs';
import { errorText } from '../../lib/errorText';
import { notify, notifyError } from './format';
import { CardsOrTable, ReasonField, reasonError, Table, td, Th, Toggle } from './ui';

/** Payments as the team sees them (the payments page, a customer's history on the users page), booking a chargeback, and a refund to the card. */

const STATUS_TONE: Record<(typeof ADMIN_PAYMENT_STATUS_FILTERS)[number], BadgeTone> = {
  pending: 'warning',
  completed: 'success',
  failed: 'danger',
  cancelled: 'neutral',
  reversed: 'danger',
};

/** A payment's status as a badge: a completed top-up the bank took back reads "reversed", one given back to the card "refunded". */
export function PaymentStatusBadge({ payment }: { payment: AdminPayment }) {
  const { t } = useTranslation('admin');
  if (payment.refund?.status === 'completed') return <Badge tone="neutral">{t('payments.status.refunded')}</Badge>;
  if (payment.refund?.status === 'partial') return <Badge tone="warning">{t('payments.status.refundedPartly')}</Badge>;
  const status = payment.reversal ? 'reversed' : payment.status;
  return <Badge tone={STATUS_TONE[status]}>{t(`payments.status.${status}`)}</Badge>;
}

/** The gateway's code and what it means, in the admin's language (the customer's failure reasons). */
function gatewayText(t: TFunction, p: AdminPayment): string {
  const reason = p.failureReason ? t(`payments:error.reasons.${p.failureReason}`, { message: p.gatewayMessage ?? '—' }) : p.gatewayMessage;
  return [p.gatewayCode, reason].filter(Boolean).join(' · ') || '—';
}

/** Whether the team may book a chargeback of it: a completed top-up not yet reversed, nor refunded to the card. */
const reversible = (p: AdminPayment) => p.status === 'completed' && p.type === 'balance_topup' && !p.reversal && !p.refund;

/** Payments as cards on phones and a table on wider screens; also a customer's history on the users page. */
export function PaymentsTable({
  payments,
  onReverse,
  onReview,
  onRefund,
}: {
  payments: AdminPayment[];
  onReverse?: (p: AdminPayment) => void;
  onReview?: (p: AdminPayment) => void;
  /** Opens the refund dialog: for a top-up whose method refunds, or to ask again about a pending refund. */
  onRefund?: (p: AdminPayment) => void;
}) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const allowed = useCan();
  const canReverse = !!onReverse && allowed('payments:manage');
  const canReview = !!onReview && allowed('payments:manage');
  const canRefund = !!onRefund && allowed('payments:manage');
  const refundButton = (p: AdminPayment) =>
    !canRefund ? null : p.refundable ? (
      <Button size="sm" variant="outline" onClick={() => onRefund!(p)} aria-label={t('payments.refundFor', { reference: p.reference })} data-testid="refund-payment">
        <CreditCard className="size-4" aria-hidden="true" />
        {t('payments.refund')}
      </Button>
    ) : p.refund?.status === 'pending' ? (
      <Button size="sm" variant="outline" onClick={() => onRefund!(p)} aria-label={t('payments.refundCheckFor', { reference: p.reference })} data-testid="refund-check">
        <RefreshCw className="size-4" aria-hidden="true" />
        {t('payments.refundCheck')}
      </Button>
    ) : null;
  const reverseButton = (p: AdminPayment) =>
    canReverse && reversible(p) ? (
      <Button size="sm" variant="outline" onClick={() => onReverse!(p)} aria-label={t('payments.reverseFor', { reference: p.reference })}>
        <Undo2 className="size-4" aria-hidden="true" />
        {t('payments.reverse')}
      </Button>
    ) : canReview && p.kind === 'bank' && p.status === 'pending' && p.receipt ? (
      <Button size="sm" onClick={() => onReview!(p)} aria-label={t('payments.reviewFor', { reference: p.reference })} data-testid="review-transfer">
        <FileCheck2 className="size-4" aria-hidden="true" />
        {t('payments.review')}
      </Button>
    ) : null;
  const actions = (p: AdminPayment) => {
    const reverse = reverseButton(p);
    const refund = refundButton(p);
    return reverse && refund ? (
      <div className="flex flex-wrap justify-end gap-2">
        {refund}
        {reverse}
      </div>
    ) : (
      (refund ?? reverse)
    );
  };
  const transfer = (p: AdminPayment) =>
    p.kind === 'bank' ? (
      <p className="text-xs text-slate-700" data-testid="payment-transfer">
        {p.receipt ? (
          <a className="font-medium text-brand-700 underline" href={receiptHref(p)} target="_blank" rel="noreferrer">
            {t('payments.receipt')}
          </a>
        ) : (
          t('payments.noReceipt')
        )}
        {p.review ? ` · ${t('payments.reviewedBy', { when: formatDateTime(p.review.at, lang), who: p.review.byEmail ?? '—' })}${p.review.note ? `: ${p.review.note}` : ''}` : null}
      </p>
    ) : null;
  const flag = (p: AdminPayment) =>
    p.flagged ? (
      <p className="flex items-start gap-1 text-xs text-amber-800" data-testid="payment-flag">
        <Flag className="mt-0.5 size-3 shrink-0" aria-hidden="true" />
        <span>
          {t('payments.flagged')}
          {p.refund?.status === 'partial' ? `: ${t('payments.partialRefundFlag')}` : p.flagReason ? `: ${p.flagReason}` : ''}
        </span>
      </p>
    ) : null;
  const reversal = (p: AdminPayment) =>
    p.reversal ? (
      <p className="text-xs text-rose-800" data-testid="payment-reversal">
        {t('payments.reversedBy', { when: formatDateTime(p.reversal.at, lang), who: p.reversal.byEmail ?? '—' })}: {p.reversal.reason}
      </p>
    ) : null;

  const refund = (p: AdminPayment) =>
    p.refund ? (
      <p className={`text-xs ${p.refund.status === 'failed' ? 'text-rose-800' : p.refund.status === 'partial' ? 'text-amber-800' : 'text-slate-700'}`} data-testid="payment-refund" data-refund={p.refund.status}>
        {t(`payments.refundState.${p.refund.status}`, { when: formatDateTime(p.refund.at ?? p.refund.requestedAt, lang), who: p.refund.byEmail ?? '—' })}: {p.refund.reason}
        {p.refund.status === 'partial' ? (
          <span className="block" data-testid="payment-refund-partial">
            {p.refund.refundedMinor === null
              ? t('payments.partialRefundUnknown')
              : t('payments.partialRefundAmounts', {
                  refunded: formatMoney(p.refund.refundedMinor, p.currency, lang),
                  paid: formatMoney(p.amountMinor, p.currency, lang),
                  kept: formatMoney(p.refund.keptMicros ?? 0, 'USD', lang),
                })}
          </span>
        ) : null}
        {p.refund.error && p.refund.status !== 'completed' ? <span className="block">{t('payments.refundError', { error: p.refund.error })}</span> : null}
      </p>
    ) : null;

  return (
    <CardsOrTable
      cards={payments.map((p) => (
        <li key={p.id} className="space-y-1.5 px-4 py-4" data-testid="payment-card" data-reference={p.reference}>
          <div className="flex items-center justify-between gap-3">
            <span className="min-w-0 truncate text-sm font-medium text-slate-900">{p.email}</span>
            <PaymentStatusBadge payment={p} />
          </div>
          <div className="flex items-center justify-between gap-3 text-xs text-slate-600">
            <span>{formatDateTime(p.createdAt, lang)}</span>
            <span className="text-right">
              <span className="block text-sm font-semibold tabular-nums text-slate-900">{formatMoney(p.amountUsdMicros, 'USD', lang)}</span>
              <span className="tabular-nums">{formatMoney(p.amountMinor, p.currency, lang)}</span>
            </span>
          </div>
          <p className="break-words text-xs text-slate-600">
            {p.method} · {gatewayText(t, p)}
          </p>
          {flag(p)}
          {reversal(p)}
          {refund(p)}
          {transfer(p)}
          {actions(p)}
        </li>
      ))}
    >
      <Table
        label={t('payments.title')}
        minWidth="min-w-[1040px]"
        head={
          <>
            <Th>{t('payments.date')}</Th>
            <Th>{t('payments.customer')}</Th>
            <Th className="text-right">{t('payments.amount')}</Th>
            <Th>{t('payments.method')}</Th>
            <Th>{t('payments.statusFilter')}</Th>
            <Th>{t('payments.gateway')}</Th>
            <Th>{t('payments.flagAndReversal')}</Th>
            <Th>
              <span className="sr-only">{t('common.actions')}</span>
            </Th>
          </>
        }
      >
        {payments.map((p) => (
          <tr key={p.id} data-testid="payment-row" data-reference={p.reference}>
            <td className={`${td} whitespace-nowrap text-xs`}>{formatDateTime(p.createdAt, lang)}</td>
            <td className={`${td} max-w-56 truncate`} title={p.email}>
              {p.email}
            </td>
            <td className={`${td} whitespace-nowrap text-right tabular-nums`}>
              <span className="block font-medium text-slate-900">{formatMoney(p.amountUsdMicros, 'USD', lang)}</span>
              <span className="text-xs text-slate-500">{formatMoney(p.amountMinor, p.currency, lang)}</span>
            </td>
            <td className={`${td} whitespace-nowrap`}>{p.method}</td>
            <td className={`${td} whitespace-nowrap`}>
              <PaymentStatusBadge payment={p} />
            </td>
            <td className={`${td} max-w-56 break-words text-xs`}>{gatewayText(t, p)}</td>
            <td className={`${td} max-w-64 space-y-1`}>
              {flag(p)}
              {reversal(p)}
              {refund(p)}
              {transfer(p)}
              {!p.flagged && !p.reversal && !p.refund && p.kind !== 'bank' ? '—' : null}
            </td>
            <td className={`${td} whitespace-nowrap text-right`}>{actions(p)}</td>
          </tr>
        ))}
      </Table>
    </CardsOrTable>
  );
}

/** Where the team opens a transfer's receipt (served by the admin API to the team only). */
const receiptHref = (p: AdminPayment) => `/api/admin/payments/${encodeURIComponent(p.id)}/receipt`;

/**
 * The team's review of a bank transfer (docs/rules.md#bank-transfers): the receipt beside the
 * amount and reference, then approve (credits the balance once) or reject with the reason the
 * customer is told.
 */
export function ReviewDialog({ payment, onClose }: { payment: AdminPayment; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const review = useReviewTransfer();
  const error = tried ? reasonError(t, reason) : undefined;
  const send = (approve: boolean) => {
    if (!approve) {
      setTried(true);
      if (reasonError(t, reason)) return;
    }
    review.mutate(
      { paymentId: payment.id, review: approve ? { approve: true } : { approve: false, reason: reason.trim() } },
      {
        onSuccess: () => {
          notify.success(approve ? t('payments.approved') : t('payments.rejected'));
          onClose();
        },
        onError: (err) => notifyError(t, 'payments.notReviewed', err),
      },
    );
  };
  return (
    <FormDialog
      title={t('payments.reviewTitle')}
      description={t('payments.reviewText', { email: payment.email, amount: formatMoney(payment.amountUsdMicros, 'USD', lang), paid: formatMoney(payment.amountMinor, payment.currency, lang), reference: payment.reference })}
      onClose={onClose}
      onSubmit={() => send(!rejecting)}
      pending={review.isPending}
      submitLabel={rejecting ? t('payments.reject') : t('payments.approve')}
      className="sm:max-w-2xl"
    >
      {payment.receipt?.contentType.startsWith('image/') ? (
        <img src={receiptHref(payment)} alt={t('payments.receipt')} className="max-h-96 w-full rounded-xl border border-slate-200 object-contain" />
      ) : null}
      <a className="text-sm font-medium text-brand-700 underline" href={receiptHref(payment)} target="_blank" rel="noreferrer">
        {t('payments.openReceipt')}
      </a>
      <Toggle label={t('payments.rejectToggle')} checked={rejecting} onChange={setRejecting} />
      {rejecting ? <ReasonField value={reason} onChange={setReason} error={error} /> : null}
    </FormDialog>
  );
}

/** Books a chargeback: the reason is required; the balance may go below zero (docs/decisions/0019). */
export function ReversalDialog({ payment, onClose }: { payment: AdminPayment; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const reverse = useReversePayment();
  const error = tried ? reasonError(t, reason) : undefined;
  const submit = () => {
    setTried(true);
    if (reasonError(t, reason)) return;
    reverse.mutate(
      { paymentId: payment.id, reason: reason.trim() },
      {
        onSuccess: (r) => {
          notify.success(t('payments.reversed'), t('users.newBalance', { balance: formatMoney(r.balanceMicros, 'USD', lang) }));
          onClose();
        },
        onError: (err) => notifyError(t, 'payments.notReversed', err),
      },
    );
  };
  return (
    <FormDialog
      title={t('payments.reverseTitle')}
      description={t('payments.reverseText', { email: payment.email, amount: formatMoney(payment.amountUsdMicros, 'USD', lang) })}
      onClose={onClose}
      onSubmit={submit}
      pending={reverse.isPending}
      submitLabel={t('payments.reverseSubmit')}
    >
      <ReasonField value={reason} onChange={setReason} error={error} />
    </FormDialog>
  );
}

/**
 * Refunds a top-up to the card (docs/rules.md#top-up-refunds): the reason is required; the balance
 * pays first, then the gateway gives the whole charge back. Asked again for a pending refund, the
 * server asks the gateway whether the money went back before doing anything.
 */
export function RefundDialog({ payment, onClose }: { payment: AdminPayment; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [reason, setReason] = useState(payment.refund?.reason ?? '');
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const refund = useRefundPayment();
  const error = tried ? reasonError(t, reason) : undefined;
  const submit = () => {
    setTried(true);
    if (reasonError(t, reason)) return;
    setFailure(null);
    refund.mutate(
      { paymentId: payment.id, reason: reason.trim() },
      {
        onSuccess: (r) => {
          if (r.refundStatus === 'completed') notify.success(t('payments.refunded'), r.balanceMicros === null ? undefined : t('users.newBalance', { balance: formatMoney(r.balanceMicros, 'USD', lang) }));
          else if (r.refundStatus === 'partial') notify.error(t('payments.status.refundedPartly'), t('payments.partialRefundFlag'));
          else notify.success(t('payments.refundWaiting'));
          onClose();
        },
        onError: (err) => {
          setFailure(errorText(t, err, 'admin'));
          notifyError(t, 'payments.notRefunded', err);
        },
      },
    );
  };
  return (
    <FormDialog
      title={t('payments.refundTitle')}
      description={t('payments.refundText', { email: payment.email, amount: formatMoney(payment.amountUsdMicros, 'USD', lang), paid: formatMoney(payment.amountMinor, payment.currency, lang) })}
      onClose={onClose}
      onSubmit={submit}
      pending={refund.isPending}
      submitLabel={payment.refund?.status === 'pending' ? t('payments.refundCheck') : t('payments.refundSubmit')}
    >
      <ReasonField value={reason} onChange={setReason} error={error} />
      <FormAlert>{failure ? `${t('payments.notRefunded')}: ${failure}` : null}</FormAlert>
    </FormDialog>
  );
}
