import { serveStatic } from '@hono/node-server/serve-static';
import { RECEIPT_MAX_BYTES, RECEIPT_PATH } from './payments/bank';
import { Hono, type Context } from 'hono';
import { sql } from 'drizzle-orm';
import { mountApi } from './api';
import { seoRoutes } from './seo/routes';
import { apiGuards, pageGuards, pageVisitor } from './auth';
import { clientAddresses, clientIp } from './http/clientIp';
import { compressLarge } from './http/compress';
import { refuseNul } from './http/body';
import { errorBody, handleError } from './http/errors';
import { bodySizeLimit, requestTargetLimit } from './http/limits';
import { securityHeaders } from './http/security';
import { pageLanguage } from './web/language';
import { createPageCache } from './web/pageCache';
import { createPersonalPages } from './web/personalPages';
import { BROADCASTS_ONLY } from './realtime';
import { COOKIE_PREFIX } from '../core/contracts/account';
import { LANGUAGE_COOKIE } from '../core/i18n';
import type { AppDeps } from './deps';

export type { AppDeps };
export type ApiApp = Hono;

/**
 * Builds the HTTP application: `/api/*` for the JSON API, `/healthz`, hashed assets with
 * long-cache headers, and the server-rendered web app for every other path.
 */
export function buildApp(deps: AppDeps): Hono {
  const app = new Hono();
  const production = deps.env.NODE_ENV === 'production';

  app.onError(handleError(deps.logger));
  app.use('*', requestTargetLimit());
  app.use('*', securityHeaders({ production, dev: !deps.clientDir && !!deps.web }));
  app.use('*', compressLarge());
  app.use('*', clientAddresses(deps.env.TRUST_PROXY_HOPS));

  app.get('/healthz', async (c) => {
    try {
      await deps.database.db.execute(sql`select 1`);
      return c.json({ status: 'ok' });
    } catch {
      return c.json({ status: 'unavailable' }, 503);
    }
  });

  const api = new Hono();
  const tooLarge = (c: Context) => c.json(errorBody('PAYLOAD_TOO_LARGE', 'The request is too large.'), 413);
  const bodyLimit = bodySizeLimit(256 * 1024, tooLarge);
  // A bank transfer's receipt may be a phone's photo: its own limit, the file's and the form's framing.
  const receiptLimit = bodySizeLimit(RECEIPT_MAX_BYTES + 64 * 1024, tooLarge);
  api.use('*', (c, next) => (RECEIPT_PATH.test(c.req.path) ? receiptLimit(c, next) : bodyLimit(c, next)));
  api.use('*', refuseNul);
  api.use('*', ...apiGuards(deps));
  mountApi(api, deps);
  api.all('*', (c) => c.json(errorBody('NOT_FOUND', 'Not found.'), 404));
  app.route('/api', api);

  app.route('/', seoRoutes(deps));

  if (deps.clientDir) {
    const root = deps.clientDir;
    app.use(
      '/assets/*',
      async (c, next) => {
        await next();
        if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
      serveStatic({ root, precompressed: true }),
    );
    app.get('/favicon.svg', serveStatic({ root, onFound: (_p, c) => c.header('Cache-Control', 'public, max-age=86400') }));
  }

  if (deps.web) {
    const web = deps.web;
    // Loaders call the API in process with the request's headers; the answer is read here, not
    // sent on, so it must not be compressed. The API's limits per address count the page's
    // visitor: the address worked out for the page's request (http/clientIp.ts), handed on as the
    // only X-Forwarded-For entry, never one the visitor wrote; without a visitor (a shell), none.
    const inProcess = (requestHeaders: Headers, visitorIp?: string) => (path: string, init?: RequestInit) => {
      const headers = new Headers(requestHeaders);
      headers.delete('accept-encoding');
      headers.delete('content-length');
      new Headers(init?.headers).forEach((value, key) => headers.set(key, value));
      headers.delete('x-forwarded-for');
      if (visitorIp) headers.set('x-forwarded-for', visitorIp);
      return Promise.resolve(app.request(path, { ...init, headers }));
    };
    // Built pages come from memory: for visitors without a session (web/pageCache.ts), and the
    // shells of customers' pages (web/personalPages.ts); a change to what they show, on any
    // instance, empties both. Development renders every request afresh.
    const cache = deps.clientDir ? createPageCache() : null;
    const personal = deps.clientDir
      ? createPersonalPages({
          visitor: pageVisitor(deps),
          // The made-up customer of a shell: the page's request carries only its language, the
          // API is asked without a session, and `/api/me` answers the made-up customer.
          render: (url, lang, me) => {
            const headers = new Headers({ cookie: `${LANGUAGE_COOKIE}=${lang}; ${COOKIE_PREFIX}.session_token=shell` });
            const api = inProcess(new Headers({ cookie: `${LANGUAGE_COOKIE}=${lang}` }));
            return web.render(new Request(url, { headers }), {
              publicUrl: deps.publicUrl,
              shared: true,
              fetch: (path, init) => (new URL(path, deps.publicUrl).pathname === '/api/me' ? Promise.resolve(Response.json({ user: me })) : api(path, init)),
            });
          },
        })
      : null;
    // A page in a language remembers it for the pages without one (web/language.ts).
    app.use('*', pageLanguage({ secure: production }));
    if (cache) {
      app.use('*', cache.serve);
      const clear = () => {
        cache.clear();
        personal?.clear();
      };
      deps.realtime?.subscribe(BROADCASTS_ONLY, (event) => {
        if (event.type === 'settings' || event.type === 'catalog' || event.type === 'content') clear();
      });
      // After a gap in the listening connection such an event may have been missed.
      deps.realtime?.watch((change) => {
        if (change.kind === 'gap') clear();
      });
    }
    app.use('*', pageGuards(deps));
    if (personal) app.use('*', personal.serve);
    app.get('*', async (c) => {
      const response = await web.render(c.req.raw, { publicUrl: deps.publicUrl, fetch: inProcess(c.req.raw.headers, clientIp(c)) });
      return cache ? cache.keep(c, response) : response;
    });
  }
  return app;
}
