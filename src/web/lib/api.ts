import { isErrorCode, type ErrorCode } from '../../core/errors';

/**
 * A refused API request: the stable code from the server, NETWORK when nothing answered, TIMEOUT
 * when nothing answered within the caller's time limit.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode | 'NETWORK' | 'TIMEOUT',
    readonly status: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

/**
 * A JSON request to our own API with the session cookie; refusals throw ApiError. With
 * `timeoutMs` the request is abandoned after that long.
 */
export async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, timeoutMs?: number): Promise<T> {
  const controller = timeoutMs === undefined ? undefined : new AbortController();
  const timer = controller && setTimeout(() => controller.abort(), timeoutMs);
  const failed = () => (controller?.signal.aborted ? 'TIMEOUT' : 'NETWORK');
  try {
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        credentials: 'same-origin',
        signal: controller?.signal,
        headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(failed(), 0);
    }
    let data: unknown = null;
    try {
      data = await res.json();
    } catch {
      // A body cut off by the time limit is a timeout; any other unreadable body is read as empty.
      if (controller?.signal.aborted) throw new ApiError('TIMEOUT', res.status);
    }
    if (!res.ok) {
      const error = (data as { error?: { code?: unknown; details?: Record<string, unknown> } } | null)?.error;
      throw new ApiError(isErrorCode(error?.code) ? error.code : 'INTERNAL', res.status, error?.details);
    }
    return data as T;
  } finally {
    clearTimeout(timer);
  }
}

export const apiGet = <T,>(path: string) => request<T>('GET', path);
export const apiPost = <T,>(path: string, body: unknown = {}) => request<T>('POST', path, body);
