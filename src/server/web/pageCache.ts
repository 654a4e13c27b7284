import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { hasSessionCookie } from '../../core/contracts/account';
import { pathLanguage, requestLanguage } from '../../core/i18n';
import { keptBody } from './renderer';

/**
 * Public pages for visitors without a session, rendered once and served from memory.
 *
 * Such a page is the same for everyone who asks for the same address in the same language (the
 * remembered one, else the browser's: the only thing besides the address that the renderer reads
 * for them), so it is kept,
 * gzipped once, with an ETag, until the site's settings, catalogue or content change — the app
 * clears it on those events, on every instance — or for `ttlMs` at most. A signed-in visitor's
 * request never reads or fills it: their pages are rendered for them and marked private.
 *
 * A kept page is also compressed with Brotli at its best quality, once, off the event loop (in
 * zlib's thread pool): 15–20 % smaller than gzip, which brings a home page within the first round
 * trip's 14.6 KB (bench/README.md). That costs about 0.1 s of CPU a page, so it runs one page at
 * a time, and starts when the page is kept only for a page of the site's own (200, no query
 * string: a bounded set), after the copy under way if there is one; any other address waits until
 * it is asked for again while no copy is being made (made-up query strings and paths never cost
 * it, nor hold up the site's pages). Until its copy is ready, a page of the site's own goes out in
 * a quick Brotli copy made as it is kept (quality 5, about 1.5 ms: 7–10 % smaller than gzip), any
 * other address gzipped, as does every page to clients that do not take `br`. A page rendered again
 * when its time is up or after a `clear()`, byte for byte the one it replaces, keeps that one's
 * best copy: a page whose content did not change goes out at its smallest from the first answer.
 */
export interface PageCache {
  /** Answers a page request from memory when it can (before any other page middleware). */
  serve: MiddlewareHandler;
  /** Keeps a freshly rendered page when it may be shared, and answers with the kept copy. */
  keep(c: Context, response: Response): Promise<Response>;
  clear(): void;
  readonly size: number;
  /** Resolves once the Brotli copy under way, if any, is ready (tests). */
  compressed(): Promise<void>;
}

interface Entry {
  status: number;
  body: Buffer;
  gzip: Buffer;
  /** The quick copy of a page of the site's own, then the best once made. */
  brotli?: Buffer;
  /** Its best Brotli copy has been started, or refused, or carried over: it is not started again. */
  brotliStarted?: boolean;
  /** `brotli` is the best copy. */
  brotliBest?: boolean;
  etag: string;
  expires: number;
}

/** Statuses worth keeping: the page, and the not-found page (bounded like any other). */
const KEPT = new Set([200, 404]);
/** For shared caches in front of the app: store briefly, check back after that. */
export const PUBLIC_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=30, stale-while-revalidate=60';

/**
 * The address and the language it is shown in: the address's own (/az/…), else, for a page
 * without one, the remembered language or the browser's (web/language.ts). All an anonymous page
 * depends on.
 */
function keyOf(c: Context): string | null {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null;
  const cookie = c.req.header('cookie');
  if (hasSessionCookie(cookie) || c.req.header('authorization')) return null;
  const url = new URL(c.req.url);
  // A page in a language (/az/…, /tr/…, /en/…) is shown in it whatever the visitor remembers.
  return `${url.pathname}${url.search}|${pathLanguage(url.pathname) ?? requestLanguage(cookie, c.req.header('accept-language'))}`;
}

/** The content codings an `Accept-Encoding` header takes (those with `q=0` refused). */
export function acceptedCodings(header: string | undefined): Set<string> {
  const codings = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((x) => x.startsWith('q='));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    codings.add(name);
  }
  return codings;
}

const compressBrotli = promisify(brotliCompress);
/** Brotli's settings for HTML at a quality: 11 for the best copy, 5 for the quick one. */
export const brotliParams = (body: Buffer, quality: number) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
});
export const QUICK_BROTLI_QUALITY = 5;

