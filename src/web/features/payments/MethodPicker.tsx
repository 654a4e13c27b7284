import { AlertTriangle, Building2, CreditCard, RotateCw } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { PaymentMethodView } from '../../../core/contracts/payments';
import { useTranslation } from '../../i18n';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { Spinner } from '../../components/ui/Spinner';
import { useLanguage } from '../../lib/language';
import { errorText } from '../../lib/errorText';

/**
 * The top-up dialog's choice of method (docs/rules.md#payment-methods): one radio per method the
 * shop offers now, named in the page's language with the currency it charges in; a loading state,
 * a failed state with a retry, and a message when none is offered.
 */
export function MethodPicker({
  methods,
  chosen,
  onChoose,
}: {
  methods: UseQueryResult<PaymentMethodView[]>;
  chosen: string | null;
  onChoose: (kind: string) => void;
}) {
  const { t } = useTranslation('payments');
  const lang = useLanguage();

  if (methods.isPending) {
    return (
      <div className="flex min-h-16 items-center justify-center rounded-xl border border-slate-200" data-testid="topup-methods-loading">
        <Spinner label={t('topup.methodsLoading')} />
      </div>
    );
  }
  if (methods.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-2 rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-800">
        <p className="flex items-center gap-2 font-medium">
          <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
          {t('topup.methodsFailed')}
        </p>
        <p className="text-rose-700">{errorText(t, methods.error, 'payments')}</p>
        <Button variant="outline" size="sm" onClick={() => void methods.refetch()} disabled={methods.isFetching}>
          <RotateCw className={cn('size-4', methods.isFetching && 'animate-spin')} aria-hidden="true" />
          {t('topup.retry')}
        </Button>
      </div>
    );
  }
  if (methods.data.length === 0) {
    return (
      <p role="alert" className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
        {t('topup.noMethods')}
      </p>
    );
  }
  // Two columns: four methods take two rows, so the dialog stays short enough on a phone for a notice below it.
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-800">{t('topup.method')}</legend>
      <div className="grid grid-cols-2 gap-2">
        {methods.data.map((m) => {
          const active = m.kind === chosen;
          const Icon = m.kind === 'bank' ? Building2 : CreditCard;
          return (
            <label
              key={m.kind}
              className={cn(
                'flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border px-2.5 py-1.5 text-xs leading-tight transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 sm:gap-3 sm:px-3 sm:text-sm',
                active ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white hover:border-brand-300',
              )}
            >
              <input
                type="radio"
                name="topup-method"
                value={m.kind}
                checked={active}
                onChange={() => onChoose(m.kind)}
                className="size-4 accent-brand-600"
                data-testid={`topup-method-${m.kind}`}
              />
              <Icon className="hidden size-4 shrink-0 text-slate-500 sm:block" aria-hidden="true" />
              {/* On a phone the currency follows the name, which then has the card's whole width (two lines, not three). */}
              <span className="flex-1 font-medium text-slate-900">
                {m.name[lang] || m.name.en}
                <span className="ml-1 font-semibold text-slate-600 sm:hidden">{m.currency}</span>
              </span>
              <span className="hidden text-xs font-semibold text-slate-700 sm:inline">{m.currency}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
