import { Network, RefreshCw } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../i18n';
import { platformDisplayName } from '../../../core/platforms';
import { Button } from '../../components/ui/Button';
import { useLanguage } from '../../lib/language';
import { useApiServices, useRefreshApiServices, type ApiService } from './api';
import { notify, notifyError } from './format';
import { pricePer1000 } from './forms';
import { ServiceSourcesDialog } from './ServiceSourcesDialog';
import { Panel, QueryView, SearchField, Table, td, Th, useFailureNotice } from './ui';
import { formatMoneyDecimal, formatNumber } from '../../lib/format';

/** The shop's services bought from providers: public name, platform, minimum, increment, $ per 1000, and each one's sources. */
export function ApiServicesTab() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const services = useApiServices();
  const refresh = useRefreshApiServices();
  const [filter, setFilter] = useState('');
  const [sourcesOf, setSourcesOf] = useState<ApiService | null>(null);

  useFailureNotice(services, 'notices.apiServicesNotLoaded');

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
        <SearchField id="api-filter" label={t('services.filter')} value={filter} onChange={setFilter} placeholder={t('services.filter')} className="w-full max-w-sm" />
        <div className="flex items-center gap-3">
          {services.data ? <span className="text-sm text-slate-500">{t('services.apiCount', { formatted: formatNumber(rows.length, lang), count: rows.length })}</span> : null}
          <Button size="sm" variant="outline" onClick={runRefresh} disabled={refresh.isPending} aria-busy={refresh.isPending}>
            <RefreshCw className={`size-4 ${refresh.isPending ? 'animate-spin' : ''}`} aria-hidden="true" />
            {t('services.refresh')}
          </Button>
        </div>
      </div>
      <QueryView query={services} error={t('notices.apiServicesNotLoaded')} empty={t('services.apiEmpty')} isEmpty={() => rows.length === 0}>
        {() => (
          <Table
            label={t('services.tabs.api')}
            minWidth="min-w-[880px]"
            head={
              <>
                <Th>ID</Th>
                <Th>{t('services.publicName')}</Th>
                <Th>{t('services.platform')}</Th>
                <Th className="text-right">{t('services.minimum')}</Th>
                <Th className="text-right">{t('services.increment')}</Th>
                <Th className="text-right">{t('services.per1000')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </>
            }
          >
            {rows.map((s) => {
              const price = pricePer1000(s);
              return (
                <tr key={s.id}>
                  <td className={`${td} font-mono text-xs text-slate-500`}>{s.id}</td>
                  <td className={`${td} font-medium text-slate-900`}>{s.name}</td>
                  <td className={td}>{s.platform ? platformDisplayName(s.platform) : '—'}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatNumber(s.amountMinimum, lang)}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatNumber(s.amountIncrement, lang)}</td>
                  <td className={`${td} whitespace-nowrap text-right font-medium tabular-nums`}>{price === null ? '—' : formatMoneyDecimal(price, 'USD', lang)}</td>
                  <td className={`${td} whitespace-nowrap text-right`}>
                    <Button size="sm" variant="outline" onClick={() => setSourcesOf(s)} aria-label={t('catalogue.sourcesItem', { name: s.name })}>
                      <Network className="size-4" aria-hidden="true" />
                      {t('catalogue.sources')}
                    </Button>
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </QueryView>
      {sourcesOf ? <ServiceSourcesDialog service={{ id: String(sourcesOf.id), name: sourcesOf.name }} onClose={() => setSourcesOf(null)} /> : null}
    </Panel>
  );
}
