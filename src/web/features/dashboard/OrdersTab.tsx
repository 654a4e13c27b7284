import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import type { PublicService } from '../../../core/contracts/catalog';
import type { OrderView } from '../../../core/contracts/orders';
import { LOCALES } from '../../../core/i18n';
import { formatMoney } from '../../lib/format';
import { orderNoteText } from '../../lib/orderNote';
import { COUNTER_OF } from '../../../core/orderStatus';
import type { ServiceGroup } from '../../../core/platforms';
import { Spinner } from '../../components/ui/Spinner';
import { LoadFailedPanel } from '../../components/ui/LoadFailedPanel';
import { useLanguage } from '../../lib/language';
import { useReloadCatalog, useServiceDetail, useServices } from '../catalog';
import { dripInput, indexCatalog, issueMessage, OrderSteps, orderTotal, parseQuantity, resolveChoice, serverParamIssue, useCustomerFees, useOrderForm, type OrderFormOutput, type OrderNavigationState } from '../catalog/pages';
import { newIdempotencyKey } from './keys';
import { useDashboardCache } from './cache';
import type { OrderAttempt } from './orderAttempt';
import { OrderSummary } from './OrderSummary';

/** The request and its error codes, loaded with the first order sent (./placing.ts). */
const loadPlacing = () => import('./placing');

/**
 * The comparison key of links (core/linkKey.ts), loaded with the first link in the form: the
 * warning of a link an active order still serves needs it, the first screen does not. Null until
 * then; the server refuses such an order whatever the form showed.
 */
function useLinkKey(link: string): ((link: string) => string) | null {
  const [normalize, setNormalize] = useState<((link: string) => string) | null>(null);
  const wanted = link.trim() !== '';
  useEffect(() => {
    if (!wanted || normalize) return;
    let live = true;
    void import('../../../core/linkKey').then(({ normalizeLink }) => live && setNormalize(() => normalizeLink));
    return () => {
      live = false;
    };
  }, [wanted, normalize]);
  return normalize;
}

/** An order counts as active for its link until it is final; `unknown` waits for reconciliation. */
const blocksLink = (o: OrderView) => COUNTER_OF[o.status] === 'active';

/**
 * The dashboard's new-order form (docs/rules.md#orders): the catalogue's pickers and fields, the
 * price and the balance, and Buy. The server prices, checks and charges again; the checks here
 * only keep the button honest.
 */
