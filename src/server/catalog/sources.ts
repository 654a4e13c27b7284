import { and, asc, eq, ilike, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import type { CatalogService, Markup, PriceTier, ProviderServiceChangeKind, ProviderServiceTerms } from '../../core/catalog';
import { AppError } from '../../core/errors';
import { microsToDecimal, parseUsdToMicros } from '../../core/money';
import { markedUpTiers, pricePerUnitDisplay, ratePer1000Micros, type Fees } from '../../core/pricing';
import { announceChange } from '../cache';
import { rowsOf, type Db, type Tx } from '../db/client';
import { catalogServices, providers, providerServiceChanges, providerServices, serviceSources } from '../db/schema';
import type { Logger } from '../logger';
import { catalogueProvider, defaultOf, type ProviderRegistry, type RegisteredProvider } from '../providers';
import { syncCatalog, termsFromExcluded } from './service';

/**
 * The shop's services and the provider services they are bought from (docs/decisions/0017):
 * each provider's catalogue as last read, what changed there for the team to approve, importing
 * provider services as the shop's own with a markup, and each service's ordered sources.
 *
 * - A catalogue read (`readProviderCatalogue`) keeps the provider's copy (`provider_services`)
 *   up to date and never changes what a service sells for: new services, removed ones, price and
 *   min/max changes become changes for the team (`decideChange`). A service none of whose
 *   provider services is listed any more is paused at once (never deleted; its open orders are
 *   still followed), and wakes when the team approves its return. Descriptions, examples, fields
 *   and the refill/cancel/drip-feed flags of a service's primary provider service are taken as
 *   they come, so orders are always asked with the fields the provider wants.
 * - The first read of the default provider adopts the services of a shop from before (their ids are
 *   that provider's, kept as the shop's) and, on a shop with no services yet, imports its whole
 *   catalogue with no markup.
 * - A service's selling tiers are its primary provider service's tiers with its markup
 *   (`markedUpTiers`, core/pricing.ts), set when imported, when its markup changes and when the
 *   team applies a price change; the site's fees come on top as for every service.
 */

type ProviderServiceRow = typeof providerServices.$inferSelect;
type ServiceRow = typeof catalogServices.$inferSelect;

/** A provider's price as it is: no fees on it. */
const NO_FEES: Fees = { serviceFeePercent: 0, baseFee: 0 };

const termsOf = (s: Pick<CatalogService, 'name' | 'platform' | 'type' | 'amountMinimum' | 'amountIncrement' | 'tiers'>): ProviderServiceTerms => ({
  name: s.name,
  platform: s.platform,
  type: s.type,
  amountMinimum: s.amountMinimum,
  amountIncrement: s.amountIncrement,
  tiers: s.tiers,
});

const priceKey = (tiers: readonly PriceTier[]) => JSON.stringify(tiers.map((t) => [t.minimum, t.maximum, t.price, t.pricingPer]));
const maxOf = (tiers: readonly PriceTier[]) => tiers.reduce((m, t) => Math.max(m, t.maximum), 0);
const limitsKey = (s: Pick<CatalogService, 'amountMinimum' | 'amountIncrement' | 'tiers'>) => `${s.amountMinimum}|${s.amountIncrement}|${maxOf(s.tiers)}`;

/** What changed between the last read of a provider service and this one. */
function changesOf(before: ProviderServiceRow | undefined, after: CatalogService): ProviderServiceChangeKind[] {
  if (!before || !before.present) return ['new'];
  const out: ProviderServiceChangeKind[] = [];
  // Only a price change of a tier both reads have: new or removed tiers are a change of limits.
  if (priceKey(before.tiers) !== priceKey(after.tiers)) out.push('price');
  if (limitsKey(before) !== limitsKey(after)) out.push('limits');
  return out;
}

const rowOf = (providerId: string, s: CatalogService, now: Date) => ({
  providerId,
  serviceId: s.id,
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
  present: true,
  seenAt: now,
});

/** A provider service as the shop's catalogue type (its own ids and price). */
const asService = (r: ProviderServiceRow): CatalogService => ({
  id: r.serviceId,
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

export interface CatalogueRead {
  /** Services the provider listed. */
  services: number;
  /** Changes recorded (or brought up to date) for the team. */
  changes: number;
  /** Services paused because none of their provider services is listed any more. */
  paused: number;
  /** Services created on a shop that had none (the default provider's first read). */
  imported: number;
}

/**
 * Reads a provider's catalogue (the call is made before any transaction) and records it. `isDefault`:
 * the provider is the shop's default one, whose first read adopts the services of a shop from before.
 */
export async function readProviderCatalogue(db: Db, provider: RegisteredProvider, opts: { isDefault: boolean }): Promise<CatalogueRead> {
  if (!provider.id) throw new Error('only a stored provider has a catalogue copy');
  const providerId = provider.id;
  const listed = await provider.client.services();
  if (listed.length === 0) return { services: 0, changes: 0, paused: 0, imported: 0 };
  const now = new Date();
  const result = await db.transaction(async (tx) => {
    // One read at a time per provider: two instances reading together would record changes twice.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('provider-catalogue:' || ${providerId}))`);
    const before = new Map((await tx.select().from(providerServices).where(eq(providerServices.providerId, providerId))).map((r) => [r.serviceId, r]));
    const first = before.size === 0;
    const changes: { serviceId: string; kind: ProviderServiceChangeKind; before: ProviderServiceTerms | null; after: ProviderServiceTerms | null }[] = [];
    if (!first) {
      for (const s of listed) {
        const prev = before.get(s.id);
        for (const kind of changesOf(prev, s)) changes.push({ serviceId: s.id, kind, before: prev ? termsOf(prev) : null, after: termsOf(s) });
      }
      const ids = new Set(listed.map((s) => s.id));
      for (const prev of before.values()) if (prev.present && !ids.has(prev.serviceId)) changes.push({ serviceId: prev.serviceId, kind: 'removed', before: termsOf(prev), after: null });
    }
    const rows = listed.map((s) => rowOf(providerId, s, now));
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insert(providerServices)
        .values(rows.slice(i, i + 500))
        .onConflictDoUpdate({
          target: [providerServices.providerId, providerServices.serviceId],
          set: {
            ...termsFromExcluded(providerServices.description),
            present: sql`true`,
            seenAt: sql`excluded.seen_at`,
          },
        });
    }
    await tx
      .update(providerServices)
      .set({ present: false })
      .where(and(eq(providerServices.providerId, providerId), eq(providerServices.present, true), notInArray(providerServices.serviceId, listed.map((s) => s.id))));
    for (const c of changes) {
      await tx
        .insert(providerServiceChanges)
        .values({ providerId, serviceId: c.serviceId, kind: c.kind, before: c.before, after: c.after, detectedAt: now })
        .onConflictDoUpdate({
          target: [providerServiceChanges.providerId, providerServiceChanges.serviceId, providerServiceChanges.kind],
          targetWhere: sql`decided_at is null`,
          set: { after: sql`excluded.after`, detectedAt: sql`excluded.detected_at` },
        });
    }
    let imported = 0;
    if (first && opts.isDefault) imported = await adoptShopServices(tx, providerId, listed, now);
    await takeTerms(tx, providerId);
    const paused = await pauseUnsourced(tx);
    return { services: listed.length, changes: changes.length, paused, imported };
  });
  await announceChange(db, 'catalog');
  return result;
}

/**
 * The default provider's first read: every service of the shop without sources whose id the
 * provider lists is bought there under that id (the ids stay the shop's); a shop without any
 * service gets the whole catalogue, with no markup. Services it does not list stay without sources
 * and are paused. Returns how many services were created.
 */
async function adoptShopServices(tx: Tx, providerId: string, listed: CatalogService[], now: Date): Promise<number> {
  const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(catalogServices);
  let imported = 0;
  if (n === 0) {
    const rows = listed.map((s) => ({ ...serviceRowOf(s, s.tiers, { percent: '0', fixedPer1000: '0' }, now), id: s.id }));
    for (let i = 0; i < rows.length; i += 500) await tx.insert(catalogServices).values(rows.slice(i, i + 500)).onConflictDoNothing();
    imported = rows.length;
  }
  await tx.execute(sql`
    insert into ${serviceSources} (service_id, position, provider_id, provider_service_id)
    select s.id, 0, ${providerId}::uuid, s.id from ${catalogServices} s
    where not exists (select 1 from ${serviceSources} x where x.service_id = s.id)
      and exists (select 1 from ${providerServices} p where p.provider_id = ${providerId}::uuid and p.service_id = s.id)
    on conflict do nothing`);
  await tx.execute(sql`
    update ${catalogServices} s set active = false
    where s.active and not exists (select 1 from ${serviceSources} x where x.service_id = s.id)`);
  return imported;
}

/** The terms a service takes as they come from its primary provider service (not its price, bounds or name). */
async function takeTerms(tx: Tx, providerId: string): Promise<void> {
  await tx.execute(sql`
    update ${catalogServices} s set description = coalesce(p.description, s.description), example = p.example, params = p.params,
      refill = p.refill, refill_days = p.refill_days, cancel = p.cancel, dripfeed = p.dripfeed, synced_at = now()
    from ${serviceSources} x join ${providerServices} p on p.provider_id = x.provider_id and p.service_id = x.provider_service_id
    where x.service_id = s.id and x.position = 0 and x.provider_id = ${providerId}::uuid and p.present
      and (s.description is distinct from coalesce(p.description, s.description) or s.example is distinct from p.example or s.params::text <> p.params::text
        or s.refill <> p.refill or s.refill_days is distinct from p.refill_days or s.cancel <> p.cancel or s.dripfeed <> p.dripfeed)`);
}

/** Pauses every active service with sources none of which is listed any more; how many. */
async function pauseUnsourced(tx: Tx): Promise<number> {
  const paused = await tx.execute(sql`
    update ${catalogServices} s set active = false, synced_at = now()
    where s.active
      and exists (select 1 from ${serviceSources} x where x.service_id = s.id)
      and not exists (
        select 1 from ${serviceSources} x join ${providerServices} p on p.provider_id = x.provider_id and p.service_id = x.provider_service_id
        where x.service_id = s.id and p.present)
    returning s.id`);
  return rowsOf(paused).length;
}

/** A service row of the shop made from a provider service, priced by `tiers` with `markup`. */
function serviceRowOf(s: CatalogService, costTiers: readonly PriceTier[], markup: Markup, now: Date) {
  return {
    platform: s.platform.trim().toLowerCase(),
    name: s.name,
    type: s.type,
    description: s.description,
    example: s.example,
    amountMinimum: s.amountMinimum,
    amountIncrement: s.amountIncrement,
    tiers: markedUpTiers(costTiers, markup),
    params: s.params,
    refill: s.refill,
    refillDays: s.refillDays,
    cancel: s.cancel,
    dripfeed: s.dripfeed,
    active: true,
    syncedAt: now,
    markupPercent: markup.percent,
    markupFixedMicros: parseUsdToMicros(markup.fixedPer1000) ?? 0,
  };
}

/** A service's markup as stored → the markup type. */
export const markupOf = (r: Pick<ServiceRow, 'markupPercent' | 'markupFixedMicros'>): Markup => ({
  percent: String(Number(r.markupPercent)),
  fixedPer1000: microsToDecimal(r.markupFixedMicros),
});

// ---------------------------------------------------------------------------------------------
// The team's decisions on changes

/** Open changes (newest first), or every change of one provider. */
export async function listChanges(db: Db, opts: { providerId?: string; open?: boolean } = {}) {
  const where = and(opts.providerId ? eq(providerServiceChanges.providerId, opts.providerId) : undefined, opts.open === false ? undefined : isNull(providerServiceChanges.decidedAt));
  const rows = await db.select().from(providerServiceChanges).where(where).orderBy(sql`${providerServiceChanges.detectedAt} desc`, asc(providerServiceChanges.id)).limit(1000);
  if (rows.length === 0) return [];
  const uses = await db
    .select({ providerId: serviceSources.providerId, providerServiceId: serviceSources.providerServiceId, serviceId: serviceSources.serviceId, position: serviceSources.position })
    .from(serviceSources)
    .where(inArray(serviceSources.providerServiceId, [...new Set(rows.map((r) => r.serviceId))]));
  return rows.map((r) => ({
    ...r,
    detectedAt: r.detectedAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    /** The shop's services bought from this provider service, with the position it has in each. */
    services: uses.filter((u) => u.providerId === r.providerId && u.providerServiceId === r.serviceId).map((u) => ({ serviceId: u.serviceId, position: u.position })),
  }));
}

/**
 * Applies or dismisses an open change. Applying a price or min/max change gives the services whose
 * primary it is the provider's new terms (with each service's markup); applying a new service
 * wakes the services it is a source of, or imports it with `markup` when none is; applying a
 * removal acknowledges it. Dismissing changes nothing (the cost of new orders is the provider's
 * price all the same). CONFLICT when the change was decided already.
 */
export async function decideChange(db: Db, id: number, decision: 'applied' | 'dismissed', actor: string, markup?: Markup): Promise<{ services: string[] }> {
  const result = await db.transaction(async (tx) => {
    const [change] = await tx.select().from(providerServiceChanges).where(eq(providerServiceChanges.id, id)).for('update');
    if (!change) throw new AppError('NOT_FOUND', 'Change not found.');
    if (change.decidedAt) throw new AppError('CONFLICT', 'This change was decided already.', { reason: 'decided' });
    let services: string[] = [];
    if (decision === 'applied' && change.kind !== 'removed') {
      const [ps] = await tx.select().from(providerServices).where(and(eq(providerServices.providerId, change.providerId), eq(providerServices.serviceId, change.serviceId)));
      if (!ps?.present) throw new AppError('CONFLICT', 'The provider no longer lists this service.', { reason: 'removed' });
      services = await applyTerms(tx, ps, change.kind === 'new');
      if (change.kind === 'new' && services.length === 0) services = (await importRows(tx, [ps], markup ?? { percent: '0', fixedPer1000: '0' })).map((c) => c.id);
    }
    await tx.update(providerServiceChanges).set({ decidedAt: new Date(), decision, decidedBy: actor }).where(eq(providerServiceChanges.id, id));
    return { services };
  });
  await announceChange(db, 'catalog');
  return result;
}

/** Gives the services whose primary source is `ps` its price and bounds (with their markups); `wake` also resumes paused ones. */
async function applyTerms(tx: Tx, ps: ProviderServiceRow, wake: boolean): Promise<string[]> {
  const rows = await tx
    .select({ service: catalogServices })
    .from(serviceSources)
    .innerJoin(catalogServices, eq(catalogServices.id, serviceSources.serviceId))
    .where(and(eq(serviceSources.providerId, ps.providerId), eq(serviceSources.providerServiceId, ps.serviceId), eq(serviceSources.position, 0)));
  for (const { service } of rows) {
    await tx
      .update(catalogServices)
      .set({
        tiers: markedUpTiers(ps.tiers, markupOf(service)),
        amountMinimum: ps.amountMinimum,
        amountIncrement: ps.amountIncrement,
        syncedAt: new Date(),
        ...(wake ? { active: true } : {}),
      })
      .where(eq(catalogServices.id, service.id));
  }
  if (wake) {
    // A fallback's return wakes the services it is a source of, priced as they were.
    await tx.execute(sql`
      update ${catalogServices} s set active = true, synced_at = now()
      from ${serviceSources} x where x.service_id = s.id and x.provider_id = ${ps.providerId}::uuid and x.provider_service_id = ${ps.serviceId} and not s.active`);
  }
  return rows.map((r) => r.service.id);
}

// ---------------------------------------------------------------------------------------------
// Importing provider services as the shop's own

/** Which provider services an import takes: some by id, or a whole category (platform and type). */
export interface ImportSelection {
  providerId: string;
  serviceIds?: string[];
  category?: { platform: string; type: string };
  markup: Markup;
}

/** NOT_FOUND unless the provider is stored. */
export async function requireProvider(db: Db | Tx, providerId: string): Promise<void> {
  const [row] = await db.select({ id: providers.id }).from(providers).where(eq(providers.id, providerId));
  if (!row) throw new AppError('NOT_FOUND', 'Provider not found.');
}

async function selected(db: Db | Tx, sel: ImportSelection): Promise<ProviderServiceRow[]> {
  await requireProvider(db, sel.providerId);
  const where = [eq(providerServices.providerId, sel.providerId), eq(providerServices.present, true)];
  if (sel.serviceIds) where.push(inArray(providerServices.serviceId, sel.serviceIds.length ? sel.serviceIds : ['']));
  if (sel.category) where.push(eq(providerServices.platform, sel.category.platform), eq(providerServices.type, sel.category.type));
  if (!sel.serviceIds && !sel.category) throw new AppError('VALIDATION_FAILED', 'Choose services or a category.', { reason: 'selection' });
  const rows = await db.select().from(providerServices).where(and(...where)).orderBy(sql`${providerServices.serviceId}`);
  if (rows.length === 0) throw new AppError('NOT_FOUND', 'No such provider service.');
  // Every service asked for by id must be listed: an import never takes fewer than it was shown.
  const missing = (sel.serviceIds ?? []).filter((id) => !rows.some((r) => r.serviceId === id));
  if (missing.length) throw new AppError('NOT_FOUND', 'No such provider service.', { providerServiceIds: missing.slice(0, 20) });
  return rows;
}

/** One line of an import's preview: the provider's price and the customer's, per 1000 units (10 for comments). */
export interface ImportPreviewLine {
  providerServiceId: string;
  name: string;
  platform: string;
  type: string;
  min: number;
  max: number;
  per: number;
  /** What `per` units cost the shop there, USD. */
  cost: string;
  /** What `per` units sell for, the markup and the site's service fee included (USD, as the site shows it). */
  price: string | null;
  /** The shop's services already bought from it. */
  importedAs: string[];
}

/** What importing `sel` would sell each service for, with the site's `fees`; nothing is written. */
export async function previewImport(db: Db, sel: ImportSelection, fees: Fees): Promise<ImportPreviewLine[]> {
  const rows = await selected(db, sel);
  const uses = await db
    .select({ serviceId: serviceSources.serviceId, providerServiceId: serviceSources.providerServiceId })
    .from(serviceSources)
    .where(and(eq(serviceSources.providerId, sel.providerId), inArray(serviceSources.providerServiceId, rows.map((r) => r.serviceId))));
  return rows.map((r) => {
    const s = asService(r);
    const sold = pricePerUnitDisplay({ ...s, tiers: markedUpTiers(r.tiers, sel.markup) }, fees);
    const per = sold?.per ?? 1000;
    return {
      providerServiceId: r.serviceId,
      name: r.name,
      platform: r.platform,
      type: r.type,
      min: r.amountMinimum,
      max: maxOf(r.tiers),
      per,
      cost: microsToDecimal(Math.ceil(((ratePer1000Micros(r, NO_FEES, per) ?? 0) * per) / 1000)),
      price: sold?.usd ?? null,
      importedAs: uses.filter((u) => u.providerServiceId === r.serviceId).map((u) => u.serviceId),
    };
  });
}

/** New ids of the shop's services: after the largest numeric id it has (the table is locked while they are taken). */
async function nextServiceIds(tx: Tx, count: number): Promise<string[]> {
  await tx.execute(sql`lock table ${catalogServices} in share row exclusive mode`);
  const [row] = await tx.select({ max: sql<string | null>`max(case when ${catalogServices.id} ~ '^[0-9]{1,15}$' then ${catalogServices.id}::bigint end)::text` }).from(catalogServices);
  const start = Number(row?.max ?? 0) + 1;
  return Array.from({ length: count }, (_, i) => String(start + i));
}

async function importRows(tx: Tx, rows: ProviderServiceRow[], markup: Markup): Promise<{ id: string; providerServiceId: string }[]> {
  const ids = await nextServiceIds(tx, rows.length);
  const now = new Date();
  const created = rows.map((r, i) => ({ id: ids[i]!, providerServiceId: r.serviceId, row: { ...serviceRowOf(asService(r), r.tiers, markup, now), id: ids[i]! } }));
  for (let i = 0; i < created.length; i += 500) {
    await tx.insert(catalogServices).values(created.slice(i, i + 500).map((c) => c.row));
    await tx.insert(serviceSources).values(created.slice(i, i + 500).map((c) => ({ serviceId: c.id, position: 0, providerId: rows[0]!.providerId, providerServiceId: c.providerServiceId })));
  }
  // Their "new" changes are answered by the import.
  await tx
    .update(providerServiceChanges)
    .set({ decidedAt: now, decision: 'applied', decidedBy: 'import' })
    .where(and(eq(providerServiceChanges.providerId, rows[0]!.providerId), eq(providerServiceChanges.kind, 'new'), isNull(providerServiceChanges.decidedAt), inArray(providerServiceChanges.serviceId, rows.map((r) => r.serviceId))));
  return created.map(({ id, providerServiceId }) => ({ id, providerServiceId }));
}

/** Imports the selected provider services as new services of the shop (new ids), priced with the markup. */
export async function importProviderServices(db: Db, sel: ImportSelection): Promise<{ id: string; providerServiceId: string }[]> {
  const created = await db.transaction(async (tx) => importRows(tx, await selected(tx, sel), sel.markup));
  await announceChange(db, 'catalog');
  return created;
}

// ---------------------------------------------------------------------------------------------
// A service's sources

export interface SourceView {
  position: number;
  providerId: string;
  providerServiceId: string;
  name: string | null;
  present: boolean;
  /** What 1000 units cost there (USD), or null when the provider service is unknown. */
  costPer1000: string | null;
}

/** A service's sources in order, with what each costs, and its markup. */
export async function serviceSourcesOf(db: Db, serviceId: string): Promise<{ markup: Markup; sources: SourceView[] }> {
  const [service] = await db.select().from(catalogServices).where(eq(catalogServices.id, serviceId));
  if (!service) throw new AppError('SERVICE_NOT_FOUND', 'Service not found.');
  const rows = await db
    .select({ source: serviceSources, ps: providerServices })
    .from(serviceSources)
    .leftJoin(providerServices, sql`${providerServices.providerId} = ${serviceSources.providerId} and ${providerServices.serviceId} = ${serviceSources.providerServiceId}`)
    .where(eq(serviceSources.serviceId, serviceId))
    .orderBy(asc(serviceSources.position));
  return {
    markup: markupOf(service),
    sources: rows.map(({ source, ps }) => {
      const rate = ps ? ratePer1000Micros(ps, NO_FEES) : null;
      return { position: source.position, providerId: source.providerId, providerServiceId: source.providerServiceId, name: ps?.name ?? null, present: ps?.present ?? false, costPer1000: rate === null ? null : microsToDecimal(rate) };
    }),
  };
}

/**
 * Sets a service's sources (in the order tried; each provider once, each a provider service the
 * shop has read) and, when given, its markup — which prices it again from its primary source.
 * The price stays as it was when only the order of sources changes.
 */
export async function setServiceSources(db: Db, serviceId: string, input: { sources: { providerId: string; providerServiceId: string }[]; markup?: Markup }): Promise<void> {
  const providersSeen = new Set(input.sources.map((s) => s.providerId));
  if (input.sources.length === 0 || providersSeen.size !== input.sources.length) {
    throw new AppError('VALIDATION_FAILED', 'Each provider at most once, and at least one.', { reason: 'sources' });
  }
  await db.transaction(async (tx) => {
    const [service] = await tx.select().from(catalogServices).where(eq(catalogServices.id, serviceId)).for('update');
    if (!service) throw new AppError('SERVICE_NOT_FOUND', 'Service not found.');
    const found = await tx
      .select()
      .from(providerServices)
      .where(sql`(${providerServices.providerId}, ${providerServices.serviceId}) in (${sql.join(input.sources.map((s) => sql`(${s.providerId}::uuid, ${s.providerServiceId})`), sql`, `)})`);
    for (const s of input.sources) {
      if (!found.some((f) => f.providerId === s.providerId && f.serviceId === s.providerServiceId)) throw new AppError('NOT_FOUND', 'No such provider service.', { providerServiceId: s.providerServiceId });
    }
    await tx.delete(serviceSources).where(eq(serviceSources.serviceId, serviceId));
    await tx.insert(serviceSources).values(input.sources.map((s, position) => ({ serviceId, position, providerId: s.providerId, providerServiceId: s.providerServiceId })));
    if (input.markup) {
      const primary = found.find((f) => f.providerId === input.sources[0]!.providerId && f.serviceId === input.sources[0]!.providerServiceId)!;
      await tx
        .update(catalogServices)
        .set({ tiers: markedUpTiers(primary.tiers, input.markup), markupPercent: input.markup.percent, markupFixedMicros: parseUsdToMicros(input.markup.fixedPer1000) ?? 0, syncedAt: new Date() })
        .where(eq(catalogServices.id, serviceId));
    }
  });
  await announceChange(db, 'catalog');
}

/**
 * The sandbox's second provider as every service's next source: each service whose primary source
 * is at `primaryId` and that has no source at `fallbackId` gets, after its last source, the
 * provider service of `fallbackId` with the primary's id (the two sandboxes list the same
 * services under the same ids), when `fallbackId`'s catalogue lists it. One statement,
 * idempotent; run after the catalogue reads at start. Returns how many sources were added.
 */
export async function addSandboxFallbacks(db: Db, primaryId: string, fallbackId: string): Promise<number> {
  if (primaryId === fallbackId) return 0;
  const added = rowsOf(
    await db.execute(sql`
      insert into ${serviceSources} (service_id, position, provider_id, provider_service_id)
      select x.service_id, (select max(y.position) + 1 from ${serviceSources} y where y.service_id = x.service_id), ${fallbackId}::uuid, x.provider_service_id
      from ${serviceSources} x
      where x.position = 0 and x.provider_id = ${primaryId}::uuid
        and exists (select 1 from ${providerServices} p where p.provider_id = ${fallbackId}::uuid and p.service_id = x.provider_service_id)
        and not exists (select 1 from ${serviceSources} y where y.service_id = x.service_id and y.provider_id = ${fallbackId}::uuid)
      on conflict do nothing
      returning service_id`),
  ).length;
  if (added > 0) await announceChange(db, 'catalog');
  return added;
}

/** Which of a provider's services the team's import screen shows: a platform, a type, words of the name or an id. */
export interface ProviderServiceFilter {
  platform?: string;
  type?: string;
  q?: string;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A provider's services as last read (for the team's import screen), listed or not: each with
 * what 1000 units cost there (USD, no fees) and the shop's services bought from it. NOT_FOUND
 * when the provider is not stored.
 */
export async function listProviderServices(db: Db, providerId: string, filter: ProviderServiceFilter = {}) {
  await requireProvider(db, providerId);
  const where = [eq(providerServices.providerId, providerId)];
  if (filter.platform) where.push(eq(providerServices.platform, filter.platform.trim().toLowerCase()));
  if (filter.type) where.push(eq(providerServices.type, filter.type));
  const q = filter.q?.trim();
  if (q) where.push(or(ilike(providerServices.name, `%${escapeLike(q)}%`), eq(providerServices.serviceId, q))!);
  const rows = await db
    .select()
    .from(providerServices)
    .where(and(...where))
    .orderBy(providerServices.platform, providerServices.type, sql`${providerServices.serviceId}`);
  const uses = rows.length
    ? await db
        .select({ providerServiceId: serviceSources.providerServiceId, serviceId: serviceSources.serviceId, position: serviceSources.position })
        .from(serviceSources)
        .where(eq(serviceSources.providerId, providerId))
    : [];
  return rows.map((r) => {
    const rate = ratePer1000Micros(r, NO_FEES);
    return {
      providerServiceId: r.serviceId,
      name: r.name,
      platform: r.platform,
      type: r.type,
      min: r.amountMinimum,
      max: maxOf(r.tiers),
      present: r.present,
      seenAt: r.seenAt.toISOString(),
      /** What 1000 units cost there (USD, no fees), or null when no tier is usable. */
      costPer1000: rate === null ? null : microsToDecimal(rate),
      /** The shop's services bought from it, with the position it has in each. */
      services: uses.filter((u) => u.providerServiceId === r.serviceId).map((u) => ({ serviceId: u.serviceId, position: u.position })),
    };
  });
}

/**
 * Reads the catalogue of every enabled provider (one after another; a provider that fails is
 * logged and the others go on). A registry of a provider kept in no table (tests, benches) copies
 * that provider's catalogue one to one, as `syncCatalog` does.
 */
export async function syncCatalogues(db: Db, registry: ProviderRegistry, logger?: Logger): Promise<{ services: number; deactivated: number; changes: number }> {
  const list = registry.all();
  const first = defaultOf(list);
  if (!first?.id) {
    const result = await syncCatalog(db, catalogueProvider(registry).client);
    return { ...result, changes: 0 };
  }
  const total = { services: 0, deactivated: 0, changes: 0 };
  for (const p of list) {
    if (!p.enabled || !p.id) continue;
    try {
      const read = await readProviderCatalogue(db, p, { isDefault: p === first });
      total.services += read.services;
      total.deactivated += read.paused;
      total.changes += read.changes;
    } catch (err) {
      logger?.warn({ err, provider: p.name }, 'catalogue read failed');
    }
  }
  return total;
}
