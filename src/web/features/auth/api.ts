import { useQuery } from '@tanstack/react-query';
import { isErrorCode, type ErrorCode } from '../../../core/errors';

/** The signed-in person as the browser sees them (GET /api/me). */
export interface Me {
  id: string;
  email: string;
  fullName: string;
  roles: ('user' | 'moderator' | 'admin')[];
  balanceCents: number;
}

/** A refused API request: the stable code from the server, or NETWORK when nothing answered. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode | 'NETWORK',
    readonly status: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
  }
}

async function send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('NETWORK', 0);
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (data as { error?: { code?: unknown; details?: Record<string, unknown> } } | null)?.error;
    throw new ApiError(isErrorCode(error?.code) ? error.code : 'INTERNAL', res.status, error?.details);
  }
  return data;
}

export const apiGet = <T,>(path: string) => send('GET', path) as Promise<T>;
export const apiPost = <T,>(path: string, body: unknown = {}) => send('POST', path, body) as Promise<T>;

export const ME_QUERY_KEY = ['me'] as const;

export async function fetchMe(): Promise<Me | null> {
  return (await apiGet<{ user: Me | null }>('/api/me')).user;
}

/** The signed-in state, shared by the header, the dashboard and the gates. */
export function useMe() {
  return useQuery({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, staleTime: 60_000, refetchOnWindowFocus: true });
}
