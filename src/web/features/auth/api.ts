import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AUTH_WRITE_BODIES, Me } from '../../../core/contracts/account';
import { api, request, unwrap } from '../../lib/api';

/** The signed-in person as the browser sees them (GET /api/me). */
export type { Me };

export { ApiError, api, unwrap } from '../../lib/api';

export const ME_QUERY_KEY = ['me'] as const;

export async function fetchMe(): Promise<Me | null> {
  return (await unwrap((o) => api.me.$get({}, o))).user;
}

/**
 * The account writes better-auth answers behind its one catch-all route (server auth/routes.ts),
 * with the bodies of the core contract.
 */
type AccountWrite = '/update-user' | '/change-password' | '/reset-password';
export const accountWrite = <P extends AccountWrite>(path: P, body: z.input<(typeof AUTH_WRITE_BODIES)[P]>) => request<unknown>('POST', `/api/auth${path}`, body);

/** The signed-in state, shared by the header, the dashboard and the gates. */
export function useMe() {
  return useQuery({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, staleTime: 60_000, refetchOnWindowFocus: true });
}
