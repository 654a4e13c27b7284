import { CheckCircle2, Clock, LayoutDashboard, Search, XCircle } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n';
import type { PageMeta, PageStream, PageStreamArgs } from '../../app/page';
import { ButtonLink } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { useLanguage } from '../../lib/language';
import { ApiError } from '../../lib/api';
import { checkPayment, checkPaymentStatus } from './check';
import { ResultCard } from './ResultCard';
import { ReturnPageMain, returnPageLoader } from './returnPage';
import { isTopUpReference } from '../../../core/contracts/paymentReference';
import { errorText } from '../../lib/errorText';

export const ns = ['payments'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('payments:success.title')} · ${site.site_name}` });

/** Payment verification (docs/rules.md#payments): at most 3 attempts, 3 seconds apart. */
export const VERIFY_ATTEMPTS = 3;
export const VERIFY_INTERVAL_MS = 3000;
/** Each attempt stays on screen at least this long, the last one too, so "3/3" can be read. */
export const ATTEMPT_VISIBLE_MS = 1500;

type State =
  | { phase: 'verifying'; attempt: number }
  | { phase: 'completed'; transactionId: string | null }
  | { phase: 'accepted'; transactionId: string | null; note?: string }
  /** The gateway declined it (a gateway with one return address sends it here too): on to the error page. */
  | { phase: 'failed' };

/** What the address names: the payment's reference (`order`) and the gateway's transaction id. */
const addressed = (params: URLSearchParams) => ({ reference: (params.get('order') ?? '').trim(), queryTransaction: params.get('transaction_id') });
const errorPage = (reference: string) => `/payment-error?order=${encodeURIComponent(reference)}`;

/**
 * /payment-success?order=…&transaction_id=…: the server asks what it knows about the payment (it
 * asks the gateway; only its settlement credits). Completed → "balance updated"; declined → the
 * error page; anything else after the attempts → "accepted, the balance updates within 1–2
 * minutes". The checks run on the server while the page is written (docs/decisions/0035): the
 * page shows "attempt 1/3" at once, and each later state as the server writes it, with no script.
 */
export function PaymentSuccessView({ state, reference, transactionId }: { state: State; reference: string; transactionId: string | null }) {
  const { t } = useTranslation('payments');
  const lang = useLanguage();
  // A top-up's reference is a payment number; anything else names an order.
  const topUp = !reference || isTopUpReference(reference);
  const details = [
    { key: topUp ? 'topUp' : 'order', value: reference || '—' },
    { key: 'transaction', value: transactionId || '—' },
  ];

  if (state.phase === 'failed') {
    const to = errorPage(reference);
    return (
      <ResultCard
        tone="danger"
        live={false}
        icon={<XCircle className="size-9" aria-hidden="true" />}
        title={t('error.title')}
        testId="payment-success"
        status="failed"
        details={details.map((d) => ({ label: t(`result.${d.key}`), value: d.value }))}
        actions={
          <ButtonLink to={to} className="w-full sm:w-auto">
            {t('error.title')}
          </ButtonLink>
        }
      >
        {/* The browser goes on to the error page at once; the link is there if it does not. */}
        <meta httpEquiv="refresh" content={`0;url=${to}`} />
        <p>{t('error.text')}</p>
      </ResultCard>
    );
  }

  return (
    <ResultCard
      tone={state.phase === 'completed' ? 'success' : state.phase === 'accepted' ? 'info' : 'neutral'}
      live={false}
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
          {!topUp ? (
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
  );
}

export const loader = returnPageLoader;

/** The first state: "attempt 1/3" (or, with no reference to check, the accepted message), where the later ones follow. */
export default function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const { reference, queryTransaction } = addressed(params);
  return (
    <ReturnPageMain>
      <PaymentSuccessView
        state={reference ? { phase: 'verifying', attempt: 1 } : { phase: 'accepted', transactionId: queryTransaction }}
        reference={reference}
        transactionId={queryTransaction}
      />
    </ReturnPageMain>
  );
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** One check, as the visitor may ask it: their own payment signed in, its state alone by its reference signed out. */
async function checkOnce(args: PageStreamArgs, reference: string) {
  try {
    const payment = args.signedIn ? await checkPayment(reference, args.fetch) : await checkPaymentStatus(reference, args.fetch);
    return { status: payment.status, transactionId: payment.transactionId ?? null, note: undefined };
  } catch (err) {
    return { status: null, transactionId: null, note: err instanceof ApiError && err.code === 'PAYMENT_NOT_FOUND' ? errorText(args.t, err, 'payments') : undefined };
  }
}

/**
 * The later states (docs/rules.md#payments): up to 3 checks, 3 s apart, each attempt shown at
 * least 1.5 s; the first is on the page already.
 */
export const stream: PageStream = async function* (args) {
  const { reference, queryTransaction } = addressed(args.url.searchParams);
  if (!reference) return;
  const view = (state: State, transactionId: string | null = queryTransaction) => <PaymentSuccessView state={state} reference={reference} transactionId={transactionId} />;
  for (let attempt = 1; attempt <= VERIFY_ATTEMPTS; attempt++) {
    const shownAt = Date.now();
    if (attempt > 1) yield view({ phase: 'verifying', attempt });
    const found = await checkOnce(args, reference);
    const transactionId = found.transactionId ?? queryTransaction;
    if (found.status === 'failed' || found.status === 'cancelled') {
      yield view({ phase: 'failed' }, transactionId);
      return;
    }
    await wait(ATTEMPT_VISIBLE_MS - (Date.now() - shownAt));
    if (found.status === 'completed') {
      yield view({ phase: 'completed', transactionId }, transactionId);
      return;
    }
    if (attempt === VERIFY_ATTEMPTS) {
      yield view({ phase: 'accepted', transactionId, note: found.note }, transactionId);
      return;
    }
    await wait(VERIFY_INTERVAL_MS - (Date.now() - shownAt));
  }
};

export const islands = true;
