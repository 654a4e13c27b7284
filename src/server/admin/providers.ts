import { Hono } from 'hono';
import { providerIdParamsSchema, providerInputSchema, providerUpdateSchema } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { staffActor } from '../auth';
import { jsonBody, param } from '../http/body';
import { addProvider, listProviders, testProvider, toProviderView, updateProvider } from '../providers';
import { audit } from './audit';

/** The SMM providers: listed, added, edited, disabled and tested by admins (audited; the key never in the log). */
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
    });
}
