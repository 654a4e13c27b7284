import { CheckCircle2, Clock, LayoutDashboard, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { island } from '../../islands/island';
import { useSearchParams } from 'react-router';
import type { PageMeta } from '../../app/page';
import { ButtonLink } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { useLanguage } from '../../lib/language';
import { useMe } from '../auth';
import { ApiError } from '../../lib/api';
import { checkPayment, checkPaymentStatus } from './check';
import { ResultCard } from './ResultCard';
import { isTopUpReference } from '../../../core/contracts/paymentReference';
import { errorText } from '../../lib/errorText';

export const ns = ['payments'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('payments:success.title')} · ${site.site_name}` });

/** Payment verification (docs/rules.md#payments): at most 3 attempts, 3 seconds apart. */
export const VERIFY_ATTEMPTS = 3;
export const VERIFY_INTERVAL_MS = 3000;
/** Each attempt stays on screen at least this long, the last one too, so "3/3" can be read. */
export const ATTEMPT_VISIBLE_MS = 1500;

type State = { phase: 'verifying'; attempt: number } | { phase: 'completed'; transactionId: string | null } | { phase: 'accepted'; transactionId: string | null; note?: string };

/**
 * /payment-success?order=…&transaction_id=…: asks the server what it knows about the payment
 * (the server asks the gateway; only its settlement credits). Completed → "balance updated";
 * anything else after the attempts → "accepted, the balance updates within 1–2 minutes".
 */
export function PaymentSuccessView() {
  const { t } = useTranslation('payments');
  const lang = useLanguage();
  const [params] = useSearchParams();
  const reference = (params.get('order') ?? '').trim();
  const queryTransaction = params.get('transaction_id');
  const me = useMe();
  const signedIn = Boolean(me.data);
  const [state, setState] = useState<State>({ phase: 'verifying', attempt: 1 });

  useEffect(() => {
    if (me.isPending) return;
    // Nothing to check without a reference: the accepted message.
    if (!reference) {
      setState({ phase: 'accepted', transactionId: queryTransaction });
      return;
    }
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wait = (ms: number) => new Promise<void>((ok) => (timer = setTimeout(ok, ms)));
    const run = async (attempt: number) => {
      setState({ phase: 'verifying', attempt });
      const shownAt = Date.now();
      let note: string | undefined;
      let transactionId = queryTransaction;
      let completed = false;
      try {
        // Signed out (paid on another device, or the session ended meanwhile): the payment's state by its reference.
        const payment = signedIn ? await checkPayment(reference) : await checkPaymentStatus(reference);
        transactionId = payment.transactionId ?? queryTransaction;
        completed = payment.status === 'completed';
        // A gateway with one return address (Payriff) sends a declined payment here too: the
        // error page says why.
        if (payment.status === 'failed' || payment.status === 'cancelled') {
          window.location.replace(`/payment-error?order=${encodeURIComponent(reference)}`);
          return;
        }
      } catch (err) {
        if (err instanceof ApiError && err.code === 'PAYMENT_NOT_FOUND') note = errorText(t, err, 'payments');
      }
      if (!live) return;
      await wait(Math.max(0, ATTEMPT_VISIBLE_MS - (Date.now() - shownAt)));
      if (!live) return;
      if (completed) setState({ phase: 'completed', transactionId });
      else if (attempt >= VERIFY_ATTEMPTS) setState({ phase: 'accepted', transactionId, note });
      else {
        await wait(Math.max(0, VERIFY_INTERVAL_MS - (Date.now() - shownAt)));
        if (live) void run(attempt + 1);
      }
    };
    void run(1);
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [me.isPending, signedIn, reference, queryTransaction, t]);

  const transactionId = state.phase === 'verifying' ? queryTransaction : state.transactionId;
  // A top-up's reference is a payment number; anything else names an order.
  const topUp = !reference || isTopUpReference(reference);
  const details = [
    { key: topUp ? 'topUp' : 'order', value: reference || '—' },
    { key: 'transaction', value: transactionId || '—' },
  ];
  const showTrack = !topUp;

  return (
    <main id="main" className="flex flex-1 items-center justify-center bg-slate-50 px-4 py-12 sm:py-20">
      <ResultCard
        tone={state.phase === 'completed' ? 'success' : state.phase === 'accepted' ? 'info' : 'neutral'}
        icon={
          state.phase === 'verifying' ? (
            <Spinner className="size-9" />
          ) : state.phase === 'completed' ? (
            <CheckCircle2 className="size-9" aria-hidden="true" />
          ) : (
            <Clock className="size-9" aria-hidden="true" />
          )
        }
        title={state.phase === 'verifying' ? t('success.verifying') : state.phase === 'completed' ? t('success.completedTitle') : t('success.acceptedTitle')}
        testId="payment-success"
        status={state.phase}
        details={details.map((d) => ({ label: t(`result.${d.key}`), value: d.value }))}
        actions={
          <>
            <ButtonLink to={`/${lang}/dashboard?payment=success`} className="w-full sm:w-auto">
              <LayoutDashboard className="size-4" aria-hidden="true" />
              {t('result.dashboard')}
            </ButtonLink>
            {showTrack ? (
              <ButtonLink to={`/track?order=${encodeURIComponent(reference)}`} variant="outline" className="w-full sm:w-auto">
                <Search className="size-4" aria-hidden="true" />
                {t('result.track')}
              </ButtonLink>
            ) : null}
          </>
        }
      >
        {state.phase === 'verifying' ? (
          <p>
            {t('success.verifyingText')} <span className="font-semibold tabular-nums">{t('success.attempt', { n: state.attempt, total: VERIFY_ATTEMPTS })}</span>
          </p>
        ) : state.phase === 'completed' ? (
          <p>{t('success.completed')}</p>
        ) : (
          <>
            <p>{t('success.accepted')}</p>
            {state.note ? <p className="mt-2 text-sm text-amber-700">{state.note}</p> : null}
          </>
        )}
      </ResultCard>
    </main>
  );
}

const PaymentSuccessViewIsland = island('PaymentSuccess', PaymentSuccessView);

/** The page is static around its one island, which holds all of it that changes. */
export default function PaymentSuccessPage() {
  return <PaymentSuccessViewIsland />;
}

export const islands = true;
/** What its islands read besides `common`: the rest of the page's text is in its HTML. */
export const islandNs = ['payments'];
