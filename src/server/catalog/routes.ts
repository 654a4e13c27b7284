import { Hono, type TypedResponse } from 'hono';
import { z } from 'zod';
import type { ServiceList } from '../../core/contracts/catalog';
import { AppError } from '../../core/errors';
import { languageQuerySchema as languageQuery } from '../../core/contracts/language';
import { DEFAULT_LANGUAGE } from '../../core/i18n';
import { param, query } from '../http/body';
import { platformsFromServices } from '../../core/platforms';
import type { AppDeps } from '../deps';
import { localizedParams } from './paramTexts';
import { createCatalogReader, findService } from './service';


/**
 * Public catalogue API: the compact service list (ETag, revalidated by the browser and shared
 * caches), one service in full, and the platform list. Read from the database only: never waits on
 * the provider, never calls it.
 */
export function catalogRoutes(deps: AppDeps) {
  const reader = createCatalogReader(deps.database.db);
  const serviceNotFound = () => new AppError('SERVICE_NOT_FOUND', 'Service not found.');

  return new Hono()
    .get('/services', query(languageQuery), async (c) => {
      const { body, etag } = await reader.list(c.req.valid('query').lang);
      c.header('ETag', etag);
      c.header('Cache-Control', 'public, max-age=0, must-revalidate');
      c.header('Vary', 'Accept-Encoding');
      if (c.req.header('If-None-Match') === etag) return c.body(null, 304);
      c.header('Content-Type', 'application/json; charset=utf-8');
      // The list is kept as JSON text (its ETag is over these bytes); its shape is the contract's.
      return c.body(body) as unknown as TypedResponse<ServiceList, 200, 'json'>;
    })
    .get('/services/:id', param(z.object({ id: z.string().regex(/^[\w-]{1,64}$/) }), serviceNotFound), query(languageQuery), async (c) => {
      const service = await findService(deps.database.db, c.req.valid('param').id);
      if (!service) throw serviceNotFound();
      const { lang } = c.req.valid('query');
      const detail = await reader.detail(service, lang);
      c.header('Cache-Control', 'public, max-age=60');
      return c.json({ ...detail, params: await localizedParams(deps.database.db, service.params, lang) });
    })
    .get('/platforms', async (c) => {
      const { body, etag } = await reader.list(DEFAULT_LANGUAGE);
      c.header('ETag', etag);
      c.header('Cache-Control', 'public, max-age=0, must-revalidate');
      if (c.req.header('If-None-Match') === etag) return c.body(null, 304);
      const list = JSON.parse(body) as { services: { platform: string }[] };
      return c.json({ platforms: platformsFromServices(list.services) });
    });
}
