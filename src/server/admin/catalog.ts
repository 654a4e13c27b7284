import { Hono } from 'hono';
import { localServiceInputSchema, numericIdParamsSchema, paramTextOverrideInputSchema, paramTextParamsSchema, serviceNameInputSchema, serviceNameParamsSchema } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { staffActor } from '../auth';
import { createServiceName, deleteParamTexts, deleteServiceName, listApiServices, listServiceNames, loadParamOverrides, saveParamTexts, syncCatalogues, updateServiceName } from '../catalog';
import { createLocalService, deleteLocalService, listLocalServices, updateLocalService } from '../content';
import { jsonBody, param } from '../http/body';
import { audit } from './audit';
import { adminProviderCatalogRoutes } from './providerCatalog';

const notFound = () => new AppError('NOT_FOUND', 'Not found.');
const idParam = param(numericIdParamsSchema, notFound);

/** Local services, the provider catalogue (list and refresh), per-language service names, and the provider catalogues' changes, imports and sources. */
export function adminCatalogRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return (
    new Hono()
      // Open pages apply a catalogue change at once (names, texts, prices after a refresh).
      .use('*', async (c, next) => {
        await next();
        if (c.req.method !== 'GET' && c.res.status < 400) await deps.realtime?.publish('*', { type: 'catalog' }).catch(() => {});
      })

      .get('/services', async (c) => c.json({ services: await listLocalServices(db) }))
      .post('/services', jsonBody(localServiceInputSchema), async (c) => {
        const actor = staffActor(c);
        const input = c.req.valid('json');
        const row = await createLocalService(db, input);
        await audit(db, actor, 'service.create', { type: 'service', id: row.id }, { name: input.name.az });
        return c.json(row, 201);
      })
      .put('/services/:id', jsonBody(localServiceInputSchema), idParam, async (c) => {
        const actor = staffActor(c);
        const { id } = c.req.valid('param');
        const input = c.req.valid('json');
        const row = await updateLocalService(db, id, input);
        await audit(db, actor, 'service.update', { type: 'service', id }, { name: input.name.az });
        return c.json(row);
      })
      .delete('/services/:id', idParam, async (c) => {
        const actor = staffActor(c);
        const { id } = c.req.valid('param');
        const row = await deleteLocalService(db, id);
        await audit(db, actor, 'service.delete', { type: 'service', id }, { name: row.name.az });
        return c.body(null, 204);
      })

      .get('/api-services', async (c) => c.json({ services: await listApiServices(db) }))
      .post('/api-services/refresh', async (c) => {
        const actor = staffActor(c);
        if (!deps.providers) throw new AppError('PROVIDER_NO_ANSWER', 'No provider configured.');
        const result = await syncCatalogues(db, deps.providers, deps.logger);
        await audit(db, actor, 'catalog.refresh', { type: 'catalog' }, result);
        return c.json(result);
      })

      // Service names: words of provider names with their az and tr wording, edited together
      // (docs/rules.md#catalogue), for every service whose name has the words or for one service; the storefront
      // applies them with src/core/serviceNames.ts, which the admin's preview runs too.
      .get('/service-names', async (c) => c.json({ names: await listServiceNames(db) }))
      .post('/service-names', jsonBody(serviceNameInputSchema), async (c) => {
        const actor = staffActor(c);
        const input = c.req.valid('json');
        await createServiceName(db, input);
        await audit(db, actor, 'service-name.create', { type: 'service-name', id: input.apiServiceName }, input);
        return c.json(input, 201);
      })
      .put('/service-names/:name', jsonBody(serviceNameInputSchema), param(serviceNameParamsSchema), async (c) => {
        const actor = staffActor(c);
        // The router has decoded the segment already; decoding again breaks names holding a '%'.
        const { name: original } = c.req.valid('param');
        const input = c.req.valid('json');
        await updateServiceName(db, original, input);
        await audit(db, actor, 'service-name.update', { type: 'service-name', id: original }, input);
        return c.json(input);
      })
      .delete('/service-names/:name', param(serviceNameParamsSchema), async (c) => {
        const actor = staffActor(c);
        const { name } = c.req.valid('param');
        await deleteServiceName(db, name);
        await audit(db, actor, 'service-name.delete', { type: 'service-name', id: name });
        return c.body(null, 204);
      })

      // Param texts: an admin's wording of a provider param kind per language, served with the
      // service details; a save with every text blank removes the override.
      .get('/param-texts', async (c) => c.json({ overrides: await loadParamOverrides(db) }))
      .put('/param-texts', jsonBody(paramTextOverrideInputSchema), async (c) => {
        const actor = staffActor(c);
        const input = c.req.valid('json');
        await saveParamTexts(db, input);
        await audit(db, actor, 'param-text.save', { type: 'param-text', id: `${input.kind}:${input.lang}` }, input);
        return c.json(input);
      })
      .delete('/param-texts/:kind/:lang', param(paramTextParamsSchema, notFound), async (c) => {
        const actor = staffActor(c);
        const { kind, lang } = c.req.valid('param');
        await deleteParamTexts(db, kind, lang);
        await audit(db, actor, 'param-text.delete', { type: 'param-text', id: `${kind}:${lang}` });
        return c.body(null, 204);
      })

      // Provider catalogues: changes, imports with a markup, each service's sources.
      .route('/', adminProviderCatalogRoutes(deps))
  );
}
