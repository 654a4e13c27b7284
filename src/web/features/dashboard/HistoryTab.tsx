import { ExternalLink, PackageOpen, PackageSearch, Search } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n';
import type { HistoryQuery, OrderView } from '../../../core/contracts/orders';
import type { OrderActions } from '../../../core/contracts/reseller';
import { HISTORY_SEARCH_MAX } from '../../../core/orderStatus';
import { HISTORY_TABS, type HistoryTab as HistoryTabId } from '../../../core/orderStatus';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { Pager } from '../../components/ui/Pager';
import { EmptyBox, LoadErrorBox, LoadingBox } from '../../components/ui/QueryState';
import { WideTable } from '../../components/ui/Table';
import { TabList, TabPanel, type TabItem } from '../../components/ui/Tabs';
import { statusLabelKey, statusTone } from './orderStatusView';
import { OrderExtras } from './OrderExtras';
import { DripRuns } from './DripRuns';
import { useOrderHistory } from './historyApi';
import { useOrderActions } from './resellerApi';
import { ReorderButton } from './reorder';
import type { OrderNavigationState } from '../catalog/pages';
import { formatDateTime, formatMoney, formatNumber } from '../../lib/format';
import { orderNoteText } from '../../lib/orderNote';
import { orderDelayText } from '../../lib/orderDelay';
import { errorText } from '../../lib/errorText';

/** How long typing rests before the search is asked of the server. */
const SEARCH_DELAY_MS = 300;

/**
 * The customer's orders, newest first (docs/rules.md#screens), a page at a time: tabs by status,
 * a search by order number, link or service, both kept in the address; a table on wide screens,
 * cards on phones. A drip-feed is one order, its runs under it.
 */