export function OrdersTab({
  balanceMicros,
  activeOrders,
  initial,
  onPlaced,
  onTopUp,
}: {
  balanceMicros: number;
  /** The customer's orders still active (the overview's): a link one of them serves is warned of. */
  activeOrders: readonly OrderView[] | undefined;
  initial: Partial<OrderNavigationState> | null;
  onPlaced: (order: OrderView) => void;
  onTopUp: () => void;
}) {
  const { t } = useTranslation(['dashboard', 'catalog']);
  const lang = useLanguage();
  const locale = LOCALES[lang];
  const cache = useDashboardCache();
  const reloadCatalog = useReloadCatalog();
  const list = useServices(lang);
  // The signed-in customer's own prices: the list's fees with their discount.
  const fees = useCustomerFees(list.data?.fees);
  const index = useMemo(() => (list.data ? indexCatalog(list.data.services) : null), [list.data]);

  const [chosenPlatform, setChosenPlatform] = useState(initial?.platform?.trim().toLowerCase() ?? '');
  const [chosenGroup, setChosenGroup] = useState<ServiceGroup | undefined>(undefined);
  const [serviceId, setServiceId] = useState<string | undefined>(initial?.serviceId);
  const attempt = useRef<OrderAttempt | null>(null);
  const [placing, setPlacing] = useState(false);
  /** The server's total after it refused an order whose price had changed, until the next attempt. */
  const [repriced, setRepriced] = useState<number | null>(null);

  const platform = chosenPlatform && index?.byPlatform.has(chosenPlatform) ? chosenPlatform : (index?.platforms[0] ?? '');
  const choice = resolveChoice(index, platform, { group: chosenGroup, serviceId });
  const { service } = choice;

  const detail = useServiceDetail(service?.id, lang);
  const params = useMemo(() => detail.data?.params ?? [], [detail.data]);
  const orderForm = useOrderForm({
    service,
    params,
    // An order brought from the catalogue page, with its link and quantity already checked there.
    initial: {
      link: initial?.link ?? '',
      quantity: initial?.quantity ? String(initial.quantity) : '',
      params: initial?.params ?? {},
      ...(initial?.drip ? { drip: { runs: String(initial.drip.runs), interval: String(initial.drip.interval) } } : {}),
    },
    initialTouched: initial?.link ? ['link', 'quantity'] : [],
  });
  const { draft, issues, byField, setDraft, serviceChosen, placed } = orderForm;

  const quantity = parseQuantity(draft.quantity);
  const drip = dripInput(service, draft);
  const dripInvalid = Boolean(drip && 'invalid' in drip);
  const runs = drip && !('invalid' in drip) ? drip : null;
  const perRun = service && list.data && !byField.has('quantity') && !dripInvalid ? orderTotal(service, quantity, fees!) : null;
  // A drip-feed is charged for all its runs at once: each run costs one order of the quantity.
  const total = perRun !== null && runs ? perRun * runs.runs : perRun;
  const normalizeLink = useLinkKey(draft.link);
  const linkKey = normalizeLink && draft.link.trim() ? normalizeLink(draft.link) : '';
  const activeExists = Boolean(linkKey) && (activeOrders ?? []).some((o) => o.platform === platform && blocksLink(o) && normalizeLink!(o.link) === linkKey);
  const short = total !== null && total > balanceMicros;
  const paramsPending = Boolean(service?.hasParams) && detail.isPending;

  const reason = placing
    ? 'placing'
    : !service
      ? 'service'
      : activeExists
        ? 'active'
        : !draft.link.trim() || !draft.quantity.trim()
          ? 'empty'
          : byField.has('quantity')
            ? 'quantity'
            : issues.length > 0 || paramsPending || dripInvalid
              ? 'issues'
              : short
                ? 'balance'
                : null;

  const choosePlatform = useCallback((next: string) => {
    setChosenPlatform(next);
    setChosenGroup(undefined);
    setServiceId(undefined);
    setDraft((d) => ({ ...d, quantity: '', params: {} }));
  }, [setDraft]);
  const chooseGroup = useCallback((next: ServiceGroup) => {
    setChosenGroup(next);
    setServiceId(undefined);
  }, []);
  const chooseService = useCallback(
    (next: PublicService | undefined) => {
      setServiceId(next?.id);
      if (next) setChosenGroup(next.group);
      serviceChosen(next);
    },
    [serviceChosen],
  );

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (reason || !service) return;
    // Buy is only offered for an order the form accepts (`reason`), so nothing is left to point at.
    await orderForm.submit(sendOrder, () => {});
  }

  async function sendOrder(checked: OrderFormOutput) {
    const input = {
      ...checked,
      // The total on screen: the server refuses the order if its price is not this one.
      ...(total !== null ? { expectedTotalMicros: total } : {}),
    };
    setRepriced(null);
    setPlacing(true);
    let sending: Awaited<ReturnType<typeof loadPlacing>>;
    try {
      sending = await loadPlacing();
    } catch {
      setPlacing(false);
      toast.error(t('orders.failedTitle'), { description: t('errors.placeFailed') });
      return;
    }
    const { ApiError, attemptFor, errorText, isRetryable, placeOrder } = sending;
    // A retry of the same attempt (same input after no definite answer) keeps its key.
    attempt.current = attemptFor(attempt.current, JSON.stringify(input), newIdempotencyKey);
    try {
      const order = await placeOrder({ ...input, idempotencyKey: attempt.current.key });
      attempt.current = null;
      if (order.status === 'error') {
        toast.error(t('orders.refusedTitle'), { description: orderNoteText(t, order.note) || t('orders.refused') });
      } else if (order.status === 'unknown') {
        toast.info(t('orders.placedUnknown', { number: order.number }));
      } else {
        toast.success(t('orders.placed'), { description: t('orders.placedNumber', { number: order.number }) });
      }
      placed();
      onPlaced(order);
    } catch (err) {
      if (!isRetryable(err)) attempt.current = null;
      const code = err instanceof ApiError ? err.code : 'INTERNAL';
      if (err instanceof ApiError && code === 'PRICE_CHANGED') {
        // Fees or the catalogue changed since this page read them: read them again, show the new
        // total, and let the customer decide with it in view.
        const totalMicros = Number((err.details as { totalMicros?: unknown } | undefined)?.totalMicros);
        setRepriced(Number.isSafeInteger(totalMicros) ? totalMicros : null);
        void reloadCatalog();
        toast.warning(t('orders.priceChangedTitle'), {
          description: Number.isSafeInteger(totalMicros) ? t('orders.priceChanged', { amount: formatMoney(totalMicros, 'USD', locale) }) : t('orders.priceChangedPlain'),
        });
        return;
      }
      // A param the server refused is named as the form names it, in the page's language.
      const paramIssue = err instanceof ApiError ? serverParamIssue(code, err.details) : null;
      const text =
        code === 'INTERNAL'
          ? t('errors.placeFailed')
          : paramIssue
            ? issueMessage(t, paramIssue, platform, params, locale)
            : errorText(t, err, 'dashboard');
      toast.error(t('orders.failedTitle'), { description: text });
    } finally {
      setPlacing(false);
      cache.reload();
    }
  }

  if (list.isPending) {
    return (
      <div className="grid min-h-64 place-items-center rounded-2xl border border-slate-200 bg-white shadow-sm">
        <Spinner label={t('catalog:load.loading')} className="size-10" />
      </div>
    );
  }
  if (!index || !list.data) {
    return (
      <LoadFailedPanel level="h3" title={t('orders.servicesFailed')} text={t('catalog:load.failedText')} retryLabel={t('catalog:load.retry')} retrying={list.isFetching} onRetry={() => void list.refetch()} />
    );
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" aria-label={t('orders.formLabel')}>
      <div className="min-w-0 space-y-6">
        <OrderSteps
          platforms={index.platforms}
          choice={choice}
          detail={detail}
          fees={fees!}
          locale={locale}
          onPlatform={choosePlatform}
          onGroup={chooseGroup}
          onService={chooseService}
          params={params}
          form={orderForm}
        />
      </div>

      <OrderSummary
        service={service}
        fees={fees!}
        quantity={draft.quantity}
        total={total}
        balanceMicros={balanceMicros}
        locale={locale}
        placing={placing}
        blockedBy={reason}
        onTopUp={onTopUp}
        repricedMicros={repriced}
        runs={runs?.runs ?? 1}
      />
    </form>
  );
}
