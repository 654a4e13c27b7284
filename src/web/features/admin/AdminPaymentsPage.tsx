import { Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ADMIN_PAYMENT_STATUS_FILTERS } from '../../../core/contracts/admin';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Button, buttonClass } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { formatNumber } from '../../lib/format';
import { useCan } from './access';
import { BonusesPanel } from './BonusesPanel';
import { paymentsExportUrl, usePayments, type AdminPayment, type PaymentsQuery } from './api';
import { PaymentsTable, RefundDialog, ReversalDialog, ReviewDialog } from './PaymentsTable';
import { AdminPage, FilterField, Pager, Panel, QueryView, SearchField, Select } from './ui';

export const ns = ['admin', 'payments'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:payments.title')} · ${site.site_name}` });

/** The filters the address carries (docs/rules.md#payments): the dashboard links here with them. */
const FILTER_KEYS = ['status', 'method', 'q', 'userId', 'from', 'to', 'flagged', 'page'] as const;

/** /admin/payments: every payment, newest first, filtered from the address, exported as CSV; chargebacks (docs/decisions/0019). */
export default function AdminPaymentsPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [params, setParams] = useSearchParams();
  const filters: PaymentsQuery = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  const [text, setText] = useState(filters.q ?? '');
  const set = (patch: PaymentsQuery) => {
    const next = { ...filters, page: undefined, ...patch };
    setParams(Object.fromEntries(Object.entries(next).filter((e): e is [string, string] => !!e[1])), { replace: true });
  };
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((filters.q ?? '') !== text.trim()) set({ q: text.trim() || undefined });
    }, 300);
    return () => clearTimeout(timer);
    // Only the text typed starts the search.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  const payments = usePayments(filters);
  const data = payments.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const [reversing, setReversing] = useState<AdminPayment | null>(null);
  const [refunding, setRefunding] = useState<AdminPayment | null>(null);
  const [reviewing, setReviewing] = useState<AdminPayment | null>(null);
  const readsPayments = useCan()('payments:read');

  return (
    <AdminPage
      title={t('payments.title')}
      description={data ? t('payments.total', { count: data.total, formatted: formatNumber(data.total, lang) }) : t('payments.lead')}
      actions={
        <a href={paymentsExportUrl(filters)} download className={buttonClass('outline', 'sm')} data-testid="payments-export">
          <Download className="size-4" aria-hidden="true" />
          {t('payments.export')}
        </a>
      }
    >
      <Panel>
        <div className="grid grid-cols-2 gap-3 border-b border-slate-200 p-4 lg:grid-cols-5">
          <SearchField id="payment-search" label={t('payments.search')} value={text} onChange={setText} placeholder={t('payments.searchPlaceholder')} className="col-span-2 lg:col-span-5" />
          <FilterField id="payment-status" label={t('payments.statusFilter')}>
            <Select id="payment-status" value={filters.status ?? ''} onChange={(e) => set({ status: e.target.value || undefined })}>
              <option value="">{t('payments.allStatuses')}</option>
              {ADMIN_PAYMENT_STATUS_FILTERS.map((st) => (
                <option key={st} value={st}>
                  {t(`payments.status.${st}`)}
                </option>
              ))}
            </Select>
          </FilterField>
          <FilterField id="payment-method" label={t('payments.method')}>
            <Select id="payment-method" value={filters.method ?? ''} onChange={(e) => set({ method: e.target.value || undefined })}>
              <option value="">{t('payments.allMethods')}</option>
              {[...new Set([...(data?.methods ?? []), ...(filters.method ? [filters.method] : [])])].map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </Select>
          </FilterField>
          <FilterField id="payment-flagged" label={t('payments.flag')}>
            <Select id="payment-flagged" value={filters.flagged ? '1' : ''} onChange={(e) => set({ flagged: e.target.value || undefined })}>
              <option value="">{t('payments.allPayments')}</option>
              <option value="1">{t('payments.flaggedOnly')}</option>
            </Select>
          </FilterField>
          <FilterField id="payment-from" label={t('payments.from')}>
            <Input id="payment-from" type="date" value={filters.from ?? ''} max={filters.to} onChange={(e) => set({ from: e.target.value || undefined })} className="h-10 py-2" />
          </FilterField>
          <FilterField id="payment-to" label={t('payments.to')}>
            <Input id="payment-to" type="date" value={filters.to ?? ''} min={filters.from} onChange={(e) => set({ to: e.target.value || undefined })} className="h-10 py-2" />
          </FilterField>
          {filters.userId ? (
            <p className="col-span-2 flex items-center gap-2 text-sm text-slate-600 lg:col-span-5">
              {t('payments.oneCustomer')}
              <Button size="sm" variant="outline" onClick={() => set({ userId: undefined })}>
                {t('payments.allCustomers')}
              </Button>
            </p>
          ) : null}
        </div>

        <QueryView query={payments} error={t('payments.notLoaded')} empty={t('payments.empty')} isEmpty={(d) => d.payments.length === 0}>
          {(d) => <PaymentsTable payments={d.payments} onReverse={setReversing} onReview={setReviewing} onRefund={setRefunding} />}
        </QueryView>

        {data ? <Pager page={data.page} pages={pages} label={t('payments.paging')} onPage={(p) => set({ page: String(p) })} /> : null}
      </Panel>
      {readsPayments ? <BonusesPanel /> : null}
      {reversing ? <ReversalDialog payment={reversing} onClose={() => setReversing(null)} /> : null}
      {refunding ? <RefundDialog payment={refunding} onClose={() => setRefunding(null)} /> : null}
      {reviewing ? <ReviewDialog payment={reviewing} onClose={() => setReviewing(null)} /> : null}
    </AdminPage>
  );
}

