import { LayoutDashboard, LifeBuoy, XCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { island } from '../../islands/island';
import { useSearchParams } from 'react-router';
import type { PageMeta } from '../../app/page';
import { ButtonLink } from '../../components/ui/Button';
import { useLanguage } from '../../lib/language';
import { checkPaymentStatus } from './check';
import { ResultCard } from './ResultCard';
import { isTopUpReference } from '../../../core/contracts/paymentReference';

export const ns = ['payments'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('payments:error.title')} · ${site.site_name}` });

/** The longest error text taken from the address; the rest is cut off. */
const ERROR_MAX = 300;
/** How often, and how far apart, the page asks the server why the payment failed. */
const REASON_ATTEMPTS = 3;
const REASON_INTERVAL_MS = 1500;

/**
 * /payment-error?order=…&error=…: the payment did not go through. The error from the address is
 * shown as plain text; nothing was credited.
 */
export function PaymentErrorView() {
  const { t } = useTranslation('payments');
  const lang = useLanguage();
  const [params] = useSearchParams();
  const reference = (params.get('order') ?? '').trim();
  const given = (params.get('error') ?? '').trim().slice(0, ERROR_MAX);
  // Gateways return here without a reason: the server knows it once the payment is settled.
  const [known, setKnown] = useState<{ state: 'checking' | 'done'; text: string }>({ state: given || !reference ? 'done' : 'checking', text: '' });
  useEffect(() => {
    if (given || !reference) return;
    let live = true;
    void (async () => {
      let text = '';
      // The gateway's callback may arrive a moment after the visitor: ask a few times.
      for (let attempt = 0; attempt < REASON_ATTEMPTS && live && !text; attempt++) {
        if (attempt > 0) await new Promise((ok) => setTimeout(ok, REASON_INTERVAL_MS));
        try {
          const payment = await checkPaymentStatus(reference);
          if (payment.reason) text = payment.reason === 'other' ? (payment.gatewayMessage ? t('error.reasons.other', { message: payment.gatewayMessage }) : '') : t(`error.reasons.${payment.reason}`);
          if (payment.status === 'completed' || payment.reason) break;
        } catch {
          break;
        }
      }
      if (live) setKnown({ state: 'done', text: text.slice(0, ERROR_MAX) });
    })();
    return () => {
      live = false;
    };
  }, [given, reference, t]);
  const error = given || known.text;

  return (
    <main id="main" className="flex flex-1 items-center justify-center bg-slate-50 px-4 py-12 sm:py-20">
      <ResultCard
        tone="danger"
        icon={<XCircle className="size-9" aria-hidden="true" />}
        title={t('error.title')}
        testId="payment-error"
        status="error"
        details={[
          { label: t(!reference || isTopUpReference(reference) ? 'result.topUp' : 'result.order'), value: reference || '—' },
          ...(error ? [{ label: t('error.reason'), value: error, plain: true }] : []),
          ...(known.state === 'checking' ? [{ label: t('error.reason'), value: t('error.reasons.checking'), plain: true }] : []),
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
    </main>
  );
}

const PaymentErrorViewIsland = island('PaymentError', PaymentErrorView);

/** The page is static around its one island, which holds all of it that changes. */
export default function PaymentErrorPage() {
  return <PaymentErrorViewIsland />;
}

export const islands = true;
/** What its islands read besides `common`: the rest of the page's text is in its HTML. */
export const islandNs = ['payments'];