function answer(c: Context, entry: Entry): Response {
  const headers = new Headers({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': PUBLIC_PAGE_CACHE_CONTROL,
    ETag: entry.etag,
    Vary: 'Cookie, Accept-Encoding',
  });
  const match = c.req.header('if-none-match');
  if (match && match.split(',').some((tag) => tag.trim() === entry.etag)) return new Response(null, { status: 304, headers });
  const accepted = acceptedCodings(c.req.header('accept-encoding'));
  const coding = entry.brotli && accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
  if (coding) headers.set('Content-Encoding', coding);
  const body = coding === 'br' ? entry.brotli! : coding === 'gzip' ? entry.gzip : entry.body;
  headers.set('Content-Length', String(body.length));
  return new Response(c.req.method === 'HEAD' ? null : keptBody(body), { status: entry.status, headers });
}

export function createPageCache(opts: { maxEntries?: number; ttlMs?: number; now?: () => number } = {}): PageCache {
  const maxEntries = opts.maxEntries ?? 500;
  const ttlMs = opts.ttlMs ?? 60_000;
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();
  /**
   * The best copies of the pages let go by the last `clear()`, by key: a page rendered again the
   * same, byte for byte, takes its copy back (the catalogue's scheduled read announces a change
   * whether or not a page shows one). Dropped at the next clear, at most `maxEntries`.
   */
  let clearedCopies = new Map<string, { etag: string; brotli: Buffer }>();
  /** The Brotli copy being made, if any: one page at a time. */
  let compressing: Promise<void> | null = null;
  /**
   * Pages of the site's own kept while a copy was being made, by their key: theirs follow, in turn,
   * while they are still the page kept under it.
   */
  const queued: { key: string; entry: Entry }[] = [];
  const compress = (entry: Entry, queueAs?: string) => {
    if (entry.brotliStarted) return;
    if (compressing) {
      if (queueAs !== undefined && !queued.some((q) => q.entry === entry)) queued.push({ key: queueAs, entry });
      return;
    }
    entry.brotliStarted = true;
    const body = entry.body;
    compressing = compressBrotli(body, brotliParams(body, constants.BROTLI_MAX_QUALITY)).then(
      (brotli) => {
        entry.brotli = brotli;
        entry.brotliBest = true;
      },
      // Only the smallest copy is lost: the page goes on being sent in its quick copy, or gzipped.
      () => {},
    );
    void compressing.finally(() => {
      compressing = null;
      // The next waiting page that has not expired, been replaced or let go meanwhile.
      for (let next = queued.shift(); next; next = queued.shift()) {
        if (next.entry.expires > now() && entries.get(next.key) === next.entry) return compress(next.entry);
      }
    });
  };

  return {
    get size() {
      return entries.size;
    },
    serve: async (c, next) => {
      const key = keyOf(c);
      const entry = key ? entries.get(key) : undefined;
      if (!entry) return next();
      // Rendered again; the one it replaces stays until then, for its Brotli copy (keep).
      if (entry.expires <= now()) return next();
      c.res = answer(c, entry);
      compress(entry);
    },
    async keep(c, response) {
      const key = keyOf(c);
      const shareable =
        key !== null &&
        KEPT.has(response.status) &&
        (response.headers.get('Content-Type') ?? '').startsWith('text/html') &&
        !/private|no-store/.test(response.headers.get('Cache-Control') ?? '');
      if (!shareable) return response;
      const body = Buffer.from(await response.arrayBuffer());
      const entry: Entry = {
        status: response.status,
        body,
        gzip: gzipSync(body, { level: 6 }),
        etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
        expires: now() + ttlMs,
      };
      const kept = entries.get(key);
      const previous = kept?.brotliBest ? { etag: kept.etag, brotli: kept.brotli! } : clearedCopies.get(key);
      clearedCopies.delete(key);
      const ownPage = entry.status === 200 && !new URL(c.req.url).search;
      if (previous?.etag === entry.etag) {
        entry.brotli = previous.brotli;
        entry.brotliStarted = entry.brotliBest = true;
      } else if (ownPage) {
        entry.brotli = brotliCompressSync(body, brotliParams(body, QUICK_BROTLI_QUALITY));
      }
      entries.delete(key);
      entries.set(key, entry);
      if (ownPage) compress(entry, key);

      // The oldest entries go first: an address space of query strings cannot grow it unbounded.
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return answer(c, entry);
    },
    clear: () => {
      clearedCopies = new Map();
      for (const [key, entry] of entries) if (entry.brotliBest) clearedCopies.set(key, { etag: entry.etag, brotli: entry.brotli! });
      entries.clear();
      queued.length = 0;
    },
    async compressed() {
      while (compressing) await compressing;
    },
  };
}
