import { Download } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { TabList, TabPanel } from '../../components/ui/Tabs';
import { useSearchParams } from 'react-router';
import { ANALYTICS_GROUPS, ANALYTICS_PERIODS, BREAKDOWNS, type AnalyticsGroup, type AnalyticsPeriod, type AnalyticsTable, type Breakdown } from '../../../core/analytics';
import { platformDisplayName } from '../../../core/platforms';
import type { PageMeta } from '../../app/page';
import { Input } from '../../components/ui/Input';
import { useTranslation, type TFunction } from '../../i18n';
import { ApiError } from '../../lib/api';
import { errorText } from '../../lib/errorText';
import { formatDay, formatMoney, formatNumber } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { analyticsExportUrl, useAnalytics, useAnalyticsBreakdown, type AnalyticsData, type AnalyticsSearch } from './api';
import { AdminPage, LoadError, Loading, Panel, Select, StatCard, Table, td, Th } from './ui';
import { Banknote, Percent, RotateCcw, ShoppingCart, TrendingUp, UserPlus, Wallet, Wrench } from 'lucide-react';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:analytics.title')} · ${site.site_name}` });

const isPeriod = (v: string | null): v is AnalyticsPeriod => (ANALYTICS_PERIODS as readonly string[]).includes(v ?? '');
const isGroup = (v: string | null): v is AnalyticsGroup => (ANALYTICS_GROUPS as readonly string[]).includes(v ?? '');
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The page's query, kept in the address so a period can be shared and reloaded. */
function useAnalyticsSearch(): [AnalyticsSearch, (patch: Partial<AnalyticsSearch>) => void] {
  const [params, setParams] = useSearchParams();
  const period = params.get('period');
  const group = params.get('group');
  const q: AnalyticsSearch = {
    period: isPeriod(period) ? period : '30d',
    group: isGroup(group) ? group : 'day',
    ...(DAY.test(params.get('from') ?? '') ? { from: params.get('from')! } : {}),
    ...(DAY.test(params.get('to') ?? '') ? { to: params.get('to')! } : {}),
  };
  const set = (patch: Partial<AnalyticsSearch>) => {
    const next = { ...q, ...patch };
    const out: Record<string, string> = { period: next.period, group: next.group };
    if (next.period === 'custom') {
      if (next.from) out.from = next.from;
      if (next.to) out.to = next.to;
    }
    setParams(out, { replace: true });
  };
  return [q, set];
}

const usd = (micros: number, lang: string) => formatMoney(micros, 'USD', lang);
const percent = (v: number | null, lang: string) => (v === null ? '—' : `${formatNumber(v, lang)} %`);

/** /admin/analytics: the owner's figures for a period (docs/rules.md#owner-figures), each chart with the table behind it and its CSV. */
export default function AdminAnalyticsPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const id = useId();
  const [q, set] = useAnalyticsSearch();
  const query = useAnalytics(q);
  const d = query.data;
  const refused = query.error instanceof ApiError && query.error.code === 'PERIOD_INVALID';

  return (
    <AdminPage title={t('analytics.title')} description={t('analytics.lead')}>
      <Panel className="mb-6">
        <form role="search" aria-label={t('analytics.filters')} className="grid grid-cols-2 gap-3 p-4 lg:grid-cols-4" onSubmit={(e) => e.preventDefault()}>
          <div className="text-sm font-medium text-slate-700">
            <label htmlFor={`${id}-period`}>{t('analytics.period')}</label>
            <Select id={`${id}-period`} className="mt-1" value={q.period} onChange={(e) => set({ period: e.target.value as AnalyticsPeriod })}>
              {ANALYTICS_PERIODS.map((p) => (
                <option key={p} value={p}>
                  {t(`analytics.periods.${p}`)}
                </option>
              ))}
            </Select>
          </div>
          <div className="text-sm font-medium text-slate-700">
            <label htmlFor={`${id}-group`}>{t('analytics.group')}</label>
            <Select id={`${id}-group`} className="mt-1" value={q.group} onChange={(e) => set({ group: e.target.value as AnalyticsGroup })}>
              {ANALYTICS_GROUPS.map((g) => (
                <option key={g} value={g}>
                  {t(`analytics.groups.${g}`)}
                </option>
              ))}
            </Select>
          </div>
          {q.period === 'custom' && (
            <>
              <div className="text-sm font-medium text-slate-700">
                <label htmlFor={`${id}-from`}>{t('analytics.from')}</label>
                <Input id={`${id}-from`} type="date" className="mt-1 h-10 py-2" value={q.from ?? ''} max={q.to} onChange={(e) => set({ from: e.target.value || undefined })} />
              </div>
              <div className="text-sm font-medium text-slate-700">
                <label htmlFor={`${id}-to`}>{t('analytics.to')}</label>
                <Input id={`${id}-to`} type="date" className="mt-1 h-10 py-2" value={q.to ?? ''} min={q.from} onChange={(e) => set({ to: e.target.value || undefined })} />
              </div>
            </>
          )}
        </form>
        {d && !refused && (
          <p className="border-t border-slate-200 px-4 py-3 text-sm text-slate-600" data-testid="analytics-period">
            {t('analytics.shown', { from: formatDay(d.period.from, lang), to: formatDay(d.period.to, lang), count: d.period.days })}
          </p>
        )}
      </Panel>

      {refused ? (
        <p role="alert" className="rounded-2xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-800" data-testid="period-invalid">
          {errorText(t, query.error, 'admin')}
        </p>
      ) : query.isError && !d ? (
        <Panel>
          <LoadError message={t('analytics.notLoaded')} error={query.error} onRetry={() => void query.refetch()} />
        </Panel>
      ) : !d ? (
        <Loading />
      ) : (
        <Figures d={d} q={q} t={t} lang={lang} />
      )}
    </AdminPage>
  );
}

