import { AlarmClock, AlertTriangle, Banknote, CheckCircle2, Clock, Package, ShoppingCart, TrendingUp, Users, Wallet } from 'lucide-react';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { useLanguage } from '../../lib/language';
import { Link } from 'react-router';
import { useCan, useStaffRoles } from './access';
import { useAdminBase } from './AdminLayout';
import { useDashboard } from './api';
import { navFor } from './nav';
import { dashboardStatus } from './format';
import { AdminPage, Empty, LoadError, Loading, Panel, StatCard, Table, td, Th } from './ui';
import { formatDateTime, formatMoney, formatNumber } from '../../lib/format';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:dashboard.title')} · ${site.site_name}` });

/** /admin: the figures for admins; a moderator, who sees no money, gets their sections instead. */
export default function AdminDashboardPage() {
  const allowed = useCan();
  return allowed('dashboard:read') ? <Dashboard /> : <StaffHome />;
}

/** The moderator's start page: the sections their role opens. */
export function StaffHome() {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const sections = navFor(useStaffRoles());
  return (
    <AdminPage title={t('staffHome.title')} description={t('staffHome.lead')}>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="staff-home">
        {sections.map(({ key, path, icon: Icon }) => (
          <li key={key}>
            <Link to={base + path} className="flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-5 font-semibold text-slate-900 shadow-sm hover:border-brand-300 hover:bg-brand-50">
              <Icon className="size-5 text-brand-600" aria-hidden="true" />
              {t(`nav.${key}`)}
            </Link>
          </li>
        ))}
      </ul>
    </AdminPage>
  );
}

/**
 * The owner's cockpit (docs/rules.md#owner-figures): today's sales and gross profit, what the shop
 * owes its customers, what needs attention (each count a link to its filtered list), every
 * provider's balance, a notice while the shop sells at cost, the store's counts and the five
 * latest orders (docs/rules.md#admin).
 */
