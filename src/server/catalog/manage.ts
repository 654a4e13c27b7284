import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { ParamTextOverrideInput, ServiceNameInput } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { Language } from '../../core/i18n';
import { PARAM_TEXT_FIELDS } from '../../core/paramTexts';
import type { Db } from '../db/client';
import { catalogServices, paramTextOverrides, serviceCustomNames } from '../db/schema';

/** The team's changes to the catalogue's wording: service names (docs/rules.md#catalogue) and param texts. */

const isUniqueViolation = (err: unknown) => {
  for (let e: any = err; e; e = e.cause) if (e.code === '23505') return true;
  return false;
};
const nameTaken = (err: unknown): never => {
  if (isUniqueViolation(err)) throw new AppError('DUPLICATE', 'Bu xidmət adı artıq mövcuddur');
  throw err;
};

/** The active provider services as the team's catalogue screen lists them. */
export const listApiServices = (db: Db) =>
  db
    .select({ id: catalogServices.id, name: catalogServices.name, platform: catalogServices.platform, amountMinimum: catalogServices.amountMinimum, amountIncrement: catalogServices.amountIncrement, tiers: catalogServices.tiers, syncedAt: catalogServices.syncedAt })
    .from(catalogServices)
    .where(eq(catalogServices.active, true))
    .orderBy(catalogServices.platform, sql`${catalogServices.id}::text`);

/** A name limited to one service must name a service of the catalogue. */
async function assertService(db: Db, serviceId: string | null) {
  if (serviceId === null) return;
  const [row] = await db.select({ id: catalogServices.id }).from(catalogServices).where(and(eq(catalogServices.id, serviceId), eq(catalogServices.active, true)));
  if (!row) throw new AppError('SERVICE_NOT_FOUND', 'Service not found.');
}

const nameRows = (input: ServiceNameInput) =>
  (['az', 'tr'] as const).map((lang) => ({ apiServiceName: input.apiServiceName, languageCode: lang, customName: input[lang], serviceId: input.serviceId }));

export interface ServiceNameEntry {
  apiServiceName: string;
  az: string;
  tr: string;
  serviceId: string | null;
  ids: number[];
}

/** Service names with their az and tr wording together, one entry per API name. */
export async function listServiceNames(db: Db): Promise<ServiceNameEntry[]> {
  const rows = await db.select().from(serviceCustomNames).orderBy(asc(serviceCustomNames.apiServiceName), desc(serviceCustomNames.languageCode));
  const byName = new Map<string, ServiceNameEntry>();
  for (const r of rows) {
    const entry = byName.get(r.apiServiceName) ?? { apiServiceName: r.apiServiceName, az: '', tr: '', serviceId: r.serviceId, ids: [] };
    entry[r.languageCode] = r.customName;
    entry.ids.push(r.id);
    byName.set(r.apiServiceName, entry);
  }
  return [...byName.values()];
}

/** SERVICE_NOT_FOUND for an unknown service, DUPLICATE when the API name has names already. */
export async function createServiceName(db: Db, input: ServiceNameInput): Promise<void> {
  await assertService(db, input.serviceId);
  await db.insert(serviceCustomNames).values(nameRows(input)).catch(nameTaken);
}

/** Replaces the names of `original` (NOT_FOUND when it has none) with `input`. */
export async function updateServiceName(db: Db, original: string, input: ServiceNameInput): Promise<void> {
  await assertService(db, input.serviceId);
  await db
    .transaction(async (tx) => {
      const gone = await tx.delete(serviceCustomNames).where(eq(serviceCustomNames.apiServiceName, original)).returning();
      if (!gone.length) throw new AppError('NOT_FOUND', 'Not found.');
      await tx.insert(serviceCustomNames).values(nameRows(input));
    })
    .catch(nameTaken);
}

export async function deleteServiceName(db: Db, name: string): Promise<void> {
  const gone = await db.delete(serviceCustomNames).where(eq(serviceCustomNames.apiServiceName, name)).returning();
  if (!gone.length) throw new AppError('NOT_FOUND', 'Not found.');
}

/** Saves one kind's texts in one language; with every text blank the override is removed. */
export async function saveParamTexts(db: Db, input: ParamTextOverrideInput): Promise<void> {
  const { kind, lang, ...texts } = input;
  if (PARAM_TEXT_FIELDS.every((f) => texts[f] === null)) {
    await db.delete(paramTextOverrides).where(and(eq(paramTextOverrides.kind, kind), eq(paramTextOverrides.lang, lang)));
  } else {
    await db
      .insert(paramTextOverrides)
      .values({ kind, lang, ...texts })
      .onConflictDoUpdate({ target: [paramTextOverrides.kind, paramTextOverrides.lang], set: { ...texts, updatedAt: new Date() } });
  }
}

export async function deleteParamTexts(db: Db, kind: string, lang: Language): Promise<void> {
  const gone = await db
    .delete(paramTextOverrides)
    .where(and(eq(paramTextOverrides.kind, kind), eq(paramTextOverrides.lang, lang)))
    .returning();
  if (!gone.length) throw new AppError('NOT_FOUND', 'Not found.');
}