export function HistoryTab({
  query,
  onQuery,
  locale,
  onNewOrder,
  onReorder,
}: {
  query: HistoryQuery;
  onQuery: (next: HistoryQuery) => void;
  locale: string;
  onNewOrder: () => void;
  /** "Order again" on each row, when given. */
  onReorder?: (state: OrderNavigationState) => void;
}) {
  const { t } = useTranslation('dashboard');
  const history = useOrderHistory(query);
  const actions = useOrderActions(history.isSuccess);
  const searchId = useId();

  // The search field follows typing at once and the address after a pause; a change of the
  // address (back, a link) shows in the field.
  const [text, setText] = useState(query.q ?? '');
  const latest = useRef({ query, onQuery });
  latest.current = { query, onQuery };
  useEffect(() => {
    setText((current) => (current.trim() === (query.q ?? '') ? current : (query.q ?? '')));
  }, [query.q]);
  useEffect(() => {
    const q = text.trim();
    if (q === (latest.current.query.q ?? '')) return;
    const timer = setTimeout(() => latest.current.onQuery({ ...latest.current.query, ...{ q: q || undefined }, page: 1 }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const tabs = useMemo<TabItem<HistoryTabId>[]>(() => HISTORY_TABS.map((id) => ({ id, label: t(`history.tabs.${id}`) })), [t]);
  const data = history.data;
  const runsOf = useMemo(() => {
    const map = new Map<string, OrderView[]>();
    for (const r of data?.runs ?? []) if (r.parentId) map.set(r.parentId, [...(map.get(r.parentId) ?? []), r]);
    return map;
  }, [data]);
  const filtered = query.status !== 'all' || Boolean(query.q);

  let body;
  if (history.isPending) {
    body = <LoadingBox label={t('history.loading')} spinnerClassName="size-8" />;
  } else if (history.isError) {
    body = <LoadErrorBox title={t('errors.ordersLoad')} detail={errorText(t, history.error, 'dashboard')} retryLabel={t('retry')} onRetry={() => void history.refetch()} />;
  } else if (data!.orders.length === 0 && !filtered && query.page === 1) {
    body = (
      <EmptyBox icon={PackageOpen} title={t('history.empty')} text={t('history.emptyText')}>
        <Button size="sm" onClick={onNewOrder}>
          {t('history.newOrder')}
        </Button>
      </EmptyBox>
    );
  } else if (data!.orders.length === 0) {
    body = (
      <EmptyBox icon={PackageSearch} title={t('history.noMatch')} text={t('history.noMatchText')}>
        <Button
          size="sm"
          variant="outline"
          onClick={() => {
            setText('');
            onQuery({ status: 'all', page: 1 });
          }}
        >
          {t('history.showAll')}
        </Button>
      </EmptyBox>
    );
  } else {
    const pages = Math.max(1, Math.ceil(data!.total / data!.pageSize));
    body = (
      <>
        <OrderList orders={data!.orders} runsOf={runsOf} actions={actions.data} locale={locale} onReorder={onReorder} />
        <Pager
          page={data!.page}
          pages={pages}
          label={t('history.paging')}
          position={t('history.pageOf', { page: formatNumber(data!.page, locale), pages: formatNumber(pages, locale) })}
          previous={t('history.previous')}
          next={t('history.next')}
          onPage={(page) => onQuery({ ...query, page })}
        />
      </>
    );
  }

  return (
    <div data-testid="order-history" className="space-y-4">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
        <TabList look="wrap" items={tabs} value={query.status} onChange={(status) => onQuery({ ...query, status, page: 1 })} label={t('history.tabs.label')} idPrefix="history" />
        <form
          role="search"
          className="relative lg:w-80"
          onSubmit={(e) => {
            e.preventDefault();
            const q = text.trim();
            onQuery({ ...query, q: q || undefined, page: 1 });
          }}
        >
          <label htmlFor={searchId} className="sr-only">
            {t('history.search')}
          </label>
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
          <Input
            id={searchId}
            type="search"
            value={text}
            maxLength={HISTORY_SEARCH_MAX}
            placeholder={t('history.searchPlaceholder')}
            onChange={(e) => setText(e.target.value)}
            className="pl-9"
            data-testid="history-search"
          />
        </form>
      </div>
      <p role="status" className="sr-only">
        {data && filtered ? t('history.found', { count: data.total, total: formatNumber(data.total, locale) }) : ''}
      </p>
      <TabPanel id={query.status} idPrefix="history" active>
        {body}
      </TabPanel>
    </div>
  );
}

function OrderList({
  orders,
  runsOf,
  actions,
  locale,
  onReorder,
}: {
  orders: OrderView[];
  runsOf: ReadonlyMap<string, OrderView[]>;
  actions: Record<string, OrderActions> | undefined;
  locale: string;
  onReorder?: (state: OrderNavigationState) => void;
}) {
  const { t } = useTranslation('dashboard');
  const status = (o: OrderView) => (
    <Badge tone={statusTone(o.status)} data-status={o.status} className="shrink-0 whitespace-nowrap">
      {t(statusLabelKey(o.status))}
    </Badge>
  );
  const price = (o: OrderView) => (
    <>
      {formatMoney(o.chargeMicros, 'USD', locale)}
      {o.refundedMicros > 0 ? (
        <span className="block text-xs font-normal text-emerald-700">{t('history.refunded', { amount: formatMoney(o.refundedMicros, 'USD', locale) })}</span>
      ) : null}
    </>
  );
  // The whole link, broken where it must be: a customer tells two orders apart by its end.
  const link = (o: OrderView) => (
    <a href={o.link} target="_blank" rel="noopener noreferrer nofollow" className="inline text-brand-700 break-all hover:underline" data-testid="order-link">
      {o.link}
      <ExternalLink className="ml-1 inline size-3.5 align-[-2px]" aria-hidden="true" />
    </a>
  );
  const track = (o: OrderView) => (
    <Link to={`/track?order=${encodeURIComponent(o.number)}`} className="text-xs font-medium text-brand-700 hover:underline" aria-label={t('history.trackOrder', { number: o.number })} data-testid="order-track">
      {t('history.track')}
    </Link>
  );
  // Where the provider started from and what is left, once it says (docs/rules.md#statuses).
  const counts = (o: OrderView) => (
    <>
      {o.startCount !== null ? (
        <span className="block text-xs text-slate-600" data-testid="order-start-count">
          {t('history.startCount', { value: formatNumber(o.startCount, locale) })}
        </span>
      ) : null}
      {o.remains !== null ? (
        <span className="block text-xs text-slate-600" data-testid="order-remains">
          {t('history.remains', { value: formatNumber(o.remains, locale) })}
        </span>
      ) : null}
    </>
  );
  const progress = (o: OrderView) => (
    <>
      {o.remains !== null && o.status !== 'completed' ? (
        <span className="block text-xs text-slate-600">{t('history.delivered', { done: formatNumber(Math.max(0, o.quantity - o.remains), locale), total: formatNumber(o.quantity, locale) })}</span>
      ) : null}
      {counts(o)}
      <DripRuns order={o} runs={runsOf.get(o.id)} locale={locale} />
    </>
  );

  return (
    <>
      {/* Wide screens: a table. */}
      <WideTable
        caption={t('history.caption')}
        columns={[
          { label: t('history.date') },
          { label: t('history.service') },
          { label: t('history.link') },
          { label: t('history.quantity'), className: 'text-right' },
          { label: t('history.price'), className: 'text-right' },
          { label: t('history.status') },
        ]}
      >
        {orders.map((o) => (
          <tr key={o.id} data-order={o.number} className="align-top">
            <td className="whitespace-nowrap px-4 py-3 text-slate-600">
              {formatDateTime(o.createdAt, locale)}
              <span className="block whitespace-nowrap font-mono text-xs text-slate-600">{o.number}</span>
              {track(o)}
            </td>
            <td className="max-w-56 px-4 py-3">
              <span className="font-medium text-slate-900">{o.serviceName}</span>
              {o.note ? <span className="mt-1 block text-xs text-slate-600">{orderNoteText(t, o.note)}</span> : null}
              {o.delay ? (
                <span className="mt-1 block text-xs font-medium text-amber-700" data-testid="order-delay">
                  {orderDelayText(t, o.delay, locale)}
                </span>
              ) : null}
            </td>
            <td className="min-w-40 max-w-72 px-4 py-3">{link(o)}</td>
            <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">
              {formatNumber(o.quantity, locale)}
              {progress(o)}
            </td>
            <td className="whitespace-nowrap px-4 py-3 text-right font-semibold tabular-nums text-slate-900">{price(o)}</td>
            <td className="px-4 py-3">
              {status(o)}
              <OrderExtras orderId={o.id} actions={actions?.[o.id]} />
              {onReorder ? <ReorderButton order={o} onReorder={onReorder} /> : null}
            </td>
          </tr>
        ))}
      </WideTable>

      {/* Phones: one card per order. */}
      <ul className="space-y-3 md:hidden">
        {orders.map((o) => (
          <li key={o.id} data-order={o.number} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="font-semibold text-slate-900">{o.serviceName}</p>
                <p className="mt-0.5 text-xs text-slate-600">
                  {formatDateTime(o.createdAt, locale)} · <span className="whitespace-nowrap font-mono">{o.number}</span>
                </p>
                {track(o)}
              </div>
              {status(o)}
            </div>
            <div className="mt-2 text-sm">{link(o)}</div>
            <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
              <div>
                <dt className="text-xs text-slate-600">{t('history.quantity')}</dt>
                <dd className="tabular-nums">
                  {formatNumber(o.quantity, locale)}
                  {progress(o)}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600">{t('history.price')}</dt>
                <dd className="font-semibold tabular-nums">{price(o)}</dd>
              </div>
            </dl>
            {o.note ? <p className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600">{orderNoteText(t, o.note)}</p> : null}
            {o.delay ? (
              <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-xs font-medium text-amber-800" data-testid="order-delay">
                {orderDelayText(t, o.delay, locale)}
              </p>
            ) : null}
            <OrderExtras orderId={o.id} actions={actions?.[o.id]} />
            {onReorder ? <ReorderButton order={o} onReorder={onReorder} /> : null}
          </li>
        ))}
      </ul>
    </>
  );
}
