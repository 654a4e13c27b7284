import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, request } from '../../lib/api';
import { attemptFor, isRetryable } from './orderAttempt';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('request', () => {
  it('returns the JSON body and sends JSON with the session cookie', async () => {
    const fetch = vi.fn(async () => json(201, { number: 'AR-1' }));
    vi.stubGlobal('fetch', fetch);
    expect(await request('POST', '/api/orders', { a: 1 })).toEqual({ number: 'AR-1' });
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/orders');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"a":1}');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('turns a refusal into its code, status and details', async () => {
    vi.stubGlobal('fetch', async () => json(422, { error: { code: 'QUANTITY_OUT_OF_RANGE', message: 'x', details: { min: 10, max: 500, step: 5 } } }));
    const err = await failure(request('POST', '/api/orders', {}));
    expect([err.code, err.status, err.details]).toEqual(['QUANTITY_OUT_OF_RANGE', 422, { min: 10, max: 500, step: 5 }]);
  });

  it('reads an unknown code or a body that is not JSON as INTERNAL', async () => {
    vi.stubGlobal('fetch', async () => json(500, { error: { code: 'SOMETHING_NEW' } }));
    expect((await failure(request('GET', '/x'))).code).toBe('INTERNAL');
    vi.stubGlobal('fetch', async () => new Response('<html>bad gateway</html>', { status: 502 }));
    const err = await failure(request('GET', '/x'));
    expect([err.code, err.status]).toEqual(['INTERNAL', 502]);
  });

  it('says NETWORK when nothing answered', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    expect((await failure(request('GET', '/x'))).code).toBe('NETWORK');
  });

  it('aborts after the time limit and says TIMEOUT', async () => {
    vi.stubGlobal(
      'fetch',
      (_path: string, init: RequestInit) =>
        new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const started = Date.now();
    const err = await failure(request('GET', '/x', undefined, 50));
    expect(err.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

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
