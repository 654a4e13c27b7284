import { ArrowRight, Check, Search, X } from 'lucide-react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { PublicService, ServiceList } from '../../../core/contracts/catalog';
import { platformDisplayName } from '../../../core/platforms';
import { LIFETIME_REFILL_DAYS } from '../../../core/refill';
import type { Fees } from '../../../core/pricing';
import { routeLanguage, type PageMeta } from '../../app/page';
import { buttonClass } from '../../components/ui/Button';
import { PageHero } from '../../components/ui/PageHero';
import { useTranslation, type TFunction } from '../../i18n';
import { formatMoneyDecimal, formatNumber } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { loaderApi } from '../../lib/loaderFetch';
import { durationText } from './figures';
import { unitPrice } from './orderForm';
import { isFiltered, OTHER_PLATFORM, orderHref, priceGroups, priceListOptions, readPriceFilters, type PriceFilters } from './priceList';
import { useCustomerFees } from './useCustomerFees';

export const ns = ['catalog', 'prices'];
export const meta: PageMeta = ({ t, site }) => ({ title: t('prices:meta.title', { site: site.site_name }), description: t('prices:meta.description') });

interface PricesData {
  /** Null when the list could not be read. */
  list: ServiceList | null;
  filters: PriceFilters;
}

/** The whole catalogue in the page's language (read in process on the server) and the address's filters. */
export async function loader(args: LoaderFunctionArgs): Promise<PricesData> {
  const filters = readPriceFilters(new URL(args.request.url).searchParams);
  try {
    const res = await loaderApi(args).catalog.services.$get({ query: { lang: routeLanguage(args.params, args.request) } });
    if (!res.ok) throw new Error(`status ${res.status}`);
    return { list: (await res.json()) as ServiceList, filters };
  } catch (err) {
    console.warn('price list not loaded', err);
    return { list: null, filters };
  }
}

const platformTitle = (t: TFunction, platform: string) => (platform === OTHER_PLATFORM ? t('prices:otherPlatform') : platformDisplayName(platform));

/**
 * Every service in one list (docs/rules.md#catalogue): by platform and type, each row with its id,
 * name, price per 1000 (per 10 for comments) by the rule orders are charged by — the signed-in
 * customer's own when they have a discount —, bounds, usual times, refill and cancel, and a link to
 * the order form with the service chosen. Search and filters are a plain form whose answer the
 * server renders, so the page needs no script of its own.
 */
export default function PricesPage() {
  const { t } = useTranslation('prices');
  const lang = useLanguage();
  const { list, filters } = useLoaderData<PricesData>();
  const fees: Fees | undefined = useCustomerFees(list?.fees);
  const services = list?.services ?? [];
  const groups = priceGroups(services, filters);
  const options = priceListOptions(services);
  const shown = groups.reduce((n, g) => n + g.count, 0);
  const discount = fees && Number(fees.discountPercent) > 0 ? String(fees.discountPercent) : null;

  return (
    <main id="main" className="flex-1 bg-slate-50">
      <PageHero title={t('hero.title')} subtitle={t('hero.subtitle')} />
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
        <FilterForm filters={filters} platforms={options.platforms} types={options.types} />

        {list === null ? (
          <p role="alert" className="mt-8 rounded-xl bg-white p-6 text-center text-slate-700 ring-1 ring-slate-200">
            {t('notLoaded')}
          </p>
        ) : (
          <>
            <div className="mt-6 flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2 text-sm text-slate-600">
              <p data-testid="prices-count">{t('count', { count: shown, shown: formatNumber(shown, lang), total: formatNumber(services.length, lang) })}</p>
              {discount ? (
                <p data-testid="prices-discount" className="rounded-md bg-emerald-50 px-2 py-0.5 font-semibold text-emerald-800 ring-1 ring-emerald-200 ring-inset">
                  {t('discount', { percent: formatNumber(discount, lang) })}
                </p>
              ) : (
                <p>{t('feesNote')}</p>
              )}
            </div>
            {groups.length === 0 ? (
              <div className="mt-6 rounded-xl bg-white p-8 text-center ring-1 ring-slate-200">
                <p className="text-slate-700">{t('empty')}</p>
                <Link to={`/${lang}/prices`} className="mt-3 inline-block font-semibold text-brand-700 underline underline-offset-2">
                  {t('filters.clear')}
                </Link>
              </div>
            ) : (
              groups.map((g) => (
                <section key={g.platform} aria-labelledby={`prices-${g.platform}`} data-platform={g.platform} className="mt-10">
                  <h2 id={`prices-${g.platform}`} className="text-2xl font-bold tracking-tight text-slate-900">
                    {platformTitle(t, g.platform)} <span className="text-base font-medium text-slate-500">({formatNumber(g.count, lang)})</span>
                  </h2>
                  {g.types.map((type) => (
                    <PriceTable key={type.group} platform={g.platform} group={type.group} services={type.services} fees={fees!} />
                  ))}
                </section>
              ))
            )}
          </>
        )}
      </div>
    </main>
  );
}

