import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Me } from '../../../core/contracts/account';
import { api, unwrap } from '../../lib/api';

/**
 * The signed-in person as the browser sees them (GET /api/me). Public pages build this module
 * from ./api.islands.ts instead (docs/decisions/0022-islands-on-demand.md): the same exports over
 * a small store, without a query cache.
 */
export type { Me };

export { ApiError, api, unwrap } from '../../lib/api';

export const ME_QUERY_KEY = ['me'] as const;

export async function fetchMe(): Promise<Me | null> {
  return (await unwrap((o) => api.me.$get({}, o))).user;
}

/** The signed-in state, shared by the header, the dashboard and the gates. */
export function useMe() {
  return useQuery({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, staleTime: 60_000, refetchOnWindowFocus: true });
}

/** Who is signed in, waiting for the session to be known when it is not yet. */
export function useEnsureMe(): () => Promise<Me | null> {
  const qc = useQueryClient();
  return useCallback(() => qc.ensureQueryData({ queryKey: ME_QUERY_KEY, queryFn: fetchMe }), [qc]);
}

/** Asks the server again who is signed in (after a sign-in or sign-up) and tells every part of the page. */
export function useRefreshMe(): () => Promise<Me | null> {
  const qc = useQueryClient();
  return useCallback(() => qc.fetchQuery({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, staleTime: 0 }), [qc]);
}