function Dashboard() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const query = useDashboard();
  const base = useAdminBase();
  const d = query.data;

  return (
    <AdminPage title={t('dashboard.title')} description={t('dashboard.lead')}>
      {query.isError && !d ? (
        <Panel>
          <LoadError message={t('notices.dashboardNotLoaded')} error={query.error} onRetry={() => void query.refetch()} />
        </Panel>
      ) : !d ? (
        <Loading />
      ) : (
        <>
          {d.sellsAtCost && (
            <p role="note" data-testid="sells-at-cost" className="mb-6 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
              {t('dashboard.sellsAtCost')}{' '}
              <Link to={`${base}/settings`} className="font-semibold underline underline-offset-2">
                {t('dashboard.sellsAtCostLink')}
              </Link>
            </p>
          )}

          <div className="mb-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            <StatCard testId="stat-today-sales" label={t('dashboard.todaySales')} value={formatMoney(d.todaySalesMicros, 'USD', lang)} icon={ShoppingCart} tone="emerald" />
            <StatCard testId="stat-today-profit" label={t('dashboard.todayGrossProfit')} value={formatMoney(d.todayGrossProfitMicros, 'USD', lang)} icon={TrendingUp} tone="emerald" />
            <StatCard
              testId="stat-balances"
              label={t('dashboard.customerBalances')}
              value={
                <>
                  {formatMoney(d.customerBalancesMicros, 'USD', lang)}
                  {d.owedByCustomersMicros > 0 && (
                    <span className="block text-sm font-medium text-rose-700" data-testid="stat-owed">
                      {t('dashboard.owedByCustomers', { amount: formatMoney(d.owedByCustomersMicros, 'USD', lang), count: d.accountsBelowZero })}
                    </span>
                  )}
                </>
              }
              icon={Wallet}
              tone="sky"
            />
            <StatCard
              testId="stat-topups"
              label={t('dashboard.topUps')}
              value={
                <>
                  {formatMoney(d.topUpsQepik, 'AZN', lang)}
                  <span className="block text-sm font-medium text-slate-500">{formatMoney(d.topUpsMicros, 'USD', lang)}</span>
                </>
              }
              icon={Banknote}
              tone="violet"
            />
          </div>
          <p className="mb-8 text-sm">
            <Link to={`${base}/analytics`} className="font-semibold text-brand-700 underline underline-offset-2">
              {t('dashboard.openAnalytics')}
            </Link>
          </p>

          <Panel className="mb-8" data-testid="attention">
            <h2 className="border-b border-slate-200 px-5 py-4 text-base font-semibold text-slate-900">{t('dashboard.attention')}</h2>
            <ul className="grid gap-px bg-slate-100 sm:grid-cols-2 xl:grid-cols-5">
              {(
                [
                  ['unknown', d.unknownOrders, `${base}/orders?status=unknown`],
                  ['delayed', d.delayedOrders, `${base}/orders?delayed=1`],
                  ['funds', d.waitingForFunds, `${base}/orders?funds=1`],
                  ['flagged', d.flaggedPayments, `${base}/payments?flagged=1`],
                  ['tickets', d.waitingTickets, `${base}/support?status=open`],
                ] as const
              ).map(([key, count, to]) => (
                <li key={key} className="bg-white">
                  <Link to={to} data-testid={`attention-${key}`} className="flex h-full items-baseline justify-between gap-3 px-5 py-4 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500">
                    <span className="text-sm font-medium text-slate-700">{t(`dashboard.attentionItems.${key}`)}</span>
                    <span className={`text-xl font-bold tabular-nums ${count > 0 ? 'text-amber-700' : 'text-slate-400'}`}>{formatNumber(count, lang)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </Panel>

          {d.providers.length > 0 && (
            <Panel className="mb-8" data-testid="provider-balances">
              <h2 className="border-b border-slate-200 px-5 py-4 text-base font-semibold text-slate-900">{t('dashboard.providerBalances')}</h2>
              <ul className="divide-y divide-slate-100">
                {d.providers.map((p) => (
                  <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-2 px-5 py-3 text-sm">
                    <Link to={`${base}/providers`} className="font-medium text-slate-900 underline-offset-2 hover:underline">
                      {p.name}
                    </Link>
                    <span className={`tabular-nums ${p.low || p.fundsShortSince ? 'font-semibold text-rose-700' : 'text-slate-700'}`} data-low={p.low || !!p.fundsShortSince}>
                      {p.balance === null ? t('dashboard.balanceNotRead') : `${p.balance} ${p.currency ?? ''}`.trim()}
                      {p.low && <span className="ml-2">{t('dashboard.belowThreshold')}</span>}
                    </span>
                  </li>
                ))}
              </ul>
            </Panel>
          )}

          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            <StatCard testId="stat-users" label={t('dashboard.totalUsers')} value={formatNumber(d.totalUsers, lang)} icon={Users} tone="brand" />
            <StatCard testId="stat-orders" label={t('dashboard.totalOrders')} value={formatNumber(d.totalOrders, lang)} icon={ShoppingCart} tone="sky" />
            <StatCard testId="stat-services" label={t('dashboard.activeServices')} value={formatNumber(d.activeServices, lang)} icon={Package} tone="violet" />
            <StatCard testId="stat-pending" label={t('dashboard.pendingOrders')} value={formatNumber(d.pendingOrders, lang)} icon={Clock} tone="amber" />
            <StatCard testId="stat-completed" label={t('dashboard.completedOrders')} value={formatNumber(d.completedOrders, lang)} icon={CheckCircle2} tone="emerald" />
            <Link to={`${base}/orders?delayed=1`} aria-label={t('dashboard.showDelayed')} title={t('dashboard.showDelayed')} className="block rounded-2xl hover:opacity-90 focus-visible:outline-2 focus-visible:outline-brand-500">
              <StatCard testId="stat-delayed" label={t('dashboard.delayedOrders')} value={formatNumber(d.delayedOrders, lang)} icon={AlarmClock} tone="amber" />
            </Link>
          </div>

          {(d.providerAlerts.length > 0 || d.waitingForFunds > 0) && (
            <section role="alert" aria-labelledby="provider-alerts" data-testid="provider-alerts" className="mt-8 rounded-2xl border border-amber-300 bg-amber-50 p-5">
              <h2 id="provider-alerts" className="flex items-center gap-2 text-base font-semibold text-amber-900">
                <AlertTriangle className="size-5" aria-hidden="true" />
                {t('dashboard.providersAttention')}
              </h2>
              <ul className="mt-3 space-y-2 text-sm text-amber-900">
                {d.providerAlerts.map((p) => (
                  <li key={p.id} className="flex flex-wrap items-baseline gap-x-2">
                    <Link to={`${base}/providers`} className="font-semibold underline underline-offset-2">
                      {p.name}
                    </Link>
                    {p.fundsShortSince ? (
                      <span>{t('dashboard.providerOutOfFunds', { since: formatDateTime(p.fundsShortSince, lang) })}</span>
                    ) : (
                      <span>{t('dashboard.providerLowBalance', { balance: p.balance ?? '—', currency: p.currency ?? '' })}</span>
                    )}
                  </li>
                ))}
                {d.waitingForFunds > 0 && <li>{t('dashboard.waitingForFunds', { count: d.waitingForFunds })}</li>}
              </ul>
            </section>
          )}

          <Panel className="mt-8">
            <h2 className="border-b border-slate-200 px-5 py-4 text-base font-semibold text-slate-900">{t('dashboard.latest')}</h2>
            {d.latestOrders.length === 0 ? (
              <Empty text={t('dashboard.noOrders')} />
            ) : (
              <Table
                label={t('dashboard.latest')}
                minWidth="min-w-[560px]"
                head={
                  <>
                    <Th>{t('orders.service')}</Th>
                    <Th>{t('orders.date')}</Th>
                    <Th className="text-right">{t('orders.price')}</Th>
                    <Th>{t('orders.status')}</Th>
                  </>
                }
              >
                  {d.latestOrders.map((o) => {
                    const s = dashboardStatus(o.status);
                    return (
                      <tr key={o.id}>
                        <td className={td}>
                          <p className="font-medium text-slate-900">{o.serviceName}</p>
                          <p className="whitespace-nowrap font-mono text-xs text-slate-500">{o.number}</p>
                        </td>
                        <td className={`${td} whitespace-nowrap`}>{formatDateTime(o.createdAt, lang)}</td>
                        <td className={`${td} whitespace-nowrap text-right font-medium tabular-nums`}>{formatMoney(o.chargeMicros, 'USD', lang)}</td>
                        <td className={td}>
                          <Badge tone={s.tone}>{t(`dashboard.status.${s.key}`)}</Badge>
                        </td>
                      </tr>
                    );
                  })}
              </Table>
            )}
          </Panel>
        </>
      )}
    </AdminPage>
  );
}