function Figures({ d, q, t, lang }: { d: AnalyticsData; q: AnalyticsSearch; t: TFunction; lang: string }) {
  const s = d.totals;
  // A week or month is named by its first day.
  const bucketLabel = (b: string) => formatDay(b, lang);
  return (
    <>
      <div className="mb-8 grid gap-4 sm:grid-cols-2 xl:grid-cols-4" data-testid="analytics-totals">
        <StatCard testId="total-sales" label={t('analytics.figures.sales')} value={usd(s.salesMicros, lang)} icon={ShoppingCart} tone="emerald" />
        <StatCard testId="total-cost" label={t('analytics.figures.cost')} value={usd(s.costMicros, lang)} icon={Wrench} tone="amber" />
        <StatCard testId="total-profit" label={t('analytics.figures.grossProfit')} value={usd(s.grossProfitMicros, lang)} icon={TrendingUp} tone="emerald" />
        <StatCard testId="total-margin" label={t('analytics.figures.margin')} value={percent(s.marginPercent, lang)} icon={Percent} tone="sky" />
        <StatCard testId="total-refunds" label={t('analytics.figures.refunds')} value={usd(s.refundsMicros, lang)} icon={RotateCcw} tone="rose" />
        <StatCard
          testId="total-topups"
          label={t('analytics.figures.topUps')}
          value={
            <>
              {formatMoney(s.topUpsQepik, 'AZN', lang)}
              <span className="block text-sm font-medium text-slate-500">{usd(s.topUpsMicros, lang)}</span>
            </>
          }
          icon={Banknote}
          tone="violet"
        />
        <StatCard testId="total-orders" label={t('analytics.figures.orders')} value={formatNumber(s.orders, lang)} icon={Wallet} tone="brand" />
        <StatCard testId="total-customers" label={t('analytics.figures.newCustomers')} value={formatNumber(s.newCustomers, lang)} icon={UserPlus} tone="brand" />
      </div>

      <Section title={t('analytics.seriesTitle')} exportHref={analyticsExportUrl(q, 'series')} table="series" t={t} testId="section-series">
        <SeriesChart rows={d.series} label={bucketLabel} t={t} lang={lang} />
        <Table
          label={t('analytics.seriesTitle')}
          minWidth="min-w-[900px]"
          head={
            <>
              <Th>{t(`analytics.bucket.${q.group}`)}</Th>
              {(['sales', 'cost', 'grossProfit', 'margin', 'refunds', 'topUps', 'orders', 'newCustomers'] as const).map((k) => (
                <Th key={k} className="text-right">
                  {t(`analytics.figures.${k}`)}
                </Th>
              ))}
            </>
          }
        >
          {d.series.map((r) => (
            <tr key={r.bucket}>
              <td className={`${td} whitespace-nowrap`}>{bucketLabel(r.bucket)}</td>
              <Num>{usd(r.salesMicros, lang)}</Num>
              <Num>{usd(r.costMicros, lang)}</Num>
              <Num>{usd(r.grossProfitMicros, lang)}</Num>
              <Num>{percent(r.marginPercent, lang)}</Num>
              <Num>{usd(r.refundsMicros, lang)}</Num>
              <Num>
                {formatMoney(r.topUpsQepik, 'AZN', lang)} · {usd(r.topUpsMicros, lang)}
              </Num>
              <Num>{formatNumber(r.orders, lang)}</Num>
              <Num>{formatNumber(r.newCustomers, lang)}</Num>
            </tr>
          ))}
        </Table>
      </Section>

      <Section title={t('analytics.statusesTitle')} exportHref={analyticsExportUrl(q, 'statuses')} table="statuses" t={t} testId="section-statuses">
        <Bars rows={d.statuses.filter((r) => r.orders > 0).map((r) => ({ key: r.status, label: t(`status.${r.status}`), value: r.orders, shown: formatNumber(r.orders, lang) }))} empty={t('analytics.noOrders')} />
        <Table
          label={t('analytics.statusesTitle')}
          minWidth="min-w-[320px]"
          head={
            <>
              <Th>{t('orders.status')}</Th>
              <Th className="text-right">{t('analytics.figures.orders')}</Th>
            </>
          }
        >
          {d.statuses.map((r) => (
            <tr key={r.status}>
              <td className={td}>{t(`status.${r.status}`)}</td>
              <Num>{formatNumber(r.orders, lang)}</Num>
            </tr>
          ))}
        </Table>
      </Section>

      <Breakdowns q={q} t={t} lang={lang} />
    </>
  );
}

