import { CheckCircle2, Copy, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { TopUpResult } from '../../../core/contracts/payments';
import { useTranslation } from '../../i18n';
import { Button } from '../../components/ui/Button';
import { FieldError, Label } from '../../components/ui/Input';
import { Spinner } from '../../components/ui/Spinner';
import { api, timed } from '../../lib/api';
import { errorText } from '../../lib/errorText';
import { formatMoney } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { LOCALES } from '../../../core/i18n';
import { RECEIPT_MAX_BYTES } from '../../../core/paymentMethods';


/**
 * A bank transfer's second step (docs/rules.md#bank-transfers): the shop's account, the amount in
 * the method's currency and the reference to write on the transfer, then the receipt (an image or
 * a PDF) sent for the team to review. The balance rises once the team approves it; the payments
 * tab shows the state live.
 */
export function BankTransferStep({ transfer, onDone }: { transfer: TopUpResult; onDone: () => void }) {
  const { t } = useTranslation('payments');
  const lang = useLanguage();
  const locale = LOCALES[lang];
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [issue, setIssue] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const upload = useMutation({
    mutationFn: (receipt: File) => timed((o) => api.payments[':reference'].receipt.$post({ param: { reference: transfer.reference }, form: { receipt } }, o)),
  });

  const send = () => {
    if (!file) return setIssue(t('bank.fileRequired'));
    if (file.size > RECEIPT_MAX_BYTES) return setIssue(t('bank.fileTooLarge'));
    setIssue(null);
    upload.mutate(file);
  };

  if (upload.isSuccess) {
    return (
      <div data-testid="bank-sent" className="text-center">
        <CheckCircle2 className="mx-auto size-10 text-emerald-600" aria-hidden="true" />
        <p role="status" className="mt-3 font-semibold text-slate-900">
          {t('bank.sent')}
        </p>
        <p className="mt-1 text-sm text-slate-600">{t('bank.sentText')}</p>
        <Button className="mt-6 w-full" onClick={onDone}>
          {t('bank.done')}
        </Button>
      </div>
    );
  }

  const error = issue ?? (upload.isError ? errorText(t, upload.error, 'payments') : null);
  return (
    <div data-testid="bank-transfer">
      <dl className="divide-y divide-slate-200 rounded-xl border border-slate-200 text-sm">
        <div className="px-4 py-3">
          <dt className="text-slate-600">{t('bank.details')}</dt>
          <dd className="mt-1 whitespace-pre-wrap font-medium text-slate-900" data-testid="bank-details">
            {transfer.bankDetails || '—'}
          </dd>
        </div>
        <div className="flex items-center justify-between gap-4 px-4 py-3">
          <dt className="text-slate-600">{t('bank.amount')}</dt>
          <dd className="text-lg font-bold tabular-nums text-brand-700">{formatMoney(transfer.amountMinor, transfer.currency, locale)}</dd>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
          <dt className="text-slate-600">{t('bank.reference')}</dt>
          <dd className="flex items-center gap-2">
            <code className="rounded bg-slate-100 px-2 py-1 text-xs font-semibold text-slate-900" data-testid="bank-reference">
              {transfer.reference}
            </code>
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                void navigator.clipboard?.writeText(transfer.reference).then(() => setCopied(true), () => {});
              }}
            >
              <Copy className="size-4" aria-hidden="true" />
              {copied ? t('bank.copied') : t('bank.copy')}
            </Button>
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-sm text-slate-600">{t('bank.howTo')}</p>
      <div className="mt-4">
        <Label htmlFor={`${id}-receipt`}>{t('bank.receipt')}</Label>
        <input
          id={`${id}-receipt`}
          type="file"
          accept="image/png,image/jpeg,image/webp,application/pdf"
          aria-describedby={`${id}-hint ${id}-error`}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setIssue(null);
            upload.reset();
          }}
          className="block w-full rounded-xl border border-slate-200 px-3 py-2 text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:font-medium file:text-brand-700"
        />
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {t('bank.receiptHint')}
        </p>
        <FieldError id={`${id}-error`}>{error ?? undefined}</FieldError>
      </div>
      <Button className="mt-6 w-full" onClick={send} disabled={upload.isPending} aria-busy={upload.isPending}>
        {upload.isPending ? <Spinner className="size-5 border-white/40 border-t-white" /> : <Upload className="size-4" aria-hidden="true" />}
        {t('bank.send')}
      </Button>
    </div>
  );
}
