import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorBody } from './errors';

/** The longest path the site answers: its own URLs stay far below it (slugs, order numbers, tokens). */
export const MAX_PATH_BYTES = 2048;
/** The longest path with its query string. */
export const MAX_TARGET_BYTES = 8192;

/**
 * Refuses absurdly long request targets with 414 before any routing or rendering, so no later
 * step ever works on a path that no page of the site can have.
 */
export function requestTargetLimit(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    const queryStart = url.indexOf('?', pathStart);
    const pathLength = (queryStart < 0 ? url.length : queryStart) - pathStart;
    if (pathStart >= 0 && (pathLength > MAX_PATH_BYTES || url.length - pathStart > MAX_TARGET_BYTES)) {
      return c.json(errorBody('URI_TOO_LONG', 'The address is too long.'), 414);
    }
    await next();
  };
}

/**
 * Refuses a request body larger than `maxSize` bytes (`onError` answers it). A body whose
 * `Content-Length` says its size is judged by that header alone, before a byte of it is read, and
 * stays where it is for the handler to read straight from the connection; only a body of
 * unknown size (chunked) is read here, counted as it arrives (hono's `bodyLimit`).
 */
export function bodySizeLimit(maxSize: number, onError: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const counted = bodyLimit({ maxSize, onError });
  return async (c, next) => {
    // hono's `bodyLimit` looks at the body stream first, which makes the server build a web
    // stream of every request's body; the header is enough to judge most.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) return parseInt(length || '0', 10) > maxSize ? onError(c) : next();
    return counted(c, next);
  };
}
