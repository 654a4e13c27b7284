import { useCallback, useEffect, useState } from 'react';
import type { Language } from '../../../core/i18n';
import type { fetchService, fetchServices } from './api';
import { catalogKeys } from './keys';
import { answerKey } from '../../app/page';
import { answer, fetchJson, fetchRevalidated, request, requestAgain, useLoaded, type Loaded } from '../../islands/answers';

/**
 * ./api.ts as public pages build it (docs/decisions/0022-islands-on-demand.md): the same exports,
 * with the header's platform list held by the page instead of a query cache (asked for once,
 * shared by every menu on the page), and the order page's service list and details held by the
 * page too (docs/decisions/0028-the-order-page-as-an-island.md). The rest is ./api.ts itself.
 */
export * from './api';

let platforms: Promise<string[]> | undefined;

/**
 * The list from `GET /api/catalog/platforms` (./api.ts's `fetchPlatforms`) with a plain fetch: a
 * public page's header asks for it when the browser is idle once the header is live (it wakes at a
 * first touch: docs/decisions/0027), and the API client and its error codes (2 KB gzip) would load
 * with it. A refusal leaves the menu empty, as any failure does.
 */
async function fetchPlatforms(): Promise<string[]> {
  return (await fetchJson<{ platforms: string[] }>('/api/catalog/platforms')).platforms;
}

export function usePlatforms(initial?: string[] | null, enabled = true): { platforms: string[] | undefined; loading: boolean } {
  const [list, setList] = useState<string[] | undefined>(initial ?? undefined);
  useEffect(() => {
    if (initial || !enabled) return;
    let current = true;
    platforms ??= fetchPlatforms().catch((err: unknown) => {
      console.warn('platform list not loaded', err);
      return [];
    });
    void platforms.then((found) => current && setList(found));
    return () => {
      current = false;
    };
  }, [initial, enabled]);
  return { platforms: list, loading: list === undefined };
}

type ServiceList = Awaited<ReturnType<typeof fetchServices>>;
type ServiceDetail = Awaited<ReturnType<typeof fetchService>>;
const servicesPath = (lang: Language) => `/api/catalog/services?lang=${lang}`;
/**
 * Every catalogue answer's key starts with it: `useReloadCatalog` asks them all again. The keys are
 * the query keys' (app/page.ts `answerKey`): the service list a page comes with is found under its own.
 */
const CATALOG = `${answerKey(catalogKeys.all)}:`;
const serviceKey = (id: string, lang: Language) => answerKey(catalogKeys.service(id, lang));
const servicePath = (id: string, lang: Language) => `/api/catalog/services/${encodeURIComponent(id)}?lang=${lang}`;

/** The compact service list and the current fees, in the page's language. */
export function useServices(lang: Language): Loaded<ServiceList> {
  const key = answerKey(catalogKeys.services(lang));
  // Asked again (the live stream's catch-up, a catalogue change) with the ETag of the list held:
  // unchanged, it costs a 304, not the list.
  const load = useCallback(() => fetchRevalidated<ServiceList>(key, servicesPath(lang)), [key, lang]);
  useEffect(() => void request(key, load), [key, load]);
  return useLoaded(key, load);
}

/** One service with its description, example and extra params; idle until an id is chosen. */
export function useServiceDetail(id: string | undefined, lang: Language): Loaded<ServiceDetail> {
  const load = useCallback(() => fetchJson<ServiceDetail>(servicePath(id!, lang)), [id, lang]);
  const key = id ? serviceKey(id, lang) : undefined;
  useEffect(() => void (key && request(key, load)), [key, load]);
  return useLoaded(key, load);
}

/** One service's detail now, from what the page already has. */
export function useFetchService(): (id: string, lang: Language) => Promise<ServiceDetail> {
  return useCallback(async (id: string, lang: Language) => {
    const key = serviceKey(id, lang);
    await request(key, () => fetchJson<ServiceDetail>(servicePath(id, lang)), answer(key)?.error !== undefined);
    const entry = answer<ServiceDetail>(key)!;
    if (entry.data === undefined) throw entry.error;
    return entry.data!;
  }, []);
}

/** The catalogue changed (prices, fees, names): every list and detail the page holds is asked for again. */
export function useReloadCatalog(): () => Promise<void> {
  return useCallback(() => requestAgain(CATALOG), []);
}
