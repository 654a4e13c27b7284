import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD, compressLarge } from './compress';

const long = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}` })) };
const app = new Hono()
  .use('*', compressLarge())
  .get('/short', (c) => c.json({ order: 12345 }))
  .get('/short-created', (c) => c.json({ ok: true }, 201, { 'X-Kind': 'created' }))
  .get('/long', (c) => c.json(long))
  .get('/text', (c) => c.text('x'.repeat(COMPRESS_THRESHOLD * 2)));

const gzip = { headers: { 'accept-encoding': 'gzip, deflate' } };

describe('compression of answers', () => {
  it('sends a short JSON answer as it is, with its length, even to a client that accepts gzip', async () => {
    const res = await app.request('/short', gzip);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-length')).toBe(String('{"order":12345}'.length));
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ order: 12345 });
    const created = await app.request('/short-created', gzip);
    expect([created.status, created.headers.get('x-kind'), created.headers.get('content-encoding')]).toEqual([201, 'created', null]);
    expect(await created.json()).toEqual({ ok: true });
  });

  it('gzips a long answer for a client that accepts it, and only then', async () => {
    const res = await app.request('/long', gzip);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-length')).toBeNull();
    expect(JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString())).toEqual(long);
    expect((await app.request('/text', gzip)).headers.get('content-encoding')).toBe('gzip');
    const plain = await app.request('/long');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual(long);
  });
});
