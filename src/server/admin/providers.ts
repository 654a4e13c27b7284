import { Hono } from 'hono';
import { providerIdParamsSchema, providerInputSchema, providerServicesQuerySchema, providerUpdateSchema } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { staffActor } from '../auth';
import { listProviderServices, readProviderCatalogue, requireProvider } from '../catalog';
import { jsonBody, param, query } from '../http/body';
import { addProvider, defaultOf, listProviders, testProvider, toProviderView, updateProvider } from '../providers';
import { audit } from './audit';

/**
 * The SMM providers: listed, added, edited, disabled and tested by admins (audited; the key never
 * in the log); each one's catalogue copy, and reading its catalogue now (src/server/catalog/sources.ts).
 */
export function adminProvidersRoutes(deps: AppDeps) {
  const db = deps.database.db;
  const keys = () => {
    if (!deps.providerKeys) throw new AppError('INTERNAL', 'Provider keys cannot be sealed.');
    return deps.providerKeys;
  };
  const idParam = param(providerIdParamsSchema);

  return new Hono()
    .get('/', async (c) => c.json({ providers: await listProviders(db) }))

    .post('/', jsonBody(providerInputSchema), async (c) => {
      const actor = staffActor(c);
      const input = c.req.valid('json');
      const row = await addProvider(db, keys(), deps.providers, input);
      await audit(db, actor, 'provider.create', { type: 'provider', id: row.id }, { name: row.name, protocol: row.protocol, url: row.url, callsPerSecond: row.callsPerSecond, enabled: row.enabled });
      const all = await listProviders(db);
      return c.json(all.find((p) => p.id === row.id) ?? toProviderView(row, false), 201);
    })

    .put('/:id', idParam, jsonBody(providerUpdateSchema), async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      const { before, after } = await updateProvider(db, keys(), deps.providers, id, input);
      const changes: Record<string, unknown> = {};
      for (const field of ['name', 'protocol', 'url', 'callsPerSecond', 'enabled'] as const) {
        if (input[field] !== undefined && input[field] !== before[field]) changes[field] = { from: before[field], to: after[field] };
      }
      if (input.key !== undefined) changes.key = 'replaced';
      const action = input.enabled === false && before.enabled ? 'provider.disable' : input.enabled === true && !before.enabled ? 'provider.enable' : 'provider.update';
      await audit(db, actor, action, { type: 'provider', id }, { name: after.name, changes });
      const all = await listProviders(db);
      return c.json(all.find((p) => p.id === id)!);
    })

    .post('/:id/test', idParam, async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      if (!deps.providers) throw new AppError('PROVIDER_NO_ANSWER', 'No SMM provider is configured.');
      const result = await testProvider(db, deps.providers, id);
      await audit(db, actor, 'provider.test', { type: 'provider', id }, { ok: result.ok, error: result.error });
      return c.json(result);
    })

    .get('/:id/services', idParam, query(providerServicesQuerySchema), async (c) => {
      const { id } = c.req.valid('param');
      return c.json({ services: await listProviderServices(db, id, c.req.valid('query')) });
    })

    // The provider is called before any transaction; the read records changes for the team, never prices.
    .post('/:id/catalogue', idParam, async (c) => {
      const actor = staffActor(c);
      const { id } = c.req.valid('param');
      await requireProvider(db, id);
      if (!deps.providers) throw new AppError('PROVIDER_NO_ANSWER', 'No SMM provider is configured.');
      // A provider added on another instance a moment ago: read the list again before giving up.
      if (!deps.providers.get(id)) await deps.providers.refresh?.();
      const provider = deps.providers.get(id);
      if (!provider) throw new AppError('NOT_FOUND', 'Provider not found.');
      const read = await readProviderCatalogue(db, provider, { isDefault: defaultOf(deps.providers.all()) === provider });
      await audit(db, actor, 'provider.catalogue', { type: 'provider', id }, { name: provider.name, ...read });
      await deps.realtime?.publish('*', { type: 'catalog' }).catch(() => {});
      return c.json(read);
    });
}
