import { createHash } from 'node:crypto';
import { and, eq, inArray, notInArray, sql, type AnyColumn } from 'drizzle-orm';
import type { CatalogService } from '../../core/catalog';
import type { PublicService, ServiceDetail, ServiceFigures, ServiceList } from '../../core/contracts/catalog';
import type { Language } from '../../core/i18n';
import { needsParams, quantityBounds } from '../../core/orderRules';
import { platformKey, serviceGroupOf } from '../../core/platforms';
import { pricePerUnitDisplay, type Fees } from '../../core/pricing';
import { displayNames, type NameRule } from '../../core/serviceNames';
import { announceChange, cachesOf, readThrough } from '../cache';
import type { Db } from '../db/client';
import { catalogServices, serviceCustomNames } from '../db/schema';
import type { SmmProvider } from '../providers';
import { getSettings } from '../settings';
import { serviceFigures, type FiguresSnapshot } from './figures';

type ServiceRow = typeof catalogServices.$inferSelect;

const toRow = (s: CatalogService, now: Date) => ({
  id: s.id,
  platform: s.platform.trim().toLowerCase(),
  name: s.name,
  type: s.type,
  description: s.description,
  example: s.example,
  amountMinimum: s.amountMinimum,
  amountIncrement: s.amountIncrement,
  tiers: s.tiers,
  params: s.params,
  refill: s.refill,
  refillDays: s.refillDays,
  cancel: s.cancel,
  dripfeed: s.dripfeed,
  active: true,
  syncedAt: now,
});

/**
 * An upsert's `set` that takes a provider service's terms as the provider lists them (a missing
 * description keeps the stored one): the shop's copy (`syncCatalog`) and a provider's catalogue
 * copy (sources.ts) take them alike.
 */
export const termsFromExcluded = (description: AnyColumn) => ({
  platform: sql`excluded.platform`,
  name: sql`excluded.name`,
  type: sql`excluded.type`,
  description: sql`coalesce(excluded.description, ${description})`,
  example: sql`excluded.example`,
  amountMinimum: sql`excluded.amount_minimum`,
  amountIncrement: sql`excluded.amount_increment`,
  tiers: sql`excluded.tiers`,
  params: sql`excluded.params`,
  refill: sql`excluded.refill`,
  refillDays: sql`excluded.refill_days`,
  cancel: sql`excluded.cancel`,
  dripfeed: sql`excluded.dripfeed`,
});

/**
 * Copies the provider's catalogue into the database: every listed service is inserted or
 * updated; services no longer listed are deactivated (kept for the orders that reference them).
 */
export async function syncCatalog(db: Db, provider: SmmProvider): Promise<{ services: number; deactivated: number }> {
  const services = await provider.services();
  if (services.length === 0) return { services: 0, deactivated: 0 };
  const now = new Date();
  const rows = services.map((s) => toRow(s, now));
  const result = await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insert(catalogServices)
        .values(rows.slice(i, i + 500))
        .onConflictDoUpdate({
          target: catalogServices.id,
          set: {
            ...termsFromExcluded(catalogServices.description),
            active: sql`true`,
            syncedAt: sql`excluded.synced_at`,
          },
        });
    }
    const gone = await tx
      .update(catalogServices)
      .set({ active: false })
      .where(and(eq(catalogServices.active, true), notInArray(catalogServices.id, rows.map((r) => r.id))))
      .returning({ id: catalogServices.id });
    return { services: rows.length, deactivated: gone.length };
  });
  await announceChange(db, 'catalog');
  return result;
}

const rowToService = (r: ServiceRow): CatalogService => ({
  id: r.id,
  platform: r.platform,
  name: r.name,
  type: r.type,
  description: r.description,
  example: r.example,
  amountMinimum: r.amountMinimum,
  amountIncrement: r.amountIncrement,
  tiers: r.tiers,
  params: r.params,
  refill: r.refill,
  refillDays: r.refillDays,
  cancel: r.cancel,
  dripfeed: r.dripfeed,
});

/**
 * An active service by id, from the database only (through this instance's cache when it keeps one). Services arrive through the catalogue sync;
 * a request never reaches the provider (which answers with the shop's key) for an id it names.
 */
export async function findService(db: Db, id: string): Promise<CatalogService | null> {
  return readThrough(cachesOf(db), (c) => c.services, id, async () => {
    const [row] = await db.select().from(catalogServices).where(eq(catalogServices.id, id)).limit(1);
    return row?.active ? rowToService(row) : null;
  });
}

async function loadNameRules(db: Db): Promise<NameRule[]> {
  return db
    .select({ keyword: serviceCustomNames.apiServiceName, lang: serviceCustomNames.languageCode, name: serviceCustomNames.customName, serviceId: serviceCustomNames.serviceId })
    .from(serviceCustomNames);
}

