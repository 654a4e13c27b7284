import type { CSSProperties } from 'react';
import { Search } from 'lucide-react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { PublicService, ServiceList } from '../../../core/contracts/catalog';
import { LIFETIME_REFILL_DAYS } from '../../../core/refill';
import type { Fees } from '../../../core/pricing';
import { routeLanguage, type PageMeta } from '../../app/page';
import { buttonClass } from '../../components/ui/Button';
import { PageHero } from '../../components/ui/PageHero';
import { useTranslation, type TFunction } from '../../i18n';
import { platformName } from '../../lib/platformName';
import { formatMoneyDecimal, formatNumber } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { loaderApi } from '../../lib/loaderFetch';
import { durationText } from './figures';
import { unitPrice } from './orderForm';
import {
  isFiltered,
  orderHref,
  priceGroups,
  priceListHref,
  priceListOptions,
  priceListPart,
  priceListRows,
  readPriceFilters,
  readPriceListFrom,
  type PriceFilters,
  type PriceGroupPart,
} from './priceList';
import { CONTINUES_ATTR, LATER_ATTR, PART_ATTR, REPEATS_ATTR } from '../../islands/attrs';
import { useCustomerFees } from './useCustomerFees';

export const ns = ['catalog', 'prices'];
export const meta: PageMeta = ({ t, site }) => ({ title: t('prices:meta.title', { site: site.site_name }), description: t('prices:meta.description') });

interface PricesData {
  /** Null when the list could not be read. */
  list: ServiceList | null;
  filters: PriceFilters;
  /** The address's `from`: the row the list's second part starts at (readPriceListFrom). */
  from: string | null;
}

/** The whole catalogue in the page's language (read in process on the server) and the address's filters. */
export async function loader(args: LoaderFunctionArgs): Promise<PricesData> {
  const search = new URL(args.request.url).searchParams;
  const filters = readPriceFilters(search);
  const from = search.get('from');
  try {
    const res = await loaderApi(args).catalog.services.$get({ query: { lang: routeLanguage(args.params, args.request) } });
    if (!res.ok) throw new Error(`status ${res.status}`);
    return { list: (await res.json()) as ServiceList, filters, from };
  } catch (err) {
    console.warn('price list not loaded', err);
    return { list: null, filters, from };
  }
}

const platformTitle = (t: TFunction, platform: string) => platformName(t, platform);

/**
 * Every service in one list (docs/rules.md#catalogue): by platform and type, each row with its id,
 * name, price per 1000 (per 10 for comments) by the rule orders are charged by — the signed-in
 * customer's own when they have a discount —, bounds, usual times, refill and cancel, and a link to
 * the order form with the service chosen. Search and filters are a plain form whose answer the
 * server renders, so the page needs no script of its own.
 *
 * The page carries the list's first PRICE_LIST_FIRST_ROWS rows; the next ones stand behind a link
 * to the same list `from` the next row, which the islands loader fetches and puts in place once the
 * page is on the screen (docs/decisions/0036). That address renders the next PRICE_LIST_PART_ROWS
 * as a page of its own, its rows marked as continuing the ones before, and the link to the part
 * after it inside its part, so the loader goes on until the list is whole.
 */
export default function PricesPage() {
  const { t } = useTranslation('prices');
  const lang = useLanguage();
  const { list, filters, from: askedFrom } = useLoaderData<PricesData>();
  const fees: Fees | undefined = useCustomerFees(list?.fees);
  const services = list?.services ?? [];
  const groups = priceGroups(services, filters);
  const options = priceListOptions(services);
  const shown = groups.reduce((n, g) => n + g.count, 0);
  const from = readPriceListFrom(askedFrom, shown);
  const rows = priceListRows(shown, from);
  const part = priceListPart(groups, rows.start, rows.end);
  const nextHref = rows.next === null ? null : priceListHref(lang, filters, rows.next);
  const rest = shown - rows.end;
  const sections = part.map((g) => <PriceSection key={g.platform} g={g} fees={fees!} />);
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
              <p data-testid="prices-count">
                {from === 0
                  ? t('count', { count: shown, shown: formatNumber(shown, lang), total: formatNumber(services.length, lang) })
                  : t('countPart', { first: formatNumber(from + 1, lang), last: formatNumber(rows.end, lang), total: formatNumber(services.length, lang) })}
              </p>
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
            ) : from === 0 ? (
              <>
                {sections}
                {nextHref ? <NextPart href={nextHref} rest={rest} /> : null}
              </>
            ) : (
              <>
                <p className="mt-6">
                  <a href={priceListHref(lang, filters)} className="font-semibold text-brand-700 underline underline-offset-2">
                    {t('fromStart')}
                  </a>
                </p>
                <div {...{ [PART_ATTR]: 'prices' }}>
                  {sections}
                  {nextHref ? <NextPart href={nextHref} rest={rest} /> : null}
                </div>
              </>
            )}
          </>
        )}
      </div>
    </main>
  );
}

