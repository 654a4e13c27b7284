import type { ClientResponse } from 'hono/client';
import { unwrap, type CallOptions } from './api';

/**
 * Requests of the signed-in pages (dashboard, payments, tracking) give up after this long and
 * say TIMEOUT, so a stalled connection ends in a message instead of a spinner.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/** A call of the typed client (`api` in lib/api.ts) under that time limit. */
export const timed = <R extends ClientResponse<unknown, number, string>>(send: (options: CallOptions) => Promise<R>) => unwrap(send, REQUEST_TIMEOUT_MS);
