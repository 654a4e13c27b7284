import { LayoutDashboard, LifeBuoy, XCircle } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { useSearchParams } from 'react-router';
import type { PageMeta, PageStream } from '../../app/page';
import { ButtonLink } from '../../components/ui/Button';
import { useLanguage } from '../../lib/language';
import { checkPaymentStatus } from './check';
import { ResultCard } from './ResultCard';
import { ReturnPageMain, returnPageLoader } from './returnPage';
import { isTopUpReference } from '../../../core/contracts/paymentReference';

export const ns = ['payments'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('payments:error.title')} · ${site.site_name}` });

/** The longest error text taken from the address; the rest is cut off. */
const ERROR_MAX = 300;
/** How often, and how far apart, the page asks the server why the payment failed. */
const REASON_ATTEMPTS = 3;
const REASON_INTERVAL_MS = 1500;

/** What the address says: the payment's reference and the gateway's error, as plain text, cut to ERROR_MAX. */
const addressed = (params: URLSearchParams) => ({ reference: (params.get('order') ?? '').trim(), given: (params.get('error') ?? '').trim().slice(0, ERROR_MAX) });

/**
 * /payment-error?order=…&error=…: the payment did not go through. The error from the address is
 * shown as plain text; nothing was credited. Gateways return here without a reason: the server,
 * which knows it once the payment is settled, is asked while it writes the page
 * (docs/decisions/0035), and the reason follows in the same answer.
 */
export function PaymentErrorView({ reference, error, checking }: { reference: string; error: string; checking: boolean }) {
  const { t } = useTranslation('payments');
  const lang = useLanguage();
  return (
    <ResultCard
      tone="danger"
      live={false}
      icon={<XCircle className="size-9" aria-hidden="true" />}
      title={t('error.title')}
      testId="payment-error"
      status={checking ? 'checking' : 'error'}
      details={[
        { label: t(!reference || isTopUpReference(reference) ? 'result.topUp' : 'result.order'), value: reference || '—' },
        ...(error ? [{ label: t('error.reason'), value: error, plain: true }] : []),
        ...(checking ? [{ label: t('error.reason'), value: t('error.reasons.checking'), plain: true }] : []),
      ]}
      actions={
        <>
          <ButtonLink to={`/${lang}/dashboard?payment=error`} className="w-full sm:w-auto">
            <LayoutDashboard className="size-4" aria-hidden="true" />
            {t('result.dashboard')}
          </ButtonLink>
          <ButtonLink to={`/${lang}/contact`} variant="outline" className="w-full sm:w-auto">
            <LifeBuoy className="size-4" aria-hidden="true" />
            {t('error.support')}
          </ButtonLink>
        </>
      }
    >
      <p>{t('error.text')}</p>
    </ResultCard>
  );
}

export const loader = returnPageLoader;

export default function PaymentErrorPage() {
  const [params] = useSearchParams();
  const { reference, given } = addressed(params);
  return (
    <ReturnPageMain>
      <PaymentErrorView reference={reference} error={given} checking={!given && Boolean(reference)} />
    </ReturnPageMain>
  );
}

/**
 * The reason, when the address gave none: the gateway's callback may arrive a moment after the
 * visitor, so the server is asked a few times, 1.5 s apart, until it knows the reason or the payment
 * turns out completed.
 */
export const stream: PageStream = async function* (args) {
  const { reference, given } = addressed(args.url.searchParams);
  if (given || !reference) return;
  let text = '';
  for (let attempt = 0; attempt < REASON_ATTEMPTS && !text; attempt++) {
    if (attempt > 0) await new Promise((ok) => setTimeout(ok, REASON_INTERVAL_MS));
    try {
      const payment = await checkPaymentStatus(reference, args.fetch);
      if (payment.reason)
        text =
          payment.reason === 'other'
            ? payment.gatewayMessage
              ? args.t('payments:error.reasons.other', { message: payment.gatewayMessage })
              : ''
            : args.t(`payments:error.reasons.${payment.reason}`);
      if (payment.status === 'completed' || payment.reason) break;
    } catch {
      break;
    }
  }
  yield <PaymentErrorView reference={reference} error={text.slice(0, ERROR_MAX)} checking={false} />;
};

export const islands = true;
