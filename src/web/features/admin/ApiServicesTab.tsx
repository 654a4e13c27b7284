import { RefreshCw, Search } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n';
import { platformDisplayName } from '../../../core/platforms';
import { Button } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { useApiServices, useRefreshApiServices } from './api';
import { count, notify, notifyError, usdDecimal } from './format';
import { pricePer1000 } from './forms';
import { Empty, LoadError, Loading, Panel, Table, td, th } from './ui';

/** The provider's catalogue as synced: public name, platform, minimum, increment, $ per 1000. */
export function ApiServicesTab() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const services = useApiServices();
  const refresh = useRefreshApiServices();
  const [filter, setFilter] = useState('');

  useEffect(() => {
    if (services.isError) notifyError(t, 'notices.apiServicesNotLoaded', services.error);
  }, [services.isError, services.error, t]);

  const rows = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const all = services.data ?? [];
    return q ? all.filter((s) => s.name.toLowerCase().includes(q) || s.platform.toLowerCase().includes(q) || String(s.id) === q) : all;
  }, [services.data, filter]);

  const runRefresh = () =>
    refresh.mutate(undefined, {
      onSuccess: () => notify.success(t('notices.apiServicesRefreshed')),
      onError: (err) => notifyError(t, 'notices.apiServicesNotLoaded', err),
    });

  return (
    <Panel>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
        <div className="relative w-full max-w-sm">
          <label htmlFor="api-filter" className="sr-only">
            {t('services.filter')}
          </label>
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <Input id="api-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={t('services.filter')} className="h-10 py-2 pl-9" />
        </div>
        <div className="flex items-center gap-3">
          {services.data ? <span className="text-sm text-slate-500">{t('services.apiCount', { formatted: count(rows.length, lang), count: rows.length })}</span> : null}
          <Button size="sm" variant="outline" onClick={runRefresh} disabled={refresh.isPending} aria-busy={refresh.isPending}>
            <RefreshCw className={`size-4 ${refresh.isPending ? 'animate-spin' : ''}`} aria-hidden="true" />
            {t('services.refresh')}
          </Button>
        </div>
      </div>
      {services.isError && !services.data ? (
        <LoadError message={t('notices.apiServicesNotLoaded')} onRetry={() => void services.refetch()} />
      ) : !services.data ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Empty text={t('services.apiEmpty')} />
      ) : (
        <Table label={t('services.tabs.api')} minWidth="min-w-[760px]">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={th}>
                ID
              </th>
              <th scope="col" className={th}>
                {t('services.publicName')}
              </th>
              <th scope="col" className={th}>
                {t('services.platform')}
              </th>
              <th scope="col" className={`${th} text-right`}>
                {t('services.minimum')}
              </th>
              <th scope="col" className={`${th} text-right`}>
                {t('services.increment')}
              </th>
              <th scope="col" className={`${th} text-right`}>
                {t('services.per1000')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((s) => {
              const price = pricePer1000(s.tiers);
              return (
                <tr key={s.id}>
                  <td className={`${td} font-mono text-xs text-slate-500`}>{s.id}</td>
                  <td className={`${td} font-medium text-slate-900`}>{s.name}</td>
                  <td className={td}>{s.platform ? platformDisplayName(s.platform) : '—'}</td>
                  <td className={`${td} text-right tabular-nums`}>{count(s.amountMinimum, lang)}</td>
                  <td className={`${td} text-right tabular-nums`}>{count(s.amountIncrement, lang)}</td>
                  <td className={`${td} whitespace-nowrap text-right font-medium tabular-nums`}>{price === null ? '—' : usdDecimal(price, lang)}</td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
    </Panel>
  );
}
