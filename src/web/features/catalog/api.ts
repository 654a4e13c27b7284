import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import type { Language } from '../../../core/i18n';
import { api, apiClient, unwrap, type Fetch } from '../../lib/api';
import type { ServerRenderContext } from '../../lib/serverRender';
import type { PageAnswer } from '../../app/page';
import { catalogKeys } from './keys';

/**
 * The public catalogue API (GET /api/catalog/…) through the typed client: the query keys, and
 * one hook per endpoint. The list is revalidated with its ETag by the browser's HTTP cache, so asking
 * again is cheap.
 */

export { catalogKeys };

export const fetchServices = (lang: Language) => unwrap((o) => api.catalog.services.$get({ query: { lang } }, o));
export const fetchService = (id: string, lang: Language) => unwrap((o) => api.catalog.services[':id'].$get({ param: { id: encodeURIComponent(id) }, query: { lang } }, o));
/** The platform list; on the server through the in-process API (`fetcher`). */
export const fetchPlatforms = async (fetcher?: Fetch) => (await unwrap((o) => (fetcher ? apiClient(fetcher) : api).catalog.platforms.$get({}, o))).platforms;

/** The compact service list and the current fees, in the page's language. */
export function useServices(lang: Language) {
  return useQuery({
    queryKey: catalogKeys.services(lang),
    queryFn: () => fetchServices(lang),
    staleTime: 5 * 60_000,
    // A language switch keeps showing the previous list until the new names arrive.
    placeholderData: keepPreviousData,
  });
}

/** One service with its description, example and extra params; idle until an id is chosen. */
export function useServiceDetail(id: string | undefined, lang: Language) {
  return useQuery({
    queryKey: catalogKeys.service(id ?? '', lang),
    queryFn: () => fetchService(id!, lang),
    enabled: Boolean(id),
    staleTime: 5 * 60_000,
  });
}

/** One service's detail now, from the cache when `useServiceDetail` has it (an order sent before its params arrived). */
export function useFetchService(): (id: string, lang: Language) => Promise<Awaited<ReturnType<typeof fetchService>>> {
  const queryClient = useQueryClient();
  return useCallback(
    (id: string, lang: Language) => queryClient.fetchQuery({ queryKey: catalogKeys.service(id, lang), queryFn: () => fetchService(id, lang), staleTime: 5 * 60_000 }),
    [queryClient],
  );
}

/** The catalogue changed (prices, fees, names): every list and detail the page holds is read again. */
export function useReloadCatalog(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: catalogKeys.all }), [queryClient]);
}

/**
 * Platforms for menus, in menu order (docs/rules.md#catalogue). `initial` is what a page loader already
 * fetched (the server render shows the platforms at once). A failure is logged and reads as an
 * empty list: the header and the home grid show their empty states, never an error.
 */
export function usePlatforms(initial?: string[] | null, enabled = true): { platforms: string[] | undefined; loading: boolean } {
  const query = useQuery({
    enabled,
    queryKey: catalogKeys.platforms(),
    queryFn: async () => {
      try {
        return await fetchPlatforms();
      } catch (err) {
        console.warn('platform list not loaded', err);
        return [];
      }
    },
    initialData: initial ?? undefined,
    staleTime: 5 * 60_000,
  });
  return { platforms: query.data, loading: query.isPending };
}

/**
 * Page loader giving the platforms to the first render: on the server through the in-process
 * API (`context.fetch`), in the browser with a plain fetch. Never fails the page.
 */
export async function platformsLoader({ context }: LoaderFunctionArgs): Promise<{ platforms: string[] | null }> {
  const server = import.meta.env.SSR ? (context as unknown as ServerRenderContext | undefined) : undefined;
  try {
    return { platforms: await fetchPlatforms(server?.fetch) };
  } catch (err) {
    console.warn('platform list not loaded', err);
    return { platforms: null };
  }
}

/**
 * The service list a page of islands sends with itself (app/page.ts `PageAnswer`, the order page
 * and the dashboard): read in process on the server, so its form renders with the list and the
 * browser does not ask for it. In the browser (a navigation inside the app) none: the form asks.
 * A failure leaves it out, and the form asks for it as before.
 */
export async function servicesAnswer({ context }: Pick<LoaderFunctionArgs, 'context'>, lang: Language): Promise<PageAnswer[]> {
  const server = import.meta.env.SSR ? (context as unknown as ServerRenderContext | undefined) : undefined;
  if (!server?.fetch) return [];
  try {
    const res = await apiClient(server.fetch).catalog.services.$get({ query: { lang } });
    if (!res.ok) throw new Error(`status ${res.status}`);
    const etag = res.headers.get('ETag');
    return [{ queryKey: catalogKeys.services(lang), data: await res.json(), ...(etag ? { etag } : {}) }];
  } catch (err) {
    console.warn('service list not sent with the page', err);
    return [];
  }
}
