import { useCallback, useSyncExternalStore } from 'react';
import type { Me } from '../../../core/contracts/account';
import { meStore } from '../../islands/me';

/**
 * ./api.ts as public pages build it (docs/decisions/0022-islands-on-demand.md): the signed-in
 * state is the one the server rendered the page with, held in a small store (islands/me.ts), not
 * a query cache; a sign-in through the header's dialog asks GET /api/me again and every island
 * follows. The same exports as ./api.ts; what is not about the signed-in state is ./api.ts itself.
 */
export * from './api';

export function useMe(): { data: Me | null | undefined; isPending: boolean } {
  // An island woken after a sign-in hydrates as the server rendered it, then follows.
  const data = useSyncExternalStore(meStore.subscribe, meStore.get, meStore.rendered);
  return { data, isPending: false };
}

export function useEnsureMe(): () => Promise<Me | null> {
  return useCallback(() => Promise.resolve(meStore.get()), []);
}

export function useRefreshMe(): () => Promise<Me | null> {
  return useCallback(async () => {
    // The API client loads when first needed (a sign-in), not with the header.
    const { fetchMe } = await import('./api');
    const me = await fetchMe();
    meStore.set(me);
    return me;
  }, []);
}
