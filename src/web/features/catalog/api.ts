import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import type { ServiceDetail, ServiceList } from '../../../core/contracts/catalog';
import type { Language } from '../../../core/i18n';
import type { ServerRenderContext } from '../../lib/serverRender';

/**
 * The public catalogue API (GET /api/catalog/…): one fetch helper, the query keys, and one hook
 * per endpoint. The list is revalidated with its ETag by the browser's HTTP cache, so asking
 * again is cheap.
 */

/** A refused catalogue request; `status` 0 when nothing answered. */
export class CatalogError extends Error {
  constructor(
    readonly status: number,
    readonly code?: string,
  ) {
    super(code ?? `HTTP ${status}`);
  }
}

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

async function getJson<T>(path: string, fetcher: Fetch = fetch): Promise<T> {
  let res: Response;
  try {
    // Identity: the in-process API on the server would otherwise compress for the visitor's browser.
    res = await fetcher(path, { headers: { accept: 'application/json', ...(fetcher === fetch ? {} : { 'accept-encoding': 'identity' }) } });
  } catch {
    throw new CatalogError(0);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
    throw new CatalogError(res.status, body?.error?.code);
  }
  return (await res.json()) as T;
}

export const catalogKeys = {
  all: ['catalog'] as const,
  services: (lang: Language) => ['catalog', 'services', lang] as const,
  service: (id: string, lang: Language) => ['catalog', 'service', id, lang] as const,
  platforms: () => ['catalog', 'platforms'] as const,
};

export const fetchServices = (lang: Language) => getJson<ServiceList>(`/api/catalog/services?lang=${lang}`);
export const fetchService = (id: string, lang: Language) =>
  getJson<ServiceDetail>(`/api/catalog/services/${encodeURIComponent(id)}?lang=${lang}`);
export const fetchPlatforms = (fetcher?: Fetch) =>
  getJson<{ platforms: string[] }>('/api/catalog/platforms', fetcher).then((r) => r.platforms);

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

/**
 * Platforms for menus, in menu order (docs/rules.md#catalogue). `initial` is what a page loader already
 * fetched (the server render shows the platforms at once). A failure is logged and reads as an
 * empty list: the header and the home grid show their empty states, never an error.
 */
export function usePlatforms(initial?: string[] | null): { platforms: string[] | undefined; loading: boolean } {
  const query = useQuery({
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
