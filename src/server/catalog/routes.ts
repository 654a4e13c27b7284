import { Hono } from 'hono';
import { AppError } from '../../core/errors';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../core/i18n';
import { platformsFromServices } from '../../core/platforms';
import type { AppDeps } from '../deps';
import { localizedParams } from './paramTexts';
import { createCatalogReader, findService } from './service';

const langOf = (value: string | undefined): Language => (isLanguage(value) ? value : DEFAULT_LANGUAGE);

/**
 * Public catalogue API: the compact service list (ETag, revalidated by the browser and shared
 * caches), one service in full, and the platform list. Read from the database only: never waits on
 * the provider, never calls it.
 */
export function catalogRoutes(deps: AppDeps) {
  const reader = createCatalogReader(deps.database.db);
  const app = new Hono();

  app.get('/services', async (c) => {
    const { body, etag } = await reader.list(langOf(c.req.query('lang')));
    c.header('ETag', etag);
    c.header('Cache-Control', 'public, max-age=0, must-revalidate');
    c.header('Vary', 'Accept-Encoding');
    if (c.req.header('If-None-Match') === etag) return c.body(null, 304);
    c.header('Content-Type', 'application/json; charset=utf-8');
    return c.body(body);
  });

  app.get('/services/:id', async (c) => {
    const id = c.req.param('id');
    if (!/^[\w-]{1,64}$/.test(id)) throw new AppError('SERVICE_NOT_FOUND', 'Service not found.');
    const service = await findService(deps.database.db, id);
    if (!service) throw new AppError('SERVICE_NOT_FOUND', 'Service not found.');
    const lang = langOf(c.req.query('lang'));
    const detail = await reader.detail(service, lang);
    c.header('Cache-Control', 'public, max-age=60');
    return c.json({ ...detail, params: await localizedParams(deps.database.db, service.params, lang) });
  });

  app.get('/platforms', async (c) => {
    const { body, etag } = await reader.list(DEFAULT_LANGUAGE);
    c.header('ETag', etag);
    c.header('Cache-Control', 'public, max-age=0, must-revalidate');
    if (c.req.header('If-None-Match') === etag) return c.body(null, 304);
    const list = JSON.parse(body) as { services: { platform: string }[] };
    return c.json({ platforms: platformsFromServices(list.services) });
  });

  return app;
}
