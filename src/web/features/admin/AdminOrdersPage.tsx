import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Eye, RefreshCw, RotateCcw, Send } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { useTranslation } from '../../i18n';
import { orderRefundSchema } from '../../../core/contracts/admin';
import { microsToDecimal, parseUsdToMicros } from '../../../core/money';
import { ORDER_STATUSES, statusGroup, type OrderStatus } from '../../../core/orderStatus';
import { platformDisplayName } from '../../../core/platforms';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { Input } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { useCan } from './access';
import { useAdminCancel, useAdminRefill, useOrder, useOrders, useRefund, useResubmit, useResync, type AdminOrder, type OrderDetail, type OrdersQuery } from './api';
import { ConfirmDialog, FormDialog } from './dialogs';
import { notify, notifyError, STATUS_TONE } from './format';
import { AdminPage, CardsOrTable, FilterField, InputField, LoadError, Loading, Panel, QueryView, ReasonField, Pager, SearchField, Select, Table, TableContent, td, Th } from './ui';
import { formatDateTime, formatMoney, formatNumber } from '../../lib/format';
import { orderNoteText } from '../../lib/orderNote';

export const ns = ['admin', 'order-notes'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:orders.title')} · ${site.site_name}` });

export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('admin');
  return <Badge tone={STATUS_TONE[statusGroup(status)]}>{t(`status.${status}`)}</Badge>;
}

const usePlatforms = () =>
  useQuery({
    queryKey: ['admin', 'platforms'],
    queryFn: async () => {
      const res = await fetch('/api/catalog/platforms', { headers: { accept: 'application/json' } });
      if (!res.ok) return [] as string[];
      return ((await res.json()) as { platforms: string[] }).platforms;
    },
    staleTime: 5 * 60_000,
  });

