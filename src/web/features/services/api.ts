import type { LoaderFunctionArgs } from 'react-router';
import type { LocalService } from '../../../core/contracts/content';
import { minorToDecimal } from '../../../core/money';
import type { TFunction } from '../../i18n';
import { routeLanguage } from '../../app/page';
import { formatNumber } from '../../lib/format';
import { contentGet, loaderApi } from '../../lib/loaderFetch';

/** The agency's own services as the public API serves them (GET /api/content/services…), in one language. */
export type { LocalService } from '../../../core/contracts/content';

/** The active services in listing order; null when they could not be loaded. */
export async function fetchLocalServices(args: Pick<LoaderFunctionArgs, 'context' | 'params' | 'request'>): Promise<LocalService[] | null> {
  const lang = routeLanguage(args.params, args.request);
  try {
    return (await contentGet(loaderApi(args).content.services.$get({ query: { lang } })))?.services ?? [];
  } catch (err) {
    console.warn('services not loaded', err);
    return null;
  }
}

/** One active service by the address's id; null when there is none (unknown, inactive or not an id). */
export async function fetchLocalService(args: Pick<LoaderFunctionArgs, 'context' | 'params' | 'request'>): Promise<LocalService | null> {
  const id = args.params.id ?? '';
  if (!/^\d{1,9}$/.test(id)) return null;
  return contentGet(loaderApi(args).content.services[':id'].$get({ param: { id }, query: { lang: routeLanguage(args.params, args.request) } }));
}

/** "150 AZN-dən" for a start price in qəpik (whole manats without decimals, "1.500" in az); "price on request" when there is none. */
export function startPrice(t: TFunction, priceQepik: number | null, lang: string): string {
  if (priceQepik === null) return t('services:priceOnRequest');
  return t('services:priceFrom', { price: formatNumber(minorToDecimal(priceQepik).replace(/\.00$/, ''), lang) });
}
