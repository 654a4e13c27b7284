import type { MiddlewareHandler } from 'hono';
import { cookieLanguage, LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE, pathLanguage } from '../../core/i18n';

/** The `Set-Cookie` value that remembers a language for the pages without a prefix. */
export const languageCookie = (lang: string, secure: boolean) =>
  `${LANGUAGE_COOKIE}=${lang}; Path=/; Max-Age=${LANGUAGE_COOKIE_MAX_AGE}; SameSite=Lax${secure ? '; Secure' : ''}`;

const addVary = (headers: Headers, ...names: string[]) => {
  const have = (headers.get('Vary') ?? '').split(',').map((v) => v.trim()).filter(Boolean);
  for (const name of names) if (!have.some((h) => h.toLowerCase() === name.toLowerCase())) have.push(name);
  headers.set('Vary', have.join(', '));
};

/**
 * The remembered language of page requests (docs/rules.md#languages), around the page cache and
 * the renderer:
 *
 * - a page in a language (`/az/…`) remembers it: when the request's cookie names another one (or
 *   none), the answer sets the cookie. Such an answer is marked `private`, so a shared cache in
 *   front of the app never stores a `Set-Cookie`; the next request, with the cookie, is shared as usual;
 * - a page without a prefix (and the redirect of `/`) is rendered in the cookie's language, else
 *   in the first of ours among the browser's languages (`Accept-Language`), so its answer varies
 *   by both headers.
 */
export function pageLanguage(opts: { secure: boolean }): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return;
    const first = pathLanguage(c.req.path);
    const headers = c.res.headers;
    if (!first) {
      addVary(headers, 'Cookie', 'Accept-Language');
      return;
    }
    if (cookieLanguage(c.req.header('cookie')) === first) return;
    const type = headers.get('Content-Type') ?? '';
    if (!type.startsWith('text/html') && c.res.status !== 304) return;
    headers.append('Set-Cookie', languageCookie(first, opts.secure));
    const cacheControl = headers.get('Cache-Control') ?? '';
    if (!/private|no-store/.test(cacheControl)) headers.set('Cache-Control', 'private, no-cache');
  };
}
