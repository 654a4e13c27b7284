import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { localServiceInputSchema, paramTextOverrideInputSchema, serviceNameInputSchema, type ServiceNameInput } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import { isLanguage } from '../../core/i18n';
import { PARAM_TEXT_FIELDS } from '../../core/paramTexts';
import type { AppDeps } from '../deps';
import { requireAdmin } from '../auth';
import { loadParamOverrides, syncCatalog } from '../catalog';
import { localServiceOrder } from '../content';
import { catalogServices, localServices, paramTextOverrides, serviceCustomNames } from '../db/schema';
import { jsonBody } from '../http/body';
import { audit } from './audit';

const idParam = (value: string) => {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('NOT_FOUND', 'Not found.');
  return id;
};
const isUniqueViolation = (err: unknown) => {
  for (let e: any = err; e; e = e.cause) if (e.code === '23505') return true;
  return false;
};

/** Local services, the provider catalogue (list and refresh) and per-language service names. */
export function adminCatalogRoutes(deps: AppDeps) {
  const app = new Hono();
  const db = deps.database.db;
  // Open pages apply a catalogue change at once (names, texts, prices after a refresh).
  app.use('*', async (c, next) => {
    await next();
    if (c.req.method !== 'GET' && c.res.status < 400) await deps.realtime?.publish('*', { type: 'catalog' }).catch(() => {});
  });

  app.get('/services', async (c) => {
    const rows = await db.select().from(localServices).orderBy(...localServiceOrder);
    return c.json({ services: rows });
  });
  app.post('/services', jsonBody(localServiceInputSchema), async (c) => {
    const actor = await requireAdmin(c);
    const input = c.req.valid('json');
    const [row] = await db.insert(localServices).values(input).returning();
    await audit(db, actor, 'service.create', { type: 'service', id: row!.id }, { name: input.name.az });
    return c.json(row, 201);
  });
  app.put('/services/:id', jsonBody(localServiceInputSchema), async (c) => {
    const actor = await requireAdmin(c);
    const id = idParam(c.req.param('id'));
    const input = c.req.valid('json');
    const [row] = await db.update(localServices).set({ ...input, updatedAt: new Date() }).where(eq(localServices.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND', 'Not found.');
    await audit(db, actor, 'service.update', { type: 'service', id }, { name: input.name.az });
    return c.json(row);
  });
  app.delete('/services/:id', async (c) => {
    const actor = await requireAdmin(c);
    const id = idParam(c.req.param('id'));
    const [row] = await db.delete(localServices).where(eq(localServices.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND', 'Not found.');
    await audit(db, actor, 'service.delete', { type: 'service', id }, { name: row.name.az });
    return c.body(null, 204);
  });

  app.get('/api-services', async (c) => {
    const rows = await db
      .select({ id: catalogServices.id, name: catalogServices.name, platform: catalogServices.platform, amountMinimum: catalogServices.amountMinimum, amountIncrement: catalogServices.amountIncrement, tiers: catalogServices.tiers, syncedAt: catalogServices.syncedAt })
      .from(catalogServices)
      .where(eq(catalogServices.active, true))
      .orderBy(catalogServices.platform, sql`${catalogServices.id}::text`);
    return c.json({ services: rows });
  });
  app.post('/api-services/refresh', async (c) => {
    const actor = await requireAdmin(c);
    if (!deps.provider) throw new AppError('PROVIDER_NO_ANSWER', 'No provider configured.');
    const result = await syncCatalog(db, deps.provider);
    await audit(db, actor, 'catalog.refresh', { type: 'catalog' }, result);
    return c.json(result);
  });

  /** A name limited to one service must name a service of the catalogue. */
  const assertService = async (serviceId: string | null) => {
    if (serviceId === null) return;
    const [row] = await db.select({ id: catalogServices.id }).from(catalogServices).where(and(eq(catalogServices.id, serviceId), eq(catalogServices.active, true)));
    if (!row) throw new AppError('SERVICE_NOT_FOUND', 'Service not found.');
  };
  const nameRows = (input: ServiceNameInput) =>
    (['az', 'tr'] as const).map((lang) => ({ apiServiceName: input.apiServiceName, languageCode: lang, customName: input[lang], serviceId: input.serviceId }));

  // Service names: words of provider names with their az and tr wording, edited together
  // (docs/rules.md#catalogue), for every service whose name has the words or for one service; the storefront
  // applies them with src/core/serviceNames.ts, which the admin's preview runs too.
  app.get('/service-names', async (c) => {
    const rows = await db.select().from(serviceCustomNames).orderBy(asc(serviceCustomNames.apiServiceName), desc(serviceCustomNames.languageCode));
    const byName = new Map<string, { apiServiceName: string; az: string; tr: string; serviceId: string | null; ids: number[] }>();
    for (const r of rows) {
      const entry = byName.get(r.apiServiceName) ?? { apiServiceName: r.apiServiceName, az: '', tr: '', serviceId: r.serviceId, ids: [] };
      entry[r.languageCode] = r.customName;
      entry.ids.push(r.id);
      byName.set(r.apiServiceName, entry);
    }
    return c.json({ names: [...byName.values()] });
  });
  app.post('/service-names', jsonBody(serviceNameInputSchema), async (c) => {
    const actor = await requireAdmin(c);
    const input = c.req.valid('json');
    await assertService(input.serviceId);
    try {
      await db.insert(serviceCustomNames).values(nameRows(input));
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('DUPLICATE', 'Bu xidmət adı artıq mövcuddur');
      throw err;
    }
    await audit(db, actor, 'service-name.create', { type: 'service-name', id: input.apiServiceName }, input);
    return c.json(input, 201);
  });
  app.put('/service-names/:name', jsonBody(serviceNameInputSchema), async (c) => {
    const actor = await requireAdmin(c);
    // The router has decoded the segment already; decoding again breaks names holding a '%'.
    const original = c.req.param('name');
    const input = c.req.valid('json');
    await assertService(input.serviceId);
    try {
      await db.transaction(async (tx) => {
        const gone = await tx.delete(serviceCustomNames).where(eq(serviceCustomNames.apiServiceName, original)).returning();
        if (!gone.length) throw new AppError('NOT_FOUND', 'Not found.');
        await tx.insert(serviceCustomNames).values(nameRows(input));
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('DUPLICATE', 'Bu xidmət adı artıq mövcuddur');
      throw err;
    }
    await audit(db, actor, 'service-name.update', { type: 'service-name', id: original }, input);
    return c.json(input);
  });
  app.delete('/service-names/:name', async (c) => {
    const actor = await requireAdmin(c);
    const name = c.req.param('name');
    const gone = await db.delete(serviceCustomNames).where(eq(serviceCustomNames.apiServiceName, name)).returning();
    if (!gone.length) throw new AppError('NOT_FOUND', 'Not found.');
    await audit(db, actor, 'service-name.delete', { type: 'service-name', id: name });
    return c.body(null, 204);
  });

  // Param texts: an admin's wording of a provider param kind per language, served with the
  // service details; a save with every text blank removes the override.
  app.get('/param-texts', async (c) => c.json({ overrides: await loadParamOverrides(db) }));
  app.put('/param-texts', jsonBody(paramTextOverrideInputSchema), async (c) => {
    const actor = await requireAdmin(c);
    const input = c.req.valid('json');
    const { kind, lang, ...texts } = input;
    if (PARAM_TEXT_FIELDS.every((f) => texts[f] === null)) {
      await db.delete(paramTextOverrides).where(and(eq(paramTextOverrides.kind, kind), eq(paramTextOverrides.lang, lang)));
    } else {
      await db
        .insert(paramTextOverrides)
        .values({ kind, lang, ...texts })
        .onConflictDoUpdate({ target: [paramTextOverrides.kind, paramTextOverrides.lang], set: { ...texts, updatedAt: new Date() } });
    }
    await audit(db, actor, 'param-text.save', { type: 'param-text', id: `${kind}:${lang}` }, input);
    return c.json(input);
  });
  app.delete('/param-texts/:kind/:lang', async (c) => {
    const actor = await requireAdmin(c);
    const kind = c.req.param('kind');
    const lang = c.req.param('lang');
    if (!isLanguage(lang)) throw new AppError('NOT_FOUND', 'Not found.');
    const gone = await db
      .delete(paramTextOverrides)
      .where(and(eq(paramTextOverrides.kind, kind), eq(paramTextOverrides.lang, lang)))
      .returning();
    if (!gone.length) throw new AppError('NOT_FOUND', 'Not found.');
    await audit(db, actor, 'param-text.delete', { type: 'param-text', id: `${kind}:${lang}` });
    return c.body(null, 204);
  });

  return app;
}