/** Search and filters: a GET form, so the filtered list is an address of its own (and works without a script). */
function FilterForm({ filters, platforms, types }: { filters: PriceFilters; platforms: string[]; types: readonly string[] }) {
  const { t } = useTranslation('prices');
  const lang = useLanguage();
  const field = 'mt-1 block w-full rounded-lg border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-500';
  return (
    <form method="get" action={`/${lang}/prices`} role="search" aria-label={t('filters.label')} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <label className="block text-sm font-medium text-slate-700 sm:col-span-2 lg:col-span-1">
          {t('filters.search')}
          <input type="search" name="q" defaultValue={filters.q} maxLength={100} placeholder={t('filters.searchPlaceholder')} className={field} />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('filters.platform')}
          <select name="platform" defaultValue={filters.platform ?? ''} className={field}>
            <option value="">{t('filters.allPlatforms')}</option>
            {platforms.map((p) => (
              <option key={p} value={p}>
                {platformTitle(t, p)}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          {t('filters.type')}
          <select name="type" defaultValue={filters.type ?? ''} className={field}>
            <option value="">{t('filters.allTypes')}</option>
            {types.map((g) => (
              <option key={g} value={g}>
                {t(`catalog:groups.${g}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-x-6 gap-y-3">
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="refill" value="1" defaultChecked={filters.refill} className="size-4 rounded border-slate-300 text-brand-600" />
          {t('filters.refill')}
        </label>
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="cancel" value="1" defaultChecked={filters.cancel} className="size-4 rounded border-slate-300 text-brand-600" />
          {t('filters.cancel')}
        </label>
        <div className="flex w-full flex-wrap gap-3 sm:ml-auto sm:w-auto">
          <button type="submit" className={buttonClass('primary', 'md')}>
            <Search className="size-4" aria-hidden="true" />
            {t('filters.apply')}
          </button>
          {isFiltered(filters) ? (
            <Link to={`/${lang}/prices`} className={buttonClass('outline', 'md')}>
              {t('filters.clear')}
            </Link>
          ) : null}
        </div>
      </div>
    </form>
  );
}

/** Whether a service may be refilled (and for how long) or cancelled, in words with a mark. */
function Ability({ name, available, children }: { name: string; available: boolean; children: string }) {
  const Mark = available ? Check : X;
  return (
    <span
      data-ability={name}
      data-available={available}
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${available ? 'bg-emerald-50 text-emerald-800 ring-emerald-200' : 'bg-slate-50 text-slate-600 ring-slate-200'}`}
    >
      <Mark className="size-3.5 shrink-0" aria-hidden="true" />
      {children}
    </span>
  );
}

function abilities(t: TFunction, s: PublicService, lang: string) {
  const days = s.refillDays ?? null;
  const refill = !s.refill
    ? t('prices:refillNo')
    : days === null
      ? t('prices:refillYes')
      : days >= LIFETIME_REFILL_DAYS
        ? t('prices:refillLifetime')
        : t('prices:refillDays', { count: days, days: formatNumber(days, lang) });
  return (
    <span className="flex flex-wrap gap-1.5">
      <Ability name="refill" available={!!s.refill}>
        {refill}
      </Ability>
      <Ability name="cancel" available={!!s.cancel}>
        {s.cancel ? t('prices:cancelYes') : t('prices:cancelNo')}
      </Ability>
    </span>
  );
}

/** One type of one platform: a table whose rows lead to the order form. */
function PriceTable({ platform, group, services, fees }: { platform: string; group: string; services: PublicService[]; fees: Fees }) {
  const { t } = useTranslation('prices');
  const lang = useLanguage();
  const th = 'px-3 py-2 font-semibold';
  const wide = 'hidden md:table-cell';
  const td = 'px-3 py-3 align-top';
  const none = '—';
  const time = (m: number | null | undefined) => (m == null ? none : durationText(t, m, lang));
  const typeName = t(`catalog:groups.${group}`);
  return (
    <div className="mt-5 overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200" data-type={group}>
      <table className="w-full text-left text-sm">
        <caption className="border-b border-slate-200 bg-slate-50 px-4 py-2.5 text-left text-base font-semibold text-slate-900">
          <span className="sr-only">{platformTitle(t, platform)}: </span>
          {typeName} <span className="font-normal text-slate-500">({formatNumber(services.length, lang)})</span>
        </caption>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className={`${th} ${wide}`}>{t('columns.id')}</th>
            <th scope="col" className={th}>{t('columns.service')}</th>
            <th scope="col" className={`${th} text-right`}>{t('columns.price')}</th>
            <th scope="col" className={`${th} ${wide} text-right`}>{t('columns.min')}</th>
            <th scope="col" className={`${th} ${wide} text-right`}>{t('columns.max')}</th>
            <th scope="col" className={`${th} ${wide}`}>{t('columns.start')}</th>
            <th scope="col" className={`${th} ${wide}`}>{t('columns.complete')}</th>
            <th scope="col" className={`${th} ${wide}`}>{t('columns.terms')}</th>
            <th scope="col" className={th}>
              <span className="sr-only">{t('columns.order')}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {services.map((s) => {
            const unit = unitPrice(s, fees);
            const href = orderHref(lang, s);
            return (
              <tr key={s.id} data-service={s.id} className="hover:bg-brand-50/40">
                <td className={`${td} ${wide} font-mono text-xs text-slate-500 tabular-nums`}>{s.id}</td>
                <td className={`${td} min-w-0`}>
                  <Link to={href} className="font-medium break-words text-slate-900 hover:text-brand-700 hover:underline">
                    {s.name}
                  </Link>
                  {/* On phones the columns left out stand under the name. */}
                  <div className="mt-1 space-y-1 text-xs text-slate-500 md:hidden">
                    <p className="tabular-nums">
                      #{s.id} · {t('bounds', { min: formatNumber(s.min, lang), max: formatNumber(s.max, lang) })}
                    </p>
                    {s.figures?.startMinutes != null || s.figures?.completeMinutes != null ? (
                      <p>
                        {t('columns.start')}: {time(s.figures?.startMinutes)} · {t('columns.complete')}: {time(s.figures?.completeMinutes)}
                      </p>
                    ) : null}
                    {abilities(t, s, lang)}
                  </div>
                </td>
                <td className={`${td} text-right whitespace-nowrap`} data-price={unit?.usd ?? ''} data-per={unit?.per ?? ''}>
                  <span className="font-semibold tabular-nums text-slate-900">{unit ? formatMoneyDecimal(unit.usd, 'USD', lang) : none}</span>
                  <span className="block text-xs text-slate-500">{t('per', { per: formatNumber(unit?.per ?? s.displayPer, lang) })}</span>
                </td>
                <td className={`${td} ${wide} text-right tabular-nums`}>{formatNumber(s.min, lang)}</td>
                <td className={`${td} ${wide} text-right tabular-nums`}>{formatNumber(s.max, lang)}</td>
                <td className={`${td} ${wide} whitespace-nowrap`}>{time(s.figures?.startMinutes)}</td>
                <td className={`${td} ${wide} whitespace-nowrap`}>{time(s.figures?.completeMinutes)}</td>
                <td className={`${td} ${wide}`}>{abilities(t, s, lang)}</td>
                <td className={`${td} text-right`}>
                  <Link to={href} aria-label={t('orderOf', { name: s.name })} className={buttonClass('outline', 'sm', 'whitespace-nowrap')}>
                    <span className="hidden sm:inline">{t('order')}</span>
                    <ArrowRight className="size-4" aria-hidden="true" />
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Static: the form is answered by the server; only the site's frame has islands. */
export const islands = true;
