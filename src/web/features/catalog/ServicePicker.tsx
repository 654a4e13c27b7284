import { Search } from 'lucide-react';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n';
import type { PublicService } from '../../../core/contracts/catalog';
import type { Fees } from '../../../core/pricing';
import { FieldError, Input, Label } from '../../components/ui/Input';
import { searchPlatform, type PlatformServices } from './catalogIndex';
import { formatMoneyDecimal, formatNumber } from '../../lib/format';
import { durationText } from './figures';
import { unitPrice } from './orderForm';

const select =
  'block h-12 w-full truncate rounded-xl border border-slate-300 bg-white px-3.5 text-sm text-slate-900 shadow-sm focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0 aria-invalid:border-rose-500';

/**
 * The service select with a search above it; each option says its price and, when known, its
 * average time (docs/rules.md#service-figures). Without a query the select lists the chosen type's
 * services; with one it lists the matches among every type of the platform, under their types,
 * and choosing one of another type switches to that type (the parent follows `service.group`).
 * The search is deferred, so typing stays responsive with thousands of services; the options are
 * rebuilt only when the matches change.
 */
export const ServicePicker = memo(function ServicePicker({
  platform,
  services,
  platformServices,
  selected,
  onChange,
  locale,
  error,
  fees,
}: {
  platform: string;
  /** The chosen type's services. */
  services: readonly PublicService[];
  /** Every type's services of the platform: what the search looks through. */
  platformServices: PlatformServices;
  selected: PublicService | undefined;
  onChange: (service: PublicService | undefined) => void;
  locale: string;
  error?: string;
  /** The signed-in customer's fees: with a discount, each option says their own price (docs/rules.md#discounts). */
  fees?: Fees;
}) {
  const { t } = useTranslation('catalog');
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const searching = deferred.trim() !== '';
  const hits = useMemo(() => searchPlatform(platformServices, deferred), [platformServices, deferred]);
  const hitCount = useMemo(() => hits.reduce((n, h) => n + h.services.length, 0), [hits]);
  const shownCount = searching ? hitCount : services.length;
  const byId = useMemo(() => new Map(platformServices.all.map((s) => [s.id, s])), [platformServices]);

  const options = useMemo(() => {
    const discounted = Number(fees?.discountPercent) > 0;
    const option = (s: PublicService) => {
      const price = discounted && s.displayPrice !== null ? (unitPrice(s, fees!)?.usd ?? s.displayPrice) : s.displayPrice;
      return (
        <option key={s.id} value={s.id} data-group={s.group}>
          {(price === null
            ? s.name
            : `${s.name} — ${t('service.optionPrice', { price: formatMoneyDecimal(price, 'USD', locale), per: formatNumber(s.displayPer, locale) })}`) +
            (s.figures?.completeMinutes != null ? ` · ${t('service.optionTime', { time: durationText(t, s.figures.completeMinutes, locale) })}` : '')}
        </option>
      );
    };
    // The chosen service stays listed while the search hides it, so the select keeps showing it.
    const hidden = selected && !(searching ? hits.some((h) => h.services.includes(selected)) : services.includes(selected));
    const kept = hidden ? option(selected) : null;
    if (!searching) return [kept, ...services.map(option)];
    return [
      kept,
      ...hits.map(({ group, services: found }) => (
        <optgroup key={group} label={t(`groups.${group}`)} data-group={group}>
          {found.map(option)}
        </optgroup>
      )),
    ];
  }, [searching, hits, services, selected, locale, t, fees]);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
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
          data-count={shownCount}
          data-searching={searching || undefined}
        >
          <option value="">{shownCount > 0 ? t('service.placeholder') : t('service.noMatch')}</option>
          {options}
        </select>
        <p id="order-service-count" aria-live="polite" className="mt-1.5 text-xs text-slate-500">
          {searching ? t('service.matches', { count: hitCount, formatted: formatNumber(hitCount, locale) }) : t('service.count', { count: shownCount, formatted: formatNumber(shownCount, locale) })}
        </p>
        <FieldError id="order-service-error">{error}</FieldError>
      </div>
      {searching && hitCount > 0 ? (
        <ul aria-label={t('service.hits')} data-testid="service-hits" className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2 sm:col-span-2">
          {hits
            .flatMap(({ services: found }) => found)
            .slice(0, HITS_SHOWN)
            .map((s) => (
              <li key={s.id} className="min-w-0">
                <button
                  type="button"
                  onClick={() => onChange(s)}
                  aria-pressed={s === selected}
                  data-service-hit={s.id}
                  className="flex w-full min-h-11 items-center gap-3 rounded-xl border border-slate-200 bg-white px-3 py-2 text-left text-sm hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 aria-pressed:border-brand-500 aria-pressed:bg-brand-50"
                >
                  <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{t(`groups.${s.group}`)}</span>
                  <span className="min-w-0 flex-1 truncate text-slate-900">{s.name}</span>
                  <span className="shrink-0 text-xs tabular-nums text-slate-500">#{s.id}</span>
                </button>
              </li>
            ))}
          {hitCount > HITS_SHOWN ? <li className="text-xs text-slate-500">{t('service.moreHits', { count: hitCount - HITS_SHOWN, formatted: formatNumber(hitCount - HITS_SHOWN, locale) })}</li> : null}
        </ul>
      ) : null}
    </div>
  );
});

/** Matches shown as buttons under the search; all of them are in the select. */
const HITS_SHOWN = 5;
