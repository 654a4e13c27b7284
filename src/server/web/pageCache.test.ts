import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import type * as Zlib from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { LANGUAGE_COOKIE } from '../../core/i18n';
import { acceptedCodings, brotliParams, createPageCache, QUICK_BROTLI_QUALITY } from './pageCache';

/** The Brotli copies made, by the body they were made of: the real compression, counted. */
const brotli = vi.hoisted(() => ({ made: [] as string[] }));
vi.mock('node:zlib', async (original) => {
  const zlib = await original<typeof Zlib>();
  const brotliCompress = (body: Buffer, ...rest: unknown[]) => {
    brotli.made.push(body.toString());
    return (zlib.brotliCompress as (...args: unknown[]) => void)(body, ...rest);
  };
  return { ...zlib, default: { ...zlib, brotliCompress }, brotliCompress };
});

/** A page of a few KB, long enough for Brotli's qualities to differ. */
const longPage = (mark: string) => `<html><body><h1>${mark}</h1><ul>${Array.from({ length: 300 }, (_, i) => `<li>${(i * 7919) % 1009} ${mark}</li>`).join('')}</ul></body></html>`;
/** A page app whose renderer counts its renders and can be told what to answer. */
function pages(opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
  const cache = createPageCache(opts);
  let renders = 0;
  let next: { status?: number; cacheControl?: string; text?: string } = {};
  const app = new Hono();
  app.use('*', cache.serve);
  app.get('*', (c) => {
    renders += 1;
    const res = new Response(next.text ?? longPage(`page ${c.req.path} #${renders}`), {
      status: next.status ?? 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': next.cacheControl ?? 'no-cache' },
    });
    return cache.keep(c, res);
  });
  return {
    cache,
    get renders() {
      return renders;
    },
    answer: (n: typeof next) => (next = n),
    get: (path: string, headers: Record<string, string> = {}) => app.request(path, { headers }),
  };
}

