import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing API requests must come from our own pages: an Origin other than the public
 * URL's is refused, and so is a request with cookies but no Origin at all (browsers always send
 * it on such requests; its absence with cookies means something is forging them). Paths in
 * `serverToServer` (the card gateway's callback) carry no cookies and are exempt.
 */
export function originCheck(opts: { origins: string[]; serverToServer?: string[] }): MiddlewareHandler {
  const allowed = new Set(opts.origins);
  const exempt = new Set(opts.serverToServer ?? []);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || exempt.has(c.req.path)) return next();
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      if (!allowed.has(origin)) throw new AppError('ORIGIN_REFUSED', 'This request did not come from this site.');
    } else if (c.req.header('cookie')) {
      throw new AppError('ORIGIN_REFUSED', 'This request did not come from this site.');
    }
    return next();
  };
}

/**
 * The origins our pages are served from: the public URL's. Without a configured PUBLIC_URL (local
 * use) the same port on the other loopback names is ours too (localhost, 127.0.0.1, [::1]).
 */
export function siteOrigins(publicUrl: string, configured: boolean): string[] {
  const url = new URL(publicUrl);
  if (configured || !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return [url.origin];
  return ['localhost', '127.0.0.1', '[::1]'].map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`);
}