/** The breakdowns, one tab each: only the one shown is asked for, so the page stays light over long periods. */
function Breakdowns({ q, t, lang }: { q: AnalyticsSearch; t: TFunction; lang: string }) {
  const [by, setBy] = useState<Breakdown>('platform');
  const prefix = useId();
  return (
    <section aria-label={t('analytics.breakdowns')} className="mb-8">
      <TabList items={BREAKDOWNS.map((id) => ({ id, label: t(`analytics.by.${id}`) }))} value={by} onChange={setBy} label={t('analytics.breakdowns')} idPrefix={prefix} look="line" />
      <TabPanel id={by} idPrefix={prefix} active className="mt-4">
        <BreakdownSection by={by} q={q} t={t} lang={lang} />
      </TabPanel>
    </section>
  );
}

function Num({ children }: { children: ReactNode }) {
  return <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{children}</td>;
}

function Section({ title, exportHref, table, t, testId, children }: { title: string; exportHref: string; table: AnalyticsTable; t: TFunction; testId: string; children: ReactNode }) {
  return (
    <Panel className={table === 'series' || table === 'statuses' ? 'mb-8' : undefined} data-testid={testId}>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-5 py-4">
        <h2 className="text-base font-semibold text-slate-900">{title}</h2>
        <a href={exportHref} download data-testid={`export-${table}`} className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50">
          <Download className="size-4" aria-hidden="true" />
          {t('analytics.exportCsv')}
        </a>
      </div>
      {children}
    </Panel>
  );
}

const SERIES_BARS = [
  { key: 'salesMicros', label: 'sales', color: 'fill-emerald-500' },
  { key: 'costMicros', label: 'cost', color: 'fill-amber-400' },
  { key: 'grossProfitMicros', label: 'grossProfit', color: 'fill-sky-600' },
] as const;

