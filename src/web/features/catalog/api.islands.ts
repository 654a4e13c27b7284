import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { Language } from '../../../core/i18n';
import type { fetchService, fetchServices } from './api';

/**
 * ./api.ts as public pages build it (docs/decisions/0022-islands-on-demand.md): the same exports,
 * with the header's platform list held by the page instead of a query cache (asked for once,
 * shared by every menu on the page), and the order page's service list and details held by the
 * page too (docs/decisions/0028-the-order-page-as-an-island.md). The rest is ./api.ts itself.
 */
export * from './api';

let platforms: Promise<string[]> | undefined;

/**
 * A catalogue answer with a plain fetch: the header's menu and the order page show any failure
 * alike ("empty", "not loaded, try again"), so the API client and its error codes stay out.
 */
async function fetchJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

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

/** What the order page reads of a request, as TanStack Query words it in the app. */
interface Loaded<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => Promise<void>;
}
interface Entry {
  data?: unknown;
  error?: unknown;
  fetching: boolean;
  done?: Promise<void>;
}
/** The page's answers by request, kept for the page's life: the list and each service asked for once. */
const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Asks for `key` unless it is known or on its way (`again`: a retry after a failure). */
function request(key: string, load: () => Promise<unknown>, again = false): Promise<void> {
  const known = entries.get(key);
  if (known && (known.fetching || !again)) return known.done ?? Promise.resolve();
  const done = load().then(
    (data) => void entries.set(key, { data, fetching: false }),
    (error: unknown) => void entries.set(key, { data: known?.data, error, fetching: false }),
  );
  entries.set(key, { ...known, fetching: true, done });
  listeners.forEach((l) => l());
  return done.then(() => listeners.forEach((l) => l()));
}

function useLoaded<T>(key: string | undefined, load: () => Promise<T>): Loaded<T> {
  // The server rendered the page before any answer: hydration starts from there too.
  const entry = useSyncExternalStore(subscribe, () => (key ? entries.get(key) : undefined), () => undefined);
  const refetch = useCallback(() => (key ? request(key, load, true) : Promise.resolve()), [key, load]);
  return {
    data: entry?.data as T | undefined,
    isPending: entry === undefined || (entry.data === undefined && entry.error === undefined),
    isError: entry?.error !== undefined,
    isFetching: entry?.fetching ?? false,
    refetch,
  };
}

type ServiceList = Awaited<ReturnType<typeof fetchServices>>;
type ServiceDetail = Awaited<ReturnType<typeof fetchService>>;
const servicesPath = (lang: Language) => `/api/catalog/services?lang=${lang}`;
const serviceKey = (id: string, lang: Language) => `service:${id}:${lang}`;
const servicePath = (id: string, lang: Language) => `/api/catalog/services/${encodeURIComponent(id)}?lang=${lang}`;

/** The compact service list and the current fees, in the page's language. */
export function useServices(lang: Language): Loaded<ServiceList> {
  const load = useCallback(() => fetchJson<ServiceList>(servicesPath(lang)), [lang]);
  const key = `services:${lang}`;
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
    await request(key, () => fetchJson<ServiceDetail>(servicePath(id, lang)), entries.get(key)?.error !== undefined);
    const entry = entries.get(key)!;
    if (entry.data === undefined) throw entry.error;
    return entry.data as ServiceDetail;
  }, []);
}