/** Where the list's next part goes: a link to it, which the islands loader follows by itself (islands/laterParts.ts). */
function NextPart({ href, rest }: { href: string; rest: number }) {
  const { t } = useTranslation('prices');
  const lang = useLanguage();
  return (
    <div {...{ [LATER_ATTR]: href }} className="mt-8 text-center">
      <a href={href} className={buttonClass('outline', 'md')}>
        {t('rest', { count: rest, rest: formatNumber(rest, lang) })}
      </a>
    </div>
  );
}

/** `data-continues` / `data-repeats` on an element of a later part that continues one the page already has (islands/laterParts.ts). */
const continuing = (continues: boolean) => (continues ? { [CONTINUES_ATTR]: '' } : {});
const repeating = (continues: boolean) => (continues ? { [REPEATS_ATTR]: '' } : {});

/** One platform's rows of the part shown, under its heading with its whole count. */
function PriceSection({ g, fees }: { g: PriceGroupPart; fees: Fees }) {
  const { t } = useTranslation('prices');
  const lang = useLanguage();
  return (
    <section aria-labelledby={`prices-${g.platform}`} data-platform={g.platform} className="mt-10" {...continuing(g.continues)}>
      <h2 id={`prices-${g.platform}`} className="text-2xl font-bold tracking-tight text-slate-900" {...repeating(g.continues)}>
        {platformTitle(t, g.platform)} <span className="text-base font-medium text-slate-500">({formatNumber(g.count, lang)})</span>
      </h2>
      {g.types.map((type) => (
        <PriceTable key={type.group} platform={g.platform} group={type.group} services={type.services} count={type.count} continues={type.continues} fees={fees} />
      ))}
    </section>
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

/** Whether a service may be refilled (and for how long) and cancelled: two badges, in words. */
function Abilities({ s }: { s: PublicService }) {
  const { t } = useTranslation('prices');
  const lang = useLanguage();
  const days = s.refillDays ?? null;
  const refill = !s.refill
    ? t('refillNo')
    : days === null
      ? t('refillYes')
      : days >= LIFETIME_REFILL_DAYS
        ? t('refillLifetime')
        : t('refillDays', { count: days, days: formatNumber(days, lang) });
  const badge = (available: boolean) => `rounded-full px-2 py-0.5 font-semibold ring-1 ring-inset ${available ? 'bg-emerald-50 text-emerald-800 ring-emerald-200' : 'bg-slate-50 text-slate-600 ring-slate-200'}`;
  return (
    <span className="mt-1.5 flex flex-wrap gap-1.5 text-xs">
      <span data-ability="refill" data-available={!!s.refill} className={badge(!!s.refill)}>
        {refill}
      </span>
      <span data-ability="cancel" data-available={!!s.cancel} className={badge(!!s.cancel)}>
        {s.cancel ? t('cancelYes') : t('cancelNo')}
      </span>
    </span>
  );
}

/**
 * One type of one platform: a table whose rows lead to the order form. A catalogue has hundreds of
 * rows, so a row carries little markup: cell styles are set once on the table, the columns a phone
 * leaves out are marked `data-wide` (their figures stand under the name there), and links are
 * plain anchors (the next page comes from the server). A table off the screen is not laid out
 * (`content-visibility: auto`; until it is, its height is guessed from its rows: measured in the
 * three languages, 10–13.5 rem each on a phone, 8–15 at tablet widths, 4.5 from `lg`): the list's
 * rest, put in place after the first paint, costs the phone little.
 */
function PriceTable({
  platform,
  group,
  services,
  count,
  continues,
  fees,
}: {
  platform: string;
  group: string;
  services: PublicService[];
  /** The type's rows in the whole list. */
  count: number;
  /** The rows continue a table already on the page (a later part's first). */
  continues: boolean;
  fees: Fees;
}) {
  const { t } = useTranslation('prices');
  const lang = useLanguage();
  const none = '—';
  const time = (m: number | null | undefined) => (m == null ? none : durationText(t, m, lang));
  return (
    <div
      className="mt-5 overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 [contain-intrinsic-size:auto_calc(var(--rows)*12rem+5rem)] [content-visibility:auto] md:[contain-intrinsic-size:auto_calc(var(--rows)*10rem+5rem)] lg:[contain-intrinsic-size:auto_calc(var(--rows)*4.5rem+5rem)]"
      style={{ '--rows': services.length } as CSSProperties}
      data-type={group}
      {...continuing(continues)}
    >
      <table {...continuing(continues)} className="w-full text-left text-sm [&_[data-wide]]:hidden md:[&_[data-wide]]:table-cell [&_td]:px-3 [&_td]:py-3 [&_td]:align-top [&_th]:px-3 [&_th]:py-2 [&_th]:font-semibold">
        <caption {...repeating(continues)} className="border-b border-slate-200 bg-slate-50 px-4 py-2.5 text-left text-base font-semibold text-slate-900">
          <span className="sr-only">{platformTitle(t, platform)}: </span>
          {t(`catalog:groups.${group}`)} <span className="font-normal text-slate-500">({formatNumber(count, lang)})</span>
        </caption>
        <thead {...repeating(continues)} className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" data-wide="">{t('columns.id')}</th>
            <th scope="col">{t('columns.service')}</th>
            <th scope="col" className="text-right">{t('columns.price')}</th>
            <th scope="col" data-wide="" className="text-right">{t('columns.min')}</th>
            <th scope="col" data-wide="" className="text-right">{t('columns.max')}</th>
            <th scope="col" data-wide="">{t('columns.start')}</th>
            <th scope="col" data-wide="">{t('columns.complete')}</th>
            <th scope="col">
              <span className="sr-only">{t('columns.order')}</span>
            </th>
          </tr>
        </thead>
        <tbody {...continuing(continues)} className="divide-y divide-slate-100 tabular-nums">
          {services.map((s) => {
            const unit = unitPrice(s, fees);
            const href = orderHref(lang, s);
            const start = time(s.figures?.startMinutes);
            const complete = time(s.figures?.completeMinutes);
            return (
              <tr key={s.id} data-service={s.id}>
                <td data-wide="" className="font-mono text-xs text-slate-500">{s.id}</td>
                <td>
                  <a href={href} className="font-medium break-words text-slate-900 hover:text-brand-700 hover:underline">
                    {s.name}
                  </a>
                  <p className="mt-1 text-xs text-slate-500 md:hidden">
                    #{s.id} · {t('bounds', { min: formatNumber(s.min, lang), max: formatNumber(s.max, lang) })}
                    {s.figures?.startMinutes != null || s.figures?.completeMinutes != null ? ` · ${t('columns.start')}: ${start} · ${t('columns.complete')}: ${complete}` : ''}
                  </p>
                  <Abilities s={s} />
                </td>
                <td className="text-right whitespace-nowrap" data-price={unit?.usd ?? ''} data-per={unit?.per ?? ''}>
                  <span className="font-semibold text-slate-900">{unit ? formatMoneyDecimal(unit.usd, 'USD', lang) : none}</span>
                  <span className="block text-xs text-slate-500">{t('per', { per: formatNumber(unit?.per ?? s.displayPer, lang) })}</span>
                </td>
                <td data-wide="" className="text-right">{formatNumber(s.min, lang)}</td>
                <td data-wide="" className="text-right">{formatNumber(s.max, lang)}</td>
                <td data-wide="" className="whitespace-nowrap">{start}</td>
                <td data-wide="" className="whitespace-nowrap">{complete}</td>
                <td className="text-right">
                  <a href={href} aria-label={t('orderOf', { name: s.name })} className="inline-block rounded-lg border border-slate-300 px-2.5 py-1 whitespace-nowrap font-semibold text-brand-700 hover:border-brand-500">
                    {t('order')}
                  </a>
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
/** A signed-in customer's prices carry their discount (read with their session): rendered for each of them. */
export const perVisitor = true;
