import type { MiddlewareHandler } from 'hono';
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
