import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { attemptFor, isRetryable } from './orderAttempt';

describe('order attempts', () => {
  it('reuses the key for a retry of the same input and takes a new one for other input', () => {
    let n = 0;
    const key = () => `key-${++n}`;
    const first = attemptFor(null, '{"link":"a"}', key);
    expect(first.key).toBe('key-1');
    expect(attemptFor(first, '{"link":"a"}', key)).toBe(first);
    expect(attemptFor(first, '{"link":"b"}', key).key).toBe('key-2');
  });

  it('retries with the same key only when no definite answer came back', () => {
    expect(isRetryable(new ApiError('NETWORK', 0))).toBe(true);
    expect(isRetryable(new ApiError('TIMEOUT', 0))).toBe(true);
    expect(isRetryable(new ApiError('INTERNAL', 500))).toBe(true);
    expect(isRetryable(new ApiError('ACTIVE_ORDER_EXISTS', 409))).toBe(false);
    expect(isRetryable(new ApiError('INSUFFICIENT_BALANCE', 402))).toBe(false);
    expect(isRetryable(new Error('x'))).toBe(false);
  });
});
