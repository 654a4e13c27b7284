import { CheckCircle2, XCircle } from 'lucide-react';
import type { TicketOrderOutcome } from '../../../core/contracts/support';
import { isFinalStatus } from '../../../core/orderStatus';
import { useTranslation, type TFunction } from '../../i18n';

/** Why an order's request was refused, in the reader's language: the refusal's reason code, else its error code. */
function reasonText(t: TFunction, x: TicketOrderOutcome): string {
  const options = { hours: x.hours, message: x.message ?? '', defaultValue: '' };
  return (
    (x.reason && x.code && t(`common:errors.reasons.${x.code}.${x.reason}`, options)) ||
    (x.code && t(`common:errors.${x.code}`, { defaultValue: '' })) ||
    t('common:errors.generic')
  );
}

/**
 * The shop's answer to a refill or cancel request: one line per order, worded in the reader's
 * language from the outcome's codes (docs/rules.md#support).
 */
export function Outcomes({ outcomes }: { outcomes: TicketOrderOutcome[] }) {
  const { t } = useTranslation('support');
  return (
    <div>
      <p className="font-semibold">{t('outcome.title')}</p>
      <ul className="mt-1.5 space-y-1.5" data-testid="ticket-outcomes">
        {outcomes.map((x) => {
          const done = x.result === 'done';
          const Icon = done ? CheckCircle2 : XCircle;
          const text = done
            ? t(x.action === 'refill' ? 'outcome.refillDone' : x.status && isFinalStatus(x.status) ? 'outcome.cancelDone' : 'outcome.cancelRequested', { number: x.number })
            : t(x.action === 'refill' ? 'outcome.refillRefused' : 'outcome.cancelRefused', { number: x.number, reason: reasonText(t, x) });
          return (
            <li key={`${x.action}-${x.number}`} className="flex items-start gap-2" data-result={x.result}>
              <Icon className={done ? 'mt-0.5 size-4 shrink-0 text-emerald-600' : 'mt-0.5 size-4 shrink-0 text-rose-600'} aria-hidden="true" />
              <span>
                <span className="sr-only">{t(done ? 'outcome.done' : 'outcome.refused')}: </span>
                {text}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
