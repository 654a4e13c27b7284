import { hc, type ClientResponse } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import { isErrorCode, type ErrorCode } from '../../core/errors';
import type { ApiType } from '../../server/api';

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

/** How a request goes out: the browser's fetch, or the server render's in-process one (by path). */
export type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * The storefront API, typed from the server's routes (`ApiType`, src/server/api.ts): paths,
 * inputs and answers are checked by the compiler. Given the server render's in-process fetch,
 * the answer is asked for uncompressed (the page's Accept-Encoding would be forwarded otherwise).
 */
export function apiClient(fetcher?: Fetch) {
  return hc<ApiType>('/api', {
    // The global fetch is looked up per call, so the page always uses the current one.
    fetch: (input: RequestInfo | URL, init?: RequestInit) => (fetcher ? fetcher(String(input), init) : fetch(input, init)),
    headers: fetcher ? { accept: 'application/json', 'accept-encoding': 'identity' } : { accept: 'application/json' },
  });
}

/**
 * The browser's client of the storefront API. Making it has no effect besides the client, so a
 * bundle that imports this module and calls nothing (a public page's header until it signs out)
 * leaves it and the error codes out.
 */
export const api = /* @__PURE__ */ apiClient();

/** The body of a successful answer of a typed call. */
export type Answer<R> = R extends ClientResponse<infer T, infer S, infer _F> ? (S extends SuccessStatusCode ? T : never) : never;

/** What a call of the typed client receives: the request options to pass on (session cookie, time limit). */
export type CallOptions = { init: RequestInit };

/**
 * Sends one call of the typed client and gives its body; refusals throw ApiError with the
 * server's code (INTERNAL when the body names none), NETWORK when nothing answered, TIMEOUT when
 * nothing (or only part of the body) arrived within `timeoutMs`.
 *
 *   const orders = await unwrap((o) => api.orders.$get({}, o), REQUEST_TIMEOUT_MS);
 */
export async function unwrap<R extends ClientResponse<unknown, number, string>>(send: (options: CallOptions) => Promise<R>, timeoutMs?: number): Promise<Answer<R>> {
  const controller = timeoutMs === undefined ? undefined : new AbortController();
  const timer = controller && setTimeout(() => controller.abort(), timeoutMs);
  const failed = () => (controller?.signal.aborted ? 'TIMEOUT' : 'NETWORK');
  try {
    let res: R;
    try {
      res = await send({ init: { credentials: 'same-origin', signal: controller?.signal } });
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
    return data as Answer<R>;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Requests of the signed-in pages (dashboard, payments, tracking) give up after this long and
 * say TIMEOUT, so a stalled connection ends in a message instead of a spinner.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/** A call of a typed client under that time limit. */
export const timed = <R extends ClientResponse<unknown, number, string>>(send: (options: CallOptions) => Promise<R>) => unwrap(send, REQUEST_TIMEOUT_MS);
