import { Search } from 'lucide-react';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n';
import type { PublicService } from '../../../core/contracts/catalog';
import { FieldError, Input, Label } from '../../components/ui/Input';
import { filterServices } from './catalogIndex';
import { formatUsd } from './orderForm';

const select =
  'block h-12 w-full truncate rounded-xl border border-slate-300 bg-white px-3.5 text-sm text-slate-900 shadow-sm focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0 aria-invalid:border-rose-500';

/**
 * The service select with a filter above it. Filtering is deferred, so typing stays responsive
 * with thousands of services; the options are rebuilt only when the filtered list changes.
 */
export const ServicePicker = memo(function ServicePicker({
  platform,
  services,
  selected,
  onChange,
  locale,
  error,
}: {
  platform: string;
  services: readonly PublicService[];
  selected: PublicService | undefined;
  onChange: (service: PublicService | undefined) => void;
  locale: string;
  error?: string;
}) {
  const { t } = useTranslation('catalog');
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const filtered = useMemo(() => filterServices(services, deferred), [services, deferred]);
  const byId = useMemo(() => new Map(services.map((s) => [s.id, s])), [services]);

  const options = useMemo(() => {
    // The chosen service stays listed while a filter hides it, so the select keeps showing it.
    const shown = selected && !filtered.includes(selected) ? [selected, ...filtered] : filtered;
    return shown.map((s) => (
      <option key={s.id} value={s.id}>
        {s.displayPrice === null
          ? s.name
          : `${s.name} — ${t('service.optionPrice', { price: formatUsd(s.displayPrice, locale), per: s.displayPer })}`}
      </option>
    ));
  }, [filtered, selected, locale, t]);

  return (
    <div className="grid gap-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
      <div>
        <Label htmlFor="order-service-search">{t('service.search')}</Label>
        <div className="relative">
          <Search className="pointer-events-none absolute left-3.5 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <Input
            id="order-service-search"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t('service.searchPlaceholder')}
            autoComplete="off"
            className="h-12 pl-10"
          />
        </div>
      </div>
      <div className="min-w-0">
        <Label htmlFor="order-service">
          {t('service.label')} <span aria-hidden="true" className="text-rose-600">*</span>
        </Label>
        <select
          id="order-service"
          className={select}
          value={selected?.id ?? ''}
          onChange={(e) => onChange(byId.get(e.target.value))}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby="order-service-count order-service-error"
          data-platform={platform}
          data-count={filtered.length}
        >
          <option value="">{filtered.length > 0 ? t('service.placeholder') : t('service.noMatch')}</option>
          {options}
        </select>
        <p id="order-service-count" aria-live="polite" className="mt-1.5 text-xs text-slate-500">
          {deferred.trim() ? t('service.matches', { count: filtered.length }) : t('service.count', { count: filtered.length })}
        </p>
        <FieldError id="order-service-error">{error}</FieldError>
      </div>
    </div>
  );
});