/** /admin/orders: every order with search, filters and paging; a detail dialog with the admin's actions. */
export default function AdminOrdersPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [params] = useSearchParams();
  // The audit log links an order here by its number (`?q=`).
  const [text, setText] = useState(() => params.get('q') ?? '');
  // The dashboard's counts link here: `?delayed=1`, `?funds=1` (waiting for a provider with funds), `?status=unknown`.
  const [filters, setFilters] = useState<OrdersQuery>(() => ({
    page: 1,
    ...(params.get('q')?.trim() ? { q: params.get('q')!.trim() } : {}),
    ...(params.get('delayed') === '1' ? { delayed: '1' as const } : {}),
    ...(params.get('funds') === '1' ? { funds: '1' as const } : {}),
    ...((ORDER_STATUSES as readonly string[]).includes(params.get('status') ?? '') ? { status: params.get('status')! } : {}),
  }));
  const [openId, setOpenId] = useState<string | null>(null);
  const platforms = usePlatforms();

  useEffect(() => {
    const timer = setTimeout(() => setFilters((f) => (f.q === (text.trim() || undefined) ? f : { ...f, q: text.trim() || undefined, page: 1 })), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const set = (patch: Partial<OrdersQuery>) => setFilters((f) => ({ ...f, ...patch, page: patch.page ?? 1 }));

  const orders = useOrders(filters);
  const data = orders.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <AdminPage title={t('orders.title')} description={data ? t('orders.total', { formatted: formatNumber(data.total, lang), count: data.total }) : undefined}>
      <Panel>
        <div className="grid grid-cols-2 gap-3 border-b border-slate-200 p-4 lg:grid-cols-5">
          <SearchField id="order-search" label={t('orders.search')} value={text} onChange={setText} placeholder={t('orders.searchPlaceholder')} className="col-span-2 lg:col-span-5" />
          <FilterField id="order-status" label={t('orders.status')}>
            <Select id="order-status" value={filters.status ?? ''} onChange={(e) => set({ status: e.target.value || undefined })}>
              <option value="">{t('orders.allStatuses')}</option>
              {ORDER_STATUSES.map((st) => (
                <option key={st} value={st}>
                  {t(`status.${st}`)}
                </option>
              ))}
            </Select>
          </FilterField>
          <FilterField id="order-platform" label={t('orders.platform')}>
            <Select id="order-platform" value={filters.platform ?? ''} onChange={(e) => set({ platform: e.target.value || undefined })}>
              <option value="">{t('orders.allPlatforms')}</option>
              {(platforms.data ?? []).map((p) => (
                <option key={p} value={p}>
                  {platformDisplayName(p)}
                </option>
              ))}
            </Select>
          </FilterField>
          <FilterField id="order-delay" label={t('orders.delay')}>
            <Select
              id="order-delay"
              value={filters.funds ? 'funds' : (filters.delayed ?? '')}
              onChange={(e) => set({ delayed: e.target.value === '1' ? '1' : undefined, funds: e.target.value === 'funds' ? '1' : undefined })}
            >
              <option value="">{t('orders.allOrders')}</option>
              <option value="1">{t('orders.delayedOnly')}</option>
              <option value="funds">{t('orders.waitingForFundsOnly')}</option>
            </Select>
          </FilterField>
          <FilterField id="order-from" label={t('orders.from')}>
            <Input id="order-from" type="date" value={filters.from ?? ''} max={filters.to} onChange={(e) => set({ from: e.target.value || undefined })} className="h-10 py-2" />
          </FilterField>
          <FilterField id="order-to" label={t('orders.to')}>
            <Input id="order-to" type="date" value={filters.to ?? ''} min={filters.from} onChange={(e) => set({ to: e.target.value || undefined })} className="h-10 py-2" />
          </FilterField>
        </div>

        <QueryView query={orders} error={t('notices.ordersNotLoaded')} empty={t('orders.empty')} isEmpty={(d) => d.orders.length === 0}>
          {(d) => (
            <CardsOrTable
              cards={d.orders.map((o) => (
                <li key={o.id} data-testid="order-card">
                  <button type="button" onClick={() => setOpenId(o.id)} className="block w-full px-4 py-4 text-left hover:bg-slate-50" aria-label={t('orders.detailsFor', { number: o.number })}>
                    <div className="flex items-center justify-between gap-3">
                      <span className="whitespace-nowrap font-mono text-xs font-semibold text-slate-900">{o.number}</span>
                      <StatusBadge status={o.status} />
                    </div>
                    <DelayBadge delay={o.delay} />
                    <p className="mt-1.5 truncate text-sm font-medium text-slate-900">{o.serviceName}</p>
                    <p className="truncate text-xs text-slate-500">{o.email}</p>
                    <div className="mt-1.5 flex items-center justify-between text-xs text-slate-600">
                      <span>{formatDateTime(o.createdAt, lang)}</span>
                      <span className="text-sm font-semibold tabular-nums text-slate-900">{formatMoney(o.chargeMicros, 'USD', lang)}</span>
                    </div>
                  </button>
                </li>
              ))}
            >
              <Table
                label={t('orders.title')}
                minWidth="min-w-[840px]"
                head={
                  <>
                    <Th>
                      {t('orders.number')} · {t('orders.customer')}
                    </Th>
                    <Th>{t('orders.service')}</Th>
                    <Th className="text-right">{t('orders.quantity')}</Th>
                    <Th className="text-right">{t('orders.price')}</Th>
                    <Th className="hidden text-right xl:table-cell">{t('orders.margin')}</Th>
                    <Th>{t('orders.status')}</Th>
                    <Th>{t('orders.date')}</Th>
                    <Th>
                      <span className="sr-only">{t('common.actions')}</span>
                    </Th>
                  </>
                }
              >
                {d.orders.map((o) => (
                  <tr key={o.id} data-testid="order-row" data-number={o.number} className="hover:bg-slate-50/60">
                    <td className={td}>
                      <p className="whitespace-nowrap font-mono text-xs font-semibold text-slate-900">{o.number}</p>
                      <p className="max-w-48 truncate text-xs text-slate-500" title={o.email}>
                        {o.email}
                      </p>
                    </td>
                    <td className={td}>
                      <p className="max-w-48 truncate font-medium text-slate-900" title={o.serviceName}>
                        {o.serviceName}
                      </p>
                      <p className="max-w-48 truncate text-xs text-slate-500" title={o.link}>
                        {o.link}
                      </p>
                    </td>
                    <td className={`${td} text-right tabular-nums`}>{formatNumber(o.quantity, lang)}</td>
                    <td className={`${td} whitespace-nowrap text-right font-medium tabular-nums`}>{formatMoney(o.chargeMicros, 'USD', lang)}</td>
                    <td className={`${td} hidden whitespace-nowrap text-right tabular-nums xl:table-cell ${o.marginMicros !== null && o.marginMicros < 0 ? 'text-rose-700' : ''}`} data-testid="order-margin">
                      {o.marginMicros === null ? '—' : formatMoney(o.marginMicros, 'USD', lang)}
                    </td>
                    <td className={`${td} whitespace-nowrap`}>
                      <StatusBadge status={o.status} />
                      <DelayBadge delay={o.delay} />
                    </td>
                    <td className={`${td} whitespace-nowrap text-xs`}>{formatDateTime(o.createdAt, lang)}</td>
                    <td className={`${td} text-right`}>
                      <Button size="sm" variant="outline" onClick={() => setOpenId(o.id)} aria-label={t('orders.detailsFor', { number: o.number })} title={t('orders.details')}>
                        <Eye className="size-4" aria-hidden="true" />
                      </Button>
                    </td>
                  </tr>
                ))}
              </Table>
            </CardsOrTable>
          )}
        </QueryView>

        {data ? <Pager page={data.page} pages={pages} label={t('orders.paging')} onPage={(p) => set({ page: p })} /> : null}
      </Panel>
      {openId ? <OrderDialog id={openId} onClose={() => setOpenId(null)} /> : null}
    </AdminPage>
  );
}

/** A delayed order's mark (docs/rules.md#delayed-orders): its status stays as the provider says. */
function DelayBadge({ delay }: { delay: AdminOrder['delay'] }) {
  const { t } = useTranslation('admin');
  if (!delay) return null;
  return (
    <span className="mt-1 block" title={t('orders.delayedFor', { minutes: delay.usualMinutes })} data-testid="order-delayed">
      <Badge tone="warning">{t('orders.delayed')}</Badge>
    </span>
  );
}


function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_minmax(0,1fr)] gap-3 py-2 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * What the order cost (docs/rules.md#what-an-order-cost): the provider that holds it and its
 * service there, our cost and what the provider gave back of it, the charge the provider reported
 * (marked when it differs beyond rounding), and the margin. Amounts to the micro-dollar.
 */
export function OrderCost({ cost }: { cost: OrderDetail['cost'] }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const money = (micros: number | null, none: string) => (micros === null ? none : formatMoney(micros, 'USD', lang));
  const difference = cost.difference;
  const signed = difference ? `${difference.differenceMicros > 0 ? '+' : ''}${formatMoney(difference.differenceMicros, 'USD', lang)}` : '';
  return (
    <section data-testid="order-cost" className="mt-6">
      <h3 className="text-sm font-semibold text-slate-900">{t('orders.costTitle')}</h3>
      <div className="mt-2 grid gap-x-8 md:grid-cols-2">
        <dl className="divide-y divide-slate-100">
          <Row label={t('orders.provider')}>{cost.providerName ?? t('orders.defaultProvider')}</Row>
          <Row label={t('orders.providerService')}>
            <code className="text-xs">{cost.providerServiceId}</code>
          </Row>
          <Row label={t('orders.cost')}>
            <span data-testid="order-cost-ours">{money(cost.costMicros, t('orders.costUnknown'))}</span>
          </Row>
          <Row label={t('orders.costRefunded')}>{formatMoney(cost.costRefundedMicros, 'USD', lang)}</Row>
        </dl>
        <dl className="divide-y divide-slate-100">
          <Row label={t('orders.providerCharge')}>
            <span className="flex flex-wrap items-center gap-2" title={t('orders.providerChargeHint')}>
              <span data-testid="order-cost-provider">{money(cost.providerChargeMicros, t('orders.notReported'))}</span>
              {difference?.flagged ? (
                <Badge tone="danger" data-testid="order-cost-differs">
                  <AlertTriangle className="size-3" aria-hidden="true" />
                  {t('orders.differs')}
                </Badge>
              ) : difference ? (
                <Badge tone="success">{t('orders.matches')}</Badge>
              ) : null}
            </span>
            {difference?.flagged ? <span className="mt-1 block text-xs font-normal text-rose-700">{t('orders.differsBy', { amount: signed })}</span> : null}
          </Row>
          <Row label={t('orders.margin')}>
            <span data-testid="order-cost-margin" className={cost.marginMicros !== null && cost.marginMicros < 0 ? 'text-rose-700' : undefined}>
              {money(cost.marginMicros, t('orders.costUnknown'))}
            </span>
          </Row>
        </dl>
      </div>
    </section>
  );
}

type Action = 'resync' | 'resubmit' | 'refund' | 'refill' | 'cancel' | null;

function OrderDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const detail = useOrder(id);
  const [action, setAction] = useState<Action>(null);
  const allowed = useCan();
  const resync = useResync(id);
  const resubmit = useResubmit(id);
  const refill = useAdminRefill(id);
  const cancel = useAdminCancel(id);
  const o = detail.data?.order;
  const runRefill = () =>
    refill.mutate(undefined, {
      onSuccess: () => notify.success(t('notices.refillRequested')),
      onError: (err) => notifyError(t, 'notices.refillFailed', err),
      onSettled: () => setAction(null),
    });
  const runCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: (v) => notify.success(t('notices.orderCancelled'), t('orders.nowStatus', { status: t(`status.${v.status}`) })),
      onError: (err) => notifyError(t, 'notices.cancelFailed', err),
      onSettled: () => setAction(null),
    });

  const runResync = () =>
    resync.mutate(undefined, {
      onSuccess: (v) => notify.success(t('notices.resynced'), t('orders.nowStatus', { status: t(`status.${v.status}`) })),
      onError: (err) => notifyError(t, 'notices.resyncFailed', err),
      onSettled: () => setAction(null),
    });
  const runResubmit = () =>
    resubmit.mutate(undefined, {
      onSuccess: (v) => notify.success(t('notices.resubmitted'), t('orders.nowStatus', { status: t(`status.${v.status}`) })),
      onError: (err) => notifyError(t, 'notices.resubmitFailed', err),
      onSettled: () => setAction(null),
    });

  return (
    <Dialog open onOpenChange={(v) => !v && onClose()} title={o ? t('orders.detailTitle', { number: o.number }) : t('orders.details')} closeLabel={t('common.close')} className="sm:max-w-4xl">
      {detail.isError ? (
        <LoadError message={t('notices.orderNotLoaded')} error={detail.error} onRetry={() => void detail.refetch()} />
      ) : !o ? (
        <Loading />
      ) : (
        <div data-testid="order-detail">
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge status={o.status} />
            {o.delay ? (
              <Badge tone="warning" title={t('orders.delayedFor', { minutes: o.delay.usualMinutes })}>
                {t('orders.delayedFor', { minutes: o.delay.usualMinutes })}
              </Badge>
            ) : null}
            {o.refundedMicros + (o.runsRefundedMicros ?? 0) > 0 ? <Badge tone="warning">{t('orders.refundedBadge', { amount: formatMoney(o.refundedMicros + (o.runsRefundedMicros ?? 0), 'USD', lang) })}</Badge> : null}
          </div>
          <div className="mt-4 grid gap-x-8 md:grid-cols-2">
            <dl className="divide-y divide-slate-100">
              <Row label={t('orders.customer')}>
                {o.name ? `${o.name} · ` : ''}
                {o.email}
              </Row>
              <Row label={t('orders.service')}>{o.serviceName}</Row>
              <Row label={t('orders.platform')}>{o.platform ? platformDisplayName(o.platform) : '—'}</Row>
              <Row label={t('orders.link')}>
                <a href={o.link} target="_blank" rel="noreferrer noopener" className="text-brand-700 underline-offset-2 hover:underline">
                  {o.link}
                </a>
              </Row>
              <Row label={t('orders.quantity')}>{formatNumber(o.quantity, lang)}</Row>
              <Row label={t('orders.price')}>{formatMoney(o.chargeMicros, 'USD', lang)}</Row>
              <Row label={t('orders.refunded')}>{formatMoney(o.refundedMicros, 'USD', lang)}</Row>
              {o.runsRefundedMicros !== null ? <Row label={t('orders.refundedThroughRuns')}>{formatMoney(o.runsRefundedMicros, 'USD', lang)}</Row> : null}
            </dl>
            <dl className="divide-y divide-slate-100">
              <Row label={t('orders.providerId')}>{o.providerOrderId ?? '—'}</Row>
              <Row label={t('orders.providerStatus')}>{o.providerStatus ?? '—'}</Row>
              <Row label={t('orders.counts')}>
                {[o.startCount, o.currentCount, o.remains].map((n) => (n === null ? '—' : formatNumber(n, lang))).join(' / ')}
              </Row>
              <Row label={t('orders.date')}>{formatDateTime(o.createdAt, lang)}</Row>
              <Row label={t('orders.placedVia')}>{o.viaApi ? t('orders.viaApi', { id: o.apiId }) : t('orders.viaSite')}</Row>
              <Row label={t('orders.submittedAt')}>{o.submittedAt ? formatDateTime(o.submittedAt, lang) : '—'}</Row>
              <Row label={t('orders.checkedAt')}>{o.checkedAt ? formatDateTime(o.checkedAt, lang) : '—'}</Row>
              {o.note ? (
                <Row label={t('orders.comment')}>
                  {orderNoteText(t, o.note)} <code className="text-xs text-slate-500">{o.note.code}</code>
                </Row>
              ) : null}
              {o.params && Object.keys(o.params).length ? (
                <Row label={t('orders.params')}>
                  <code className="text-xs">{JSON.stringify(o.params)}</code>
                </Row>
              ) : null}
            </dl>
          </div>

          <OrderCost cost={detail.data!.cost} />

          <h3 className="mt-6 text-sm font-semibold text-slate-900">{t('orders.ledger')}</h3>
          {detail.data!.ledger.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">{t('orders.noLedger')}</p>
          ) : (
            <div className="mt-2 overflow-x-auto rounded-xl border border-slate-200">
              <table className="w-full min-w-[480px] divide-y divide-slate-200 text-sm">
                <TableContent
                  head={
                    <>
                      <Th>{t('orders.date')}</Th>
                      <Th>{t('orders.kind')}</Th>
                      <Th className="text-right">{t('orders.amount')}</Th>
                      <Th>{t('orders.note')}</Th>
                    </>
                  }
                >
                  {detail.data!.ledger.map((e) => (
                    <tr key={e.id} data-testid="ledger-row">
                      <td className={`${td} whitespace-nowrap`}>{formatDateTime(e.createdAt, lang)}</td>
                      <td className={td}>{t(`ledger.${e.kind}`, { defaultValue: e.kind })}</td>
                      <td className={`${td} whitespace-nowrap text-right font-medium tabular-nums ${e.amountMicros < 0 ? 'text-rose-700' : 'text-emerald-700'}`}>
                        {formatMoney(e.amountMicros, 'USD', lang)}
                      </td>
                      <td className={td}>
                        {e.runNumber ? <span className="mr-1 whitespace-nowrap font-mono text-xs text-slate-500">{t('orders.ledgerRun', { number: e.runNumber })}</span> : null}
                        {e.note ?? '—'}
                      </td>
                    </tr>
                  ))}
                </TableContent>
              </table>
            </div>
          )}

          {allowed('orders:manage') ? <div className="mt-6 flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4">
            <Button variant="outline" size="sm" onClick={() => setAction('resync')} disabled={!o.providerOrderId}>
              <RefreshCw className="size-4" aria-hidden="true" />
              {t('orders.resync')}
            </Button>
            {o.status === 'unknown' ? (
              <Button variant="outline" size="sm" onClick={() => setAction('resubmit')}>
                <Send className="size-4" aria-hidden="true" />
                {t('orders.resubmit')}
              </Button>
            ) : null}
            {/* Offered as the customer's are: only when the order allows it now (docs/rules.md#refill). */}
            {detail.data!.actions.canRefill ? (
              <Button variant="outline" size="sm" onClick={() => setAction('refill')}>
                {t('orders.refill')}
              </Button>
            ) : null}
            {detail.data!.actions.canCancel ? (
              <Button variant="outline" size="sm" onClick={() => setAction('cancel')}>
                {t('orders.cancel')}
              </Button>
            ) : null}
            <Button size="sm" onClick={() => setAction('refund')} disabled={o.refundableMicros <= 0}>
              <RotateCcw className="size-4" aria-hidden="true" />
              {t('orders.refund')}
            </Button>
          </div> : null}
        </div>
      )}

      <ConfirmDialog
        open={action === 'resync'}
        onOpenChange={(v) => !v && setAction(null)}
        title={t('orders.resyncTitle')}
        description={t('orders.resyncText')}
        confirmLabel={t('orders.resync')}
        onConfirm={runResync}
        pending={resync.isPending}
      />
      <ConfirmDialog
        open={action === 'resubmit'}
        onOpenChange={(v) => !v && setAction(null)}
        title={t('orders.resubmitTitle')}
        description={t('orders.resubmitText')}
        confirmLabel={t('orders.resubmit')}
        onConfirm={runResubmit}
        pending={resubmit.isPending}
      />
      <ConfirmDialog
        open={action === 'refill'}
        onOpenChange={(v) => !v && setAction(null)}
        title={t('orders.refillTitle')}
        description={t('orders.refillText')}
        confirmLabel={t('orders.refill')}
        onConfirm={runRefill}
        pending={refill.isPending}
      />
      <ConfirmDialog
        open={action === 'cancel'}
        onOpenChange={(v) => !v && setAction(null)}
        title={t('orders.cancelTitle')}
        description={t('orders.cancelText')}
        confirmLabel={t('orders.cancel')}
        onConfirm={runCancel}
        pending={cancel.isPending}
      />
      {action === 'refund' && o ? <RefundDialog order={o} onClose={() => setAction(null)} /> : null}
    </Dialog>
  );
}

