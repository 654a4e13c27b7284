import { isErrorCode, type ErrorCode } from '../../core/errors';

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

/** A JSON request to our own API with the session cookie; refusals throw ApiError. */
export async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
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
  return data as T;
}

export const apiGet = <T,>(path: string) => request<T>('GET', path);
export const apiPost = <T,>(path: string, body: unknown = {}) => request<T>('POST', path, body);