/** Sales, cost and gross profit of each group as bars drawn in SVG; values below zero go below the line. */
function SeriesChart({ rows, label, t, lang }: { rows: AnalyticsData['series']; label: (b: string) => string; t: TFunction; lang: string }) {
  const values = rows.flatMap((r) => SERIES_BARS.map((b) => r[b.key]));
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const H = 160;
  const group = 3 * 8 + 8;
  const W = Math.max(rows.length * group, 1);
  const y = (v: number) => ((max - v) / span) * H;
  return (
    <figure className="px-5 py-4" data-testid="series-chart">
      <div className="overflow-x-auto">
        <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" className="h-40 w-full min-w-[240px]" role="img" aria-label={t('analytics.chartLabel')}>
          <line x1={0} x2={W} y1={y(0)} y2={y(0)} className="stroke-slate-300" strokeWidth={0.5} />
          {rows.map((r, i) =>
            SERIES_BARS.map((b, j) => {
              const v = r[b.key];
              const top = Math.min(y(v), y(0));
              return (
                <rect key={`${r.bucket}-${b.key}`} x={i * group + 4 + j * 8} y={top} width={7} height={Math.max(Math.abs(y(v) - y(0)), v === 0 ? 0 : 0.5)} className={b.color}>
                  <title>{`${label(r.bucket)} · ${t(`analytics.figures.${b.label}`)}: ${usd(v, lang)}`}</title>
                </rect>
              );
            }),
          )}
        </svg>
      </div>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600">
        {SERIES_BARS.map((b) => (
          <span key={b.key} className="inline-flex items-center gap-1.5">
            <svg className="size-3" aria-hidden="true" viewBox="0 0 10 10">
              <rect width={10} height={10} className={b.color} />
            </svg>
            {t(`analytics.figures.${b.label}`)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** Horizontal bars in CSS, one per row, the longest the biggest value (negative values show no bar). */
function Bars({ rows, empty }: { rows: { key: string; label: string; value: number; shown: string }[]; empty: string }) {
  const max = Math.max(0, ...rows.map((r) => r.value)) || 1;
  if (rows.length === 0) return <p className="px-5 py-4 text-sm text-slate-500">{empty}</p>;
  return (
    <ul className="space-y-2 px-5 py-4" aria-hidden="true">
      {rows.map((r) => (
        <li key={r.key} className="grid grid-cols-[minmax(6rem,10rem)_1fr_auto] items-center gap-3 text-sm">
          <span className="truncate text-slate-700">{r.label}</span>
          <span className="h-3 rounded bg-slate-100">
            <span className="block h-3 rounded bg-brand-500" style={{ width: `${Math.max(0, (r.value / max) * 100)}%` }} />
          </span>
          <span className="tabular-nums text-slate-700">{r.shown}</span>
        </li>
      ))}
    </ul>
  );
}

function BreakdownSection({ by, q, t, lang }: { by: Breakdown; q: AnalyticsSearch; t: TFunction; lang: string }) {
  const query = useAnalyticsBreakdown(q, by);
  const rows = query.data?.rows;
  const name = (r: { key: string | null; label: string | null }) => {
    if (by === 'platform') return r.key ? platformDisplayName(r.key) : '—';
    if (by === 'provider') return r.label ?? t('analytics.defaultProvider');
    if (by === 'customer') return r.key === null ? t('analytics.otherCustomers') : (r.label ?? r.key);
    return r.label ?? r.key ?? '—';
  };
  const title = t(`analytics.by.${by}`);
  return (
    <Section title={title} exportHref={analyticsExportUrl(q, by)} table={by} t={t} testId={`section-${by}`}>
      {query.isError && !rows ? (
        <LoadError message={t('analytics.notLoaded')} error={query.error} onRetry={() => void query.refetch()} />
      ) : !rows ? (
        <Loading />
      ) : (
        <>
          <Bars rows={rows.slice(0, 10).map((r) => ({ key: String(r.key), label: name(r), value: r.salesMicros, shown: usd(r.salesMicros, lang) }))} empty={t('analytics.noSales')} />
          <Table
            label={title}
            minWidth="min-w-[720px]"
            head={
              <>
                <Th>{t(`analytics.dimension.${by}`)}</Th>
                {(['sales', 'refunds', 'cost', 'grossProfit', 'margin', 'orders'] as const).map((k) => (
                  <Th key={k} className="text-right">
                    {t(`analytics.figures.${k}`)}
                  </Th>
                ))}
              </>
            }
          >
            {rows.map((r) => (
              <tr key={String(r.key)}>
                <td className={`${td} max-w-[16rem] truncate`}>{name(r)}</td>
                <Num>{usd(r.salesMicros, lang)}</Num>
                <Num>{usd(r.refundsMicros, lang)}</Num>
                <Num>{usd(r.costMicros, lang)}</Num>
                <Num>{usd(r.grossProfitMicros, lang)}</Num>
                <Num>{percent(r.marginPercent, lang)}</Num>
                <Num>{formatNumber(r.orders, lang)}</Num>
              </tr>
            ))}
          </Table>
        </>
      )}
    </Section>
  );
}
