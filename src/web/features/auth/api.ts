import { useQuery } from '@tanstack/react-query';
import type { Me } from '../../../core/contracts/account';
import { api, unwrap } from '../../lib/api';

/** The signed-in person as the browser sees them (GET /api/me). */
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