/**
 * The refund form: the whole remaining charge or a part of it typed in dollars, to the micro
 * (more than zero, at most `left` micro-dollars), and the reason; handed on as the contract's refund body. Error messages
 * are `amount` and `reason`, worded by the dialog.
 */
export const refundFormSchema = (left: number) =>
  z
    .object({ mode: z.enum(['full', 'partial']), amount: z.string(), reason: z.string() })
    .superRefine(({ mode, amount, reason }, ctx) => {
      const micros = parseUsdToMicros(amount.replace(',', '.'));
      if (mode === 'partial' && (micros === null || micros <= 0 || micros > left)) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount' });
      if (!orderRefundSchema.shape.reason.safeParse(reason).success) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'reason' });
    })
    .transform(({ mode, amount, reason }): z.input<typeof orderRefundSchema> => ({
      amountMicros: mode === 'full' ? undefined : (parseUsdToMicros(amount.replace(',', '.')) ?? 0),
      reason,
    }))
    .pipe(orderRefundSchema);

/**
 * The refund of an order as the team sees it: up to what the order (for a drip-feed, the parent
 * and its runs together) has left. An order of unknown state is announced first: the provider
 * may still be delivering it.
 */
export function RefundDialog({ order, onClose }: { order: OrderDetail['order']; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const left = order.refundableMicros;
  const schema = useMemo(() => refundFormSchema(left), [left]);
  // The submit button keeps the focus when a field is wrong, as on the other admin forms.
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    shouldFocusError: false,
    defaultValues: { mode: 'full', amount: microsToDecimal(left), reason: '' },
  });
  const { errors } = form.formState;
  const mode = form.watch('mode');
  const refund = useRefund(order.id);

  const save = (input: z.output<typeof schema>) => {
    const micros = input.amountMicros ?? left;
    refund.mutate(input, {
      onSuccess: () => {
        notify.success(t('notices.refunded'), t('orders.refundedText', { amount: formatMoney(micros, 'USD', lang), number: order.number }));
        onClose();
      },
      onError: (err) => notifyError(t, 'notices.refundFailed', err),
    });
  };

  return (
    <FormDialog
      title={t('orders.refundTitle', { number: order.number })}
      description={t('orders.refundLeft', { amount: formatMoney(left, 'USD', lang) })}
      onClose={onClose}
      onSubmit={() => void form.handleSubmit(save)()}
      pending={refund.isPending}
      submitLabel={t('orders.refundSubmit')}
    >
      {order.status === 'unknown' ? (
        <div role="alert" data-testid="refund-unknown" className="flex gap-3 rounded-xl border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900">
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
          <div>
            <p className="font-semibold">{t('orders.refundUnknownTitle')}</p>
            <p className="mt-0.5">{t('orders.refundUnknownText')}</p>
          </div>
        </div>
      ) : null}
      {order.drip && order.status === 'running' && order.drip.runsSent < order.drip.runs ? <p className="text-sm text-slate-600">{t('orders.refundDripUnsent')}</p> : null}
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-800">{t('orders.refundMode')}</legend>
        <div className="flex flex-wrap gap-4">
          {(['full', 'partial'] as const).map((m) => (
            <label key={m} className="inline-flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" value={m} {...form.register('mode')} className="size-4 accent-brand-600" />
              {t(`orders.refund_${m}`)}
            </label>
          ))}
        </div>
      </fieldset>
      {mode === 'partial' ? (
        <InputField
          label={t('orders.refundAmount')}
          error={errors.amount ? t('orders.refundAmountInvalid', { max: formatMoney(left, 'USD', lang) }) : undefined}
          inputMode="decimal"
          {...form.register('amount')}
        />
      ) : null}
      <Controller
        control={form.control}
        name="reason"
        render={({ field }) => <ReasonField value={field.value} onChange={field.onChange} error={errors.reason ? t('users.reasonRequired') : undefined} />}
      />
    </FormDialog>
  );
}
