import { Hono } from 'hono';
import { catalogChangesQuerySchema, catalogImportSchema, catalogServiceIdParamsSchema, changeDecisionSchema, numericIdParamsSchema, serviceSourcesInputSchema } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { staffActor } from '../auth';
import { decideChange, importProviderServices, listChanges, previewImport, serviceSourcesOf, setServiceSources } from '../catalog';
import { jsonBody, param, query } from '../http/body';
import { getSettings } from '../settings';
import { audit } from './audit';

/**
 * The team's provider catalogues, under /catalog: the changes found at the
 * providers with the team's answers, importing provider services as the shop's own with a markup
 * (previewed first, with the site's fees), and each service's ordered sources. The rules are
 * src/server/catalog/sources.ts; these routes validate, call them and audit.
 */
export function adminProviderCatalogRoutes(deps: AppDeps) {
  const db = deps.database.db;
  const changeParam = param(numericIdParamsSchema, () => new AppError('NOT_FOUND', 'Change not found.'));
  const serviceParam = param(catalogServiceIdParamsSchema, () => new AppError('SERVICE_NOT_FOUND', 'Service not found.'));

  return new Hono()
    .get('/changes', query(catalogChangesQuerySchema), async (c) => {
      const { all } = c.req.valid('query');
      return c.json({ changes: await listChanges(db, { open: all !== '1' }) });
    })
    .post('/changes/:id', jsonBody(changeDecisionSchema), changeParam, async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      const { decision, markup } = c.req.valid('json');
      const result = await decideChange(db, id, decision, actor.id, markup);
      await audit(db, actor, `catalog.change.${decision === 'applied' ? 'apply' : 'dismiss'}`, { type: 'provider-service-change', id: String(id) }, { markup, services: result.services });
      return c.json(result);
    })

    .post('/import/preview', jsonBody(catalogImportSchema), async (c) => {
      const settings = await getSettings(db);
      const lines = await previewImport(db, c.req.valid('json'), { serviceFeePercent: settings.service_fee, baseFee: settings.base_fee });
      return c.json({ lines });
    })
    .post('/import', jsonBody(catalogImportSchema), async (c) => {
      const actor = staffActor(c);
      const input = c.req.valid('json');
      const created = await importProviderServices(db, input);
      await audit(db, actor, 'catalog.import', { type: 'provider', id: input.providerId }, { markup: input.markup, category: input.category, services: created });
      return c.json({ created }, 201);
    })

    .get('/services/:id/sources', serviceParam, async (c) => c.json(await serviceSourcesOf(db, c.req.valid('param').id)))
    .put('/services/:id/sources', jsonBody(serviceSourcesInputSchema), serviceParam, async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      await setServiceSources(db, id, input);
      await audit(db, actor, 'service.sources', { type: 'service', id }, input);
      return c.json(await serviceSourcesOf(db, id));
    });
}
