import { request } from '../../lib/api';

/**
 * Requests of the signed-in pages (dashboard, payments, tracking) give up after this long and
 * say TIMEOUT, so a stalled connection ends in a message instead of a spinner.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

export const getJson = <T>(path: string) => request<T>('GET', path, undefined, REQUEST_TIMEOUT_MS);
export const postJson = <T>(path: string, body: unknown) => request<T>('POST', path, body, REQUEST_TIMEOUT_MS);
