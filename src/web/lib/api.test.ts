import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, apiClient, ApiError, REQUEST_TIMEOUT_MS, timed, unwrap } from './api';

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

describe('the typed client and unwrap', () => {
  it('sends the path, query and JSON body the route declares, with the session cookie, and gives the answer', async () => {
    const fetch = vi.fn(async () => json(201, { id: 'k1', name: 'shop', key: 'secret' }));
    vi.stubGlobal('fetch', fetch);
    expect(await unwrap((o) => api['api-keys'].$post({ json: { name: 'shop' } }, o))).toEqual({ id: 'k1', name: 'shop', key: 'secret' });
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/api-keys');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"name":"shop"}');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');

    fetch.mockImplementation(async () => json(200, { services: [] }));
    await unwrap((o) => api.catalog.services[':id'].$get({ param: { id: 'a-1' }, query: { lang: 'az' } }, o));
    expect((fetch.mock.calls[1] as unknown as [string])[0]).toBe('/api/catalog/services/a-1?lang=az');
  });

  it('turns a refusal into the server code, status and details; an unknown code or a body that is not JSON reads as INTERNAL', async () => {
    vi.stubGlobal('fetch', async () => json(429, { error: { code: 'RATE_LIMITED', message: 'x', details: { retryAfterSeconds: 90 } } }));
    const limited = await failure(unwrap((o) => api.orders.$get({}, o)));
    expect([limited.code, limited.status, limited.details]).toEqual(['RATE_LIMITED', 429, { retryAfterSeconds: 90 }]);

    vi.stubGlobal('fetch', async () => json(500, { error: { code: 'SOMETHING_NEW' } }));
    expect((await failure(unwrap((o) => api.orders.$get({}, o)))).code).toBe('INTERNAL');
    vi.stubGlobal('fetch', async () => new Response('<html>bad gateway</html>', { status: 502 }));
    const bad = await failure(unwrap((o) => api.orders.$get({}, o)));
    expect([bad.code, bad.status]).toEqual(['INTERNAL', 502]);
  });

  it('says NETWORK when nothing answered', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const err = await failure(unwrap((o) => api.wallet.$get({}, o)));
    expect([err.code, err.status]).toEqual(['NETWORK', 0]);
  });

  it('gives up after the time limit and says TIMEOUT; without a limit it waits', async () => {
    const hanging = (_path: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    vi.stubGlobal('fetch', hanging);
    // The fetch never settles on its own: only the 50 ms limit can end it.
    const err = await failure(unwrap((o) => api.wallet.$get({}, o), 50));
    expect(err.code).toBe('TIMEOUT');

    const unlimited = unwrap((o) => api.wallet.$get({}, o));
    const state = await Promise.race([unlimited.then(() => 'settled', () => 'settled'), new Promise((r) => setTimeout(() => r('waiting'), 100))]);
    expect(state).toBe('waiting');
  });

  it('a body cut off by the time limit is a TIMEOUT too', async () => {
    vi.stubGlobal('fetch', async (_path: string, init: RequestInit) => {
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"balanceMicros":'));
          init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    });
    expect((await failure(unwrap((o) => api.wallet.$get({}, o), 50))).code).toBe('TIMEOUT');
  });

  it('goes through the server render’s in-process fetch when given one, asking for an uncompressed answer', async () => {
    const inProcess = vi.fn(async () => json(200, { user: null }));
    expect(await unwrap((o) => apiClient(inProcess).me.$get({}, o))).toEqual({ user: null });
    const [path, init] = inProcess.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/me');
    expect(new Headers(init.headers).get('accept-encoding')).toBe('identity');
  });
});

describe('timed: the signed-in pages’ calls', () => {
  it('returns the JSON body and sends JSON with the session cookie', async () => {
    const fetch = vi.fn(async () => json(201, { number: 'AR-1' }));
    vi.stubGlobal('fetch', fetch);
    expect(await timed((o) => api.orders.$post({ json: { a: 1 } as never }, o))).toEqual({ number: 'AR-1' });
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/orders');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"a":1}');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
  });

  it('turns a refusal into its code, status and details', async () => {
    vi.stubGlobal('fetch', async () => json(422, { error: { code: 'QUANTITY_OUT_OF_RANGE', message: 'x', details: { min: 10, max: 500, step: 5 } } }));
    const err = await failure(timed((o) => api.orders.$post({ json: {} as never }, o)));
    expect([err.code, err.status, err.details]).toEqual(['QUANTITY_OUT_OF_RANGE', 422, { min: 10, max: 500, step: 5 }]);
  });

  it('reads an unknown code or a body that is not JSON as INTERNAL', async () => {
    vi.stubGlobal('fetch', async () => json(500, { error: { code: 'SOMETHING_NEW' } }));
    expect((await failure(timed((o) => api.orders.$get({}, o)))).code).toBe('INTERNAL');
    vi.stubGlobal('fetch', async () => new Response('<html>bad gateway</html>', { status: 502 }));
    const err = await failure(timed((o) => api.orders.$get({}, o)));
    expect([err.code, err.status]).toEqual(['INTERNAL', 502]);
  });

  it('says NETWORK when nothing answered', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    expect((await failure(timed((o) => api.orders.$get({}, o)))).code).toBe('NETWORK');
  });

  it('aborts after REQUEST_TIMEOUT_MS and says TIMEOUT', async () => {
    vi.useFakeTimers();
    try {
      vi.stubGlobal(
        'fetch',
        (_path: string, init: RequestInit) =>
          new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
      );
      const pending = failure(timed((o) => api.orders.$get({}, o)));
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
      const early = await Promise.race([pending.then(() => 'settled'), Promise.resolve('waiting')]);
      expect(early).toBe('waiting');
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).code).toBe('TIMEOUT');
    } finally {
      vi.useRealTimers();
    }
  });
});
