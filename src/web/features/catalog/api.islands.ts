import { useEffect, useState } from 'react';

/**
 * ./api.ts as public pages build it (docs/decisions/0022-islands-on-demand.md): the same exports,
 * with the header's platform list held by the page instead of a query cache (asked for once,
 * shared by every menu on the page). The rest is ./api.ts itself.
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
  const res = await fetch('/api/catalog/platforms');
  if (!res.ok) throw new Error(`platform list: HTTP ${res.status}`);
  return ((await res.json()) as { platforms: string[] }).platforms;
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