/**
 * The names customers read for some services in a language, by id (docs/rules.md#catalogue): an
 * active service's name is the list's, worked out over the whole active catalogue as the list
 * does (`displayNames`: where a rule would make two services read alike, they keep their provider
 * names here too); a service no longer listed is named by the same rules among the others asked for. Ids that name
 * no service are left out. The team's pages name shop services with it (the audit log).
 */
export async function serviceDisplayNames(db: Db, ids: readonly string[], lang: Language): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const [asked, listed, rules] = await Promise.all([
    db.select({ id: catalogServices.id, name: catalogServices.name, active: catalogServices.active }).from(catalogServices).where(inArray(catalogServices.id, [...ids])),
    db.select({ id: catalogServices.id, name: catalogServices.name }).from(catalogServices).where(eq(catalogServices.active, true)),
    loadNameRules(db),
  ]);
  const names = displayNames(listed, lang, rules);
  const unlisted = displayNames(asked.filter((s) => !s.active), lang, rules);
  return new Map(asked.map((s) => [s.id, (s.active ? names.get(s.id) : unlisted.get(s.id)) ?? s.name]));
}

function toPublic(s: CatalogService, name: string, fees: Fees, figures?: ServiceFigures): PublicService {
  const bounds = quantityBounds(s);
  const display = pricePerUnitDisplay(s, fees);
  return {
    id: s.id,
    // A service without a platform is listed under "other" (docs/rules.md#catalogue).
    platform: platformKey(s.platform),
    name,
    type: s.type,
    group: serviceGroupOf(s),
    min: bounds.min,
    max: bounds.max,
    step: bounds.step,
    tiers: s.tiers,
    displayPrice: display?.usd ?? null,
    displayPer: display?.per ?? 1000,
    hasParams: s.params.length > 0,
    needsParams: needsParams(s),
    dripfeed: s.dripfeed,
    refill: s.refill,
    refillDays: s.refill ? s.refillDays : null,
    cancel: s.cancel,
    ...(figures ? { figures } : {}),
  };
}

async function currentFees(db: Db): Promise<{ serviceFeePercent: number; baseFee: number }> {
  const settings = await getSettings(db);
  return { serviceFeePercent: settings.service_fee, baseFee: settings.base_fee };
}

/**
 * The public list, cached per language until the catalogue, the custom names, the fees or the
 * services' figures (catalog/figures.ts) change.
 * The version check is two cheap aggregate queries, so several instances stay consistent.
 */
export function createCatalogReader(db: Db) {
  const cache = new Map<Language, { version: string; body: string; etag: string; names: Map<string, string> }>();

  async function version(): Promise<{ version: string; fees: { serviceFeePercent: number; baseFee: number }; figures: FiguresSnapshot }> {
    const [svc] = await db
      .select({ n: sql<number>`count(*)::int`, at: sql<string>`coalesce(max(${catalogServices.syncedAt})::text, '')` })
      .from(catalogServices);
    const [names] = await db
      .select({ n: sql<number>`count(*)::int`, sum: sql<string>`coalesce(sum(length(${serviceCustomNames.customName}) + ${serviceCustomNames.id})::text, '0')`, at: sql<string>`coalesce(max(${serviceCustomNames.createdAt})::text, '')` })
      .from(serviceCustomNames);
    const fees = await currentFees(db);
    const figures = await serviceFigures(db);
    return { version: `${svc?.n}|${svc?.at}|${names?.n}|${names?.sum}|${names?.at}|${fees.serviceFeePercent}|${fees.baseFee}|${figures.stamp}`, fees, figures };
  }

  /** The list as a JSON string, its ETag and the display names by service id. */
  async function list(lang: Language): Promise<{ body: string; etag: string; names: Map<string, string> }> {
    const v = await version();
    const hit = cache.get(lang);
    if (hit && hit.version === v.version) return hit;
    const rows = await db
      .select()
      .from(catalogServices)
      .where(eq(catalogServices.active, true))
      .orderBy(catalogServices.platform, catalogServices.type, sql`${catalogServices.id}::text`);
    const services = rows.map(rowToService);
    // Names over the whole catalogue, so that no rule makes two services read alike.
    const names = displayNames(services, lang, await loadNameRules(db));
    const list: ServiceList = {
      services: services.map((s) => toPublic(s, names.get(s.id) ?? s.name, v.fees, v.figures.byService.get(s.id))),
      fees: v.fees,
    };
    const body = JSON.stringify(list);
    const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
    const entry = { version: v.version, body, etag, names };
    cache.set(lang, entry);
    return entry;
  }

  return {
    list,
    async detail(service: CatalogService, lang: Language): Promise<ServiceDetail> {
      const { names } = await list(lang);
      const [fees, figures] = await Promise.all([currentFees(db), serviceFigures(db)]);
      return { ...toPublic(service, names.get(service.id) ?? service.name, fees, figures.byService.get(service.id)), description: service.description, example: service.example, params: service.params };
    },
  };
}
export type CatalogReader = ReturnType<typeof createCatalogReader>;
