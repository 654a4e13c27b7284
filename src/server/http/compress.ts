import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { compress } from 'hono/compress';

/** Answers shorter than this go as they are: gzip would save a few bytes at the cost of a compression stream. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Compresses answers of COMPRESS_THRESHOLD bytes or more for clients that accept it (hono's
 * `compress`). Its threshold can only see an answer's `Content-Length`, which an answer made by
 * `c.json` does not carry: here `c.json` writes it, so the short JSON answers of the API (an
 * order, a balance, a refusal) are sent as they are instead of through a gzip stream each.
 */
export function compressLarge(): MiddlewareHandler {
  const gzip = compress({ threshold: COMPRESS_THRESHOLD });
  return (c, next) => {
    const { body, json } = c;
    c.json = ((object: unknown, arg?: number | ResponseInit, headers?: Record<string, string | string[]>) => {
      const text: string | undefined = JSON.stringify(object);
      if (text === undefined) return json(object as never, arg as ContentfulStatusCode, headers);
      return body(text, arg as ContentfulStatusCode, { 'Content-Type': 'application/json', ...headers, 'Content-Length': String(Buffer.byteLength(text)) });
    }) as Context['json'];
    return gzip(c, next);
  };
}
