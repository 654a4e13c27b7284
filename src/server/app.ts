import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { sql } from 'drizzle-orm';
import { mountApi } from './api';
import { seoRoutes } from './seo/routes';
import { apiGuards, pageGuards } from './auth';
import { clientAddresses } from './http/clientIp';
import { refuseNul } from './http/body';
import { errorBody, handleError } from './http/errors';
import { requestTargetLimit } from './http/limits';
import { securityHeaders } from './http/security';
import { pageLanguage } from './web/language';
import { createPageCache } from './web/pageCache';
import { BROADCASTS_ONLY } from './realtime';
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
  app.use('*', compress());
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
  api.use('*', bodyLimit({ maxSize: 256 * 1024, onError: (c) => c.json(errorBody('PAYLOAD_TOO_LARGE', 'The request is too large.'), 413) }));
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
    // Built pages for visitors without a session come from memory (web/pageCache.ts); a change to
    // what they show, on any instance, empties it. Development renders every request afresh.
    const cache = deps.clientDir ? createPageCache() : null;
    // A page in a language remembers it for the pages without one (web/language.ts).
    app.use('*', pageLanguage({ secure: production }));
    if (cache) {
      app.use('*', cache.serve);
      deps.realtime?.subscribe(BROADCASTS_ONLY, (event) => {
        if (event.type === 'settings' || event.type === 'catalog' || event.type === 'content') cache.clear();
      });
      // After a gap in the listening connection such an event may have been missed.
      deps.realtime?.watch((change) => {
        if (change.kind === 'gap') cache.clear();
      });
    }
    app.use('*', pageGuards(deps));
    app.get('*', async (c) => {
      const response = await web.render(c.req.raw, {
        publicUrl: deps.publicUrl,
        // Loaders call the API in process with the visitor's cookies; the answer is read here,
        // not sent on, so it must not be compressed.
        fetch: (path, init) => {
          const headers = new Headers(c.req.raw.headers);
          headers.delete('accept-encoding');
          headers.delete('content-length');
          new Headers(init?.headers).forEach((value, key) => headers.set(key, value));
          return Promise.resolve(app.request(path, { ...init, headers }));
        },
      });
      return cache ? cache.keep(c, response) : response;
    });
  }
  return app;
}
