import { useEffect, useState } from 'react';

/**
 * ./api.ts as public pages build it (docs/decisions/0022-islands-on-demand.md): the same exports,
 * with the header's platform list held by the page instead of a query cache (asked for once,
 * shared by every menu on the page). The rest is ./api.ts itself.
 */
export * from './api';

let platforms: Promise<string[]> | undefined;

export function usePlatforms(initial?: string[] | null, enabled = true): { platforms: string[] | undefined; loading: boolean } {
  const [list, setList] = useState<string[] | undefined>(initial ?? undefined);
  useEffect(() => {
    if (initial || !enabled) return;
    let current = true;
    // The API client loads with the first menu that needs the list, not with the header.
    platforms ??= import('./api').then(({ fetchPlatforms }) => fetchPlatforms()).catch((err: unknown) => {
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
