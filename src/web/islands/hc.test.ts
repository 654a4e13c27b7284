import { describe, expect, it } from 'vitest';
import { hc } from './hc';

type Call = { url: string; init: RequestInit };

function client() {
  const calls: Call[] = [];
  const api = hc('/api', {
    fetch: (input, init) => {
      calls.push({ url: String(input), init: init ?? {} });
      return Promise.resolve(new Response('{}'));
    },
  }) as Record<string, any>;
  return { api, calls };
}

describe('the islands build’s API client (hono/client as public pages build it)', () => {
  it('sends a path with its params and query, and `json` as a JSON body', async () => {
    const { api, calls } = client();
    await api.track[':number'].$get({ param: { number: 'AR-1' }, query: { lang: 'az', tag: ['a', 'b'] } });
    await api.auth['sign-out'].$post({ json: { all: true } });
    expect(calls[0]).toMatchObject({ url: '/api/track/AR-1?lang=az&tag=a&tag=b', init: { method: 'GET' } });
    expect(calls[1]).toMatchObject({ url: '/api/auth/sign-out', init: { method: 'POST', body: '{"all":true}', headers: { 'content-type': 'application/json' } } });
  });

  it('sends `form` as a multipart body, a file as it was chosen (a bank transfer’s receipt)', async () => {
    const { api, calls } = client();
    const receipt = new File([new Uint8Array([137, 80, 78, 71])], 'qebz.png', { type: 'image/png' });
    await api.payments[':reference'].receipt.$post({ param: { reference: 'balance-x1' }, form: { receipt } });
    const { url, init } = calls[0]!;
    expect(url).toBe('/api/payments/balance-x1/receipt');
    expect(init.body).toBeInstanceOf(FormData);
    const sent = (init.body as FormData).get('receipt') as File;
    expect(sent.name).toBe('qebz.png');
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
    // No content type of ours: the browser's carries the multipart boundary.
    expect((init.headers as Record<string, string>)['content-type']).toBeUndefined();
  });
});
