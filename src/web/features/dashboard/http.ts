import type { TFunction } from '../../i18n';
import type { ClientResponse } from 'hono/client';
import { ApiError, unwrap, type CallOptions } from '../../lib/api';

/**
 * Requests of the signed-in pages (dashboard, payments, tracking) give up after this long and
 * say TIMEOUT, so a stalled connection ends in a message instead of a spinner.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/** A call of the typed client (`api` in lib/api.ts) under that time limit. */
export const timed = <R extends ClientResponse<unknown, number, string>>(send: (options: CallOptions) => Promise<R>) => unwrap(send, REQUEST_TIMEOUT_MS);

/**
 * The localized message of a failed request. `ns` is the namespace whose `errors.<CODE>` keys
 * word the feature's own codes; NETWORK, TIMEOUT and anything unknown use the shared wording.
 */
export function requestErrorText(t: TFunction, err: unknown, ns: string): string {
  const code = err instanceof ApiError ? err.code : 'INTERNAL';
  if (code === 'NETWORK') return t('common:errors.network');
  if (code === 'TIMEOUT') return t(`${ns}:errors.TIMEOUT`);
  const details = err instanceof ApiError ? (err.details ?? {}) : {};
  const key = `${ns}:errors.${code}`;
  const minutes = Math.max(1, Math.ceil(Number(details.retryAfterSeconds ?? 60) / 60));
  const text = t(key, { ...details, minutes, defaultValue: '' });
  return text || t(`${ns}:errors.generic`);
}
