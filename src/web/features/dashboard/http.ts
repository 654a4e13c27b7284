import type { TFunction } from '../../i18n';
import { isErrorCode, type ErrorCode } from '../../../core/errors';

/**
 * JSON requests of the signed-in pages (dashboard, payments): the stable error code from the
 * server, NETWORK when nothing answered, TIMEOUT when nothing answered within the limit.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

export type RequestErrorCode = ErrorCode | 'NETWORK' | 'TIMEOUT';

export class RequestError extends Error {
  constructor(
    readonly code: RequestErrorCode,
    readonly status: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
    this.name = 'RequestError';
  }
}

export async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      signal: controller.signal,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    clearTimeout(timer);
    throw new RequestError(controller.signal.aborted ? 'TIMEOUT' : 'NETWORK', 0);
  }
  try {
    const data: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const error = (data as { error?: { code?: unknown; details?: Record<string, unknown> } } | null)?.error;
      throw new RequestError(isErrorCode(error?.code) ? error.code : 'INTERNAL', res.status, error?.details);
    }
    return data as T;
  } catch (err) {
    if (err instanceof RequestError) throw err;
    throw new RequestError(controller.signal.aborted ? 'TIMEOUT' : 'NETWORK', res.status);
  } finally {
    clearTimeout(timer);
  }
}

export const getJson = <T>(path: string) => request<T>('GET', path);
export const postJson = <T>(path: string, body: unknown) => request<T>('POST', path, body);

/**
 * The localized message of a failed request. `ns` is the namespace whose `errors.<CODE>` keys
 * word the feature's own codes; NETWORK, TIMEOUT and anything unknown use the shared wording.
 */
export function requestErrorText(t: TFunction, err: unknown, ns: string): string {
  const code = err instanceof RequestError ? err.code : 'INTERNAL';
  if (code === 'NETWORK') return t('common:errors.network');
  if (code === 'TIMEOUT') return t(`${ns}:errors.TIMEOUT`);
  const details = err instanceof RequestError ? (err.details ?? {}) : {};
  const key = `${ns}:errors.${code}`;
  const minutes = Math.max(1, Math.ceil(Number(details.retryAfterSeconds ?? 60) / 60));
  const text = t(key, { ...details, minutes, defaultValue: '' });
  return text || t(`${ns}:errors.generic`);
}
