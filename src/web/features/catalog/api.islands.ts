import { useEffect, useState } from 'react';
import { fetchPlatforms } from './api';

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
