import { ApiError } from '../../lib/api';

/**
 * One submission attempt of the order form: the idempotency key sent with it and the input it
 * was for. A retry of the same input after no definite answer reuses the key, so the server
 * places at most one order; any other input, or a retry after a definite answer, gets a new key.
 */
export interface OrderAttempt {
  key: string;
  signature: string;
}

export function attemptFor(current: OrderAttempt | null, signature: string, newKey: () => string): OrderAttempt {
  return current && current.signature === signature ? current : { key: newKey(), signature };
}

/** Failures without a definite answer: nothing came back, or the server failed mid-way. */
export const isRetryable = (err: unknown): boolean =>
  err instanceof ApiError && (err.code === 'NETWORK' || err.code === 'TIMEOUT' || err.status >= 500);