/** The page's two Brotli copies: made as it is kept, and the best. */
const quickCopy = (html: string) => brotliCompressSync(Buffer.from(html), brotliParams(Buffer.from(html), QUICK_BROTLI_QUALITY));
const bestCopy = (html: string) => brotliCompressSync(Buffer.from(html), brotliParams(Buffer.from(html), constants.BROTLI_MAX_QUALITY));
const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('page cache', () => {
  it('renders an anonymous page once and serves it from memory, with an ETag and shared-cache headers', async () => {
    const p = pages();
    const first = await p.get('/en');
    const second = await p.get('/en');
    expect(p.renders).toBe(1);
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get('ETag')).toBe(first.headers.get('ETag'));
    expect(second.headers.get('Cache-Control')).toMatch(/^public,.*s-maxage=/);
    expect(second.headers.get('Vary')).toMatch(/Cookie/);
  });

  it('answers 304 to a matching If-None-Match, and gzip to a client that takes it', async () => {
    const p = pages();
    const etag = (await p.get('/en')).headers.get('ETag')!;
    const notModified = await p.get('/en', { 'if-none-match': `"other", ${etag}` });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    const zipped = await p.get('/en', { 'accept-encoding': 'gzip, deflate' });
    expect(zipped.headers.get('Content-Encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toContain('page /en #1');
    expect(p.renders).toBe(1);
  });

  it('answers a page of the site’s own in a quick Brotli copy at once, in its best once made, and gzip to a client that refuses br', async () => {
    const p = pages();
    const page = longPage('home');
    p.answer({ text: page });
    const br = { 'accept-encoding': 'gzip, deflate, br' };
    // The first answer is made as the page is kept: its best copy has only just been started.
    const first = await p.get('/en', br);
    expect(first.headers.get('Content-Encoding')).toBe('br');
    expect((await bytesOf(first)).equals(quickCopy(page))).toBe(true);
    expect(quickCopy(page).length).toBeGreaterThan(bestCopy(page).length);
    await p.cache.compressed();
    const best = await p.get('/en', br);
    expect(best.headers.get('Content-Encoding')).toBe('br');
    const bytes = await bytesOf(best);
    expect(best.headers.get('Content-Length')).toBe(String(bytes.length));
    expect(bytes.equals(bestCopy(page))).toBe(true);
    expect(brotliDecompressSync(bytes).toString()).toBe(page);
    const refused = await p.get('/en', { 'accept-encoding': 'gzip, br;q=0' });
    expect(refused.headers.get('Content-Encoding')).toBe('gzip');
    expect(gunzipSync(await bytesOf(refused)).toString()).toBe(page);
    const plain = await p.get('/en');
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    expect(await plain.text()).toBe(page);
    expect(p.renders).toBe(1);
  });

  it('keeps the best copy of a page rendered again unchanged when its time is up or the cache was cleared; a changed page, or one whose best copy was not made yet, starts with a quick one', async () => {
    let clock = 0;
    const p = pages({ ttlMs: 1000, now: () => clock });
    const br = { 'accept-encoding': 'br' };
    const page = longPage('prices');
    p.answer({ text: page });
    await p.get('/en/prices', br);
    await p.cache.compressed();
    brotli.made.length = 0;
    clock = 1001;
    const again = await p.get('/en/prices', br);
    expect(p.renders).toBe(2);
    expect((await bytesOf(again)).equals(bestCopy(page))).toBe(true);
    await p.cache.compressed();
    expect(brotli.made).toEqual([]);
    // The content changed: a quick copy first, then its own best one.
    const changed = longPage('new prices');
    p.answer({ text: changed });
    clock = 2002;
    expect((await bytesOf(await p.get('/en/prices', br))).equals(quickCopy(changed))).toBe(true);
    await p.cache.compressed();
    expect(brotli.made).toEqual([changed]);
    expect((await bytesOf(await p.get('/en/prices', br))).equals(bestCopy(changed))).toBe(true);
    // Its time up while its best copy was still being made: the page kept again gets its own.
    p.answer({ text: page });
    clock = 3003;
    await p.get('/en/prices', br);
    clock = 4004;
    // The quick copy again, unless the first best copy was done by then (zlib's threads).
    const meanwhile = await bytesOf(await p.get('/en/prices', br));
    expect(meanwhile.equals(quickCopy(page)) || meanwhile.equals(bestCopy(page))).toBe(true);
    await p.cache.compressed();
    expect((await bytesOf(await p.get('/en/prices', br))).equals(bestCopy(page))).toBe(true);
    // Cleared (something changed somewhere): the same page, rendered again the same, takes its best copy back…
    p.cache.clear();
    expect((await bytesOf(await p.get('/en/prices', br))).equals(bestCopy(page))).toBe(true);
    // …once: cleared again, it starts over with a changed page.
    p.cache.clear();
    p.answer({ text: changed });
    expect((await bytesOf(await p.get('/en/prices', br))).equals(quickCopy(changed))).toBe(true);
    await p.cache.compressed();
    expect(p.renders).toBe(7);
  });

  it('compresses an address with a query string, or a not-found page, only once it is asked for again', async () => {
    const p = pages();
    const br = { 'accept-encoding': 'br' };
    await p.get('/en?ref=abc');
    p.answer({ status: 404 });
    await p.get('/no-such-page');
    await p.cache.compressed();
    // Asked for once: no copy was made.
    expect((await p.get('/en?ref=abc', br)).headers.get('Content-Encoding')).toBeNull();
    // That second request started it.
    await p.cache.compressed();
    expect((await p.get('/en?ref=abc', br)).headers.get('Content-Encoding')).toBe('br');
    expect((await p.get('/no-such-page', br)).headers.get('Content-Encoding')).toBeNull();
    await p.cache.compressed();
    const missing = await p.get('/no-such-page', br);
    expect([missing.status, missing.headers.get('Content-Encoding')]).toEqual([404, 'br']);
    expect(p.renders).toBe(2);
  });

  it('makes one Brotli copy at a time: a page of the site kept meanwhile gets its copy next; an address with a query string only when asked again while none is made', async () => {
    const p = pages();
    const br = { 'accept-encoding': 'br' };
    await p.get('/en?part=2');
    await p.get('/en');
    // /en's copy is under way: /tr's and /az's follow it, in turn, without being asked again.
    await p.get('/tr');
    await p.get('/az');
    // Asked again while a copy is made, the address with a query string is not queued.
    await p.get('/en?part=2');
    await p.cache.compressed();
    for (const [path, n] of [['/en', 2], ['/tr', 3], ['/az', 4]] as const) {
      expect((await bytesOf(await p.get(path, br))).equals(bestCopy(longPage(`page ${path} #${n}`))), path).toBe(true);
    }
    expect((await p.get('/en?part=2', br)).headers.get('Content-Encoding')).toBeNull();
    await p.cache.compressed();
    expect((await p.get('/en?part=2', br)).headers.get('Content-Encoding')).toBe('br');
    expect(p.renders).toBe(4);
  });

  it('makes no copy of a page that waited while it was replaced or the cache cleared', async () => {
    const p = pages();
    brotli.made.length = 0;
    await p.get('/en');
    // /en's copy is under way: /tr, /az and /about wait their turn.
    await p.get('/tr');
    await p.get('/az');
    await p.get('/about');
    p.cache.clear();
    // Rendered again once cleared; the /tr and /az that waited are no longer kept.
    await p.get('/tr');
    await p.cache.compressed();
    expect(brotli.made).toEqual([longPage('page /en #1'), longPage('page /tr #5')]);
    const br = await p.get('/tr', { 'accept-encoding': 'br' });
    expect([br.headers.get('Content-Encoding'), brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()]).toEqual(['br', longPage('page /tr #5')]);
  });

  it('reads the codings an Accept-Encoding header takes', () => {
    expect([...acceptedCodings('gzip, deflate, br, zstd')]).toEqual(['gzip', 'deflate', 'br', 'zstd']);
    expect([...acceptedCodings('br;q=0, GZIP;q=0.5,  identity')]).toEqual(['gzip', 'identity']);
    expect([...acceptedCodings('gzip;q=0.0, br;q=1')]).toEqual(['br']);
    expect(acceptedCodings(undefined).size).toBe(0);
  });

  it('keeps a page per address, and per remembered language where the address names none', async () => {
    const p = pages();
    await p.get('/terms', { cookie: `${LANGUAGE_COOKIE}=az` });
    await p.get('/terms', { cookie: `${LANGUAGE_COOKIE}=en` });
    await p.get('/terms?x=1', { cookie: `${LANGUAGE_COOKIE}=en` });
    await p.get('/terms', { cookie: `${LANGUAGE_COOKIE}=az` });
    expect(p.renders).toBe(3);
    // A page in a language is one page whatever the visitor remembers or their browser prefers.
    await p.get('/tr/prices');
    await p.get('/tr/prices', { cookie: `${LANGUAGE_COOKIE}=tr` });
    await p.get('/tr/prices', { cookie: `${LANGUAGE_COOKIE}=en`, 'accept-language': 'az' });
    expect(p.renders).toBe(4);
  });

  it('never serves nor keeps a page for a request with a session', async () => {
    const p = pages();
    await p.get('/en');
    const signedIn = await p.get('/en', { cookie: 'artim.session_token=abc' });
    expect(await signedIn.text()).toContain('#2');
    expect(signedIn.headers.get('ETag')).toBeNull();
    await p.get('/en/about', { cookie: '__Secure-artim.session_token=abc' });
    await p.get('/en/about');
    expect(p.renders).toBe(4);
  });

  it('does not keep private pages, errors or non-HTML answers', async () => {
    const p = pages();
    p.answer({ cacheControl: 'private, no-store' });
    await p.get('/a');
    await p.get('/a');
    p.answer({ status: 500 });
    await p.get('/b');
    await p.get('/b');
    expect(p.renders).toBe(4);
    p.answer({ status: 404 });
    await p.get('/missing');
    await p.get('/missing');
    expect(p.renders).toBe(5);
  });

  it('forgets everything on clear, and each page after its time to live', async () => {
    let clock = 0;
    const p = pages({ ttlMs: 1000, now: () => clock });
    await p.get('/en');
    p.cache.clear();
    await p.get('/en');
    expect(p.renders).toBe(2);
    clock = 999;
    await p.get('/en');
    expect(p.renders).toBe(2);
    clock = 1001;
    await p.get('/en');
    expect(p.renders).toBe(3);
  });

  it('holds at most maxEntries pages, dropping the oldest', async () => {
    const p = pages({ maxEntries: 3 });
    for (let i = 0; i < 10; i++) await p.get(`/en?q=${i}`);
    expect(p.cache.size).toBe(3);
    await p.get('/en?q=9');
    expect(p.renders).toBe(10);
    await p.get('/en?q=0');
    expect(p.renders).toBe(11);
  });
});
