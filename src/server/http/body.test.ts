import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../core/errors';
import { createLogger } from '../logger';
import { jsonBody, param, query } from './body';
import { bodySizeLimit } from './limits';
import { handleError } from './errors';

const app = new Hono()
  .get('/items/:id', param(z.strictObject({ id: z.coerce.number().int().positive() }), () => new AppError('NOT_FOUND', 'Not found.')), (c) => c.json({ id: c.req.valid('param').id }))
  .get('/kinds/:kind', param(z.strictObject({ kind: z.enum(['a', 'b']) })), (c) => c.json(c.req.valid('param')))
  .get('/search', query(z.object({ page: z.coerce.number().int().min(1).default(1), q: z.string().optional() })), (c) => c.json(c.req.valid('query')))
  .post('/echo', jsonBody(z.strictObject({ n: z.number() })), (c) => c.json(c.req.valid('json')));
app.onError(handleError(createLogger('silent')));

const code = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

describe('request validators', () => {
  it('path parameters: the parsed value, 422 for a refused one, or the route’s own refusal', async () => {
    expect(await (await app.request('/items/12')).json()).toEqual({ id: 12 });
    const missing = await app.request('/items/abc');
    expect([missing.status, await code(missing)]).toEqual([404, 'NOT_FOUND']);
    const wrong = await app.request('/kinds/c');
    expect([wrong.status, await code(wrong)]).toEqual([422, 'VALIDATION_FAILED']);
  });

  it('query: defaults filled in, 422 when refused, a name given twice arrives as a list', async () => {
    expect(await (await app.request('/search?q=x')).json()).toEqual({ page: 1, q: 'x' });
    const wrong = await app.request('/search?page=0');
    expect([wrong.status, await code(wrong)]).toEqual([422, 'VALIDATION_FAILED']);
    const twice = await app.request('/search?q=x&q=y');
    expect([twice.status, await code(twice)]).toEqual([422, 'VALIDATION_FAILED']);
  });

  it('body: 400 when not JSON, 422 for an unknown field', async () => {
    const send = (body: string, type = 'application/json') => app.request('/echo', { method: 'POST', headers: { 'content-type': type }, body });
    expect(await (await send('{"n":1}')).json()).toEqual({ n: 1 });
    expect((await send('{"n":')).status).toBe(400);
    expect((await send('{"n":1,"x":2}')).status).toBe(422);
  });
});

describe('request size limit', () => {
  const limited = new Hono()
    .use('*', bodySizeLimit(16, (c) => c.json({ error: 'too large' }, 413)))
    .post('/', async (c) => c.text(await c.req.text()));

  it('refuses a body over the limit by its Content-Length or, sent in chunks, as it arrives; reads one within it', async () => {
    expect(await (await limited.request('/', { method: 'POST', body: 'short' })).text()).toBe('short');
    expect((await limited.request('/', { method: 'POST', body: 'x'.repeat(17), headers: { 'content-length': '17' } })).status).toBe(413);
    const chunked = (text: string) =>
      limited.request('/', {
        method: 'POST',
        body: new ReadableStream({ start: (s) => (s.enqueue(new TextEncoder().encode(text)), s.close()) }),
        duplex: 'half',
      } as RequestInit);
    expect((await chunked('x'.repeat(17))).status).toBe(413);
    expect(await (await chunked('fits')).text()).toBe('fits');
  });
});
