import { z } from 'zod';
import type { PublicService } from '../../../core/contracts/catalog';
import { comparePlatforms, platformKey, SERVICE_GROUPS, type ServiceGroup } from '../../../core/platforms';
import { filterServices } from './catalogIndex';

/**
 * The price list's view of the catalogue (docs/rules.md#catalogue): what its address asks for
 * (search words, platform, type, refill, cancel) and the services grouped by platform, then by
 * type. Services without a platform are listed last under OTHER_PLATFORM.
 */

/** The platform a service is listed under (src/core/platforms.ts: its own, or OTHER_PLATFORM when it has none). */
export const listedPlatform = (s: Pick<PublicService, 'platform'>) => platformKey(s.platform);

/** A value the form did not offer reads as not asked for: the list is shown whole rather than refused. */
const loose = <T extends z.ZodTypeAny>(schema: T) => schema.optional().catch(undefined);

/** The list's query string: `q`, `platform`, `type` (a service group), `refill=1`, `cancel=1`. */
export const priceFiltersSchema = z.strictObject({
  q: loose(z.string().trim().max(100)).transform((v) => v ?? ''),
  platform: loose(z.string().trim().toLowerCase().regex(/^[a-z0-9_-]{1,40}$/)),
  type: loose(z.enum(SERVICE_GROUPS)),
  refill: loose(z.literal('1')).transform(Boolean),
  cancel: loose(z.literal('1')).transform(Boolean),
});
export type PriceFilters = z.infer<typeof priceFiltersSchema>;

const FIELDS = ['q', 'platform', 'type', 'refill', 'cancel'] as const;

/** The filters of an address: its known fields (the first of each), each read on its own. */
export function readPriceFilters(search: URLSearchParams): PriceFilters {
  const input: Record<string, string> = {};
  for (const key of FIELDS) {
    const value = search.get(key);
    if (value !== null && value !== '') input[key] = value;
  }
  return priceFiltersSchema.parse(input);
}

/** Whether any filter narrows the list. */
export const isFiltered = (f: PriceFilters) => Boolean(f.q || f.platform || f.type || f.refill || f.cancel);

export interface PriceGroup {
  platform: string;
  types: { group: ServiceGroup; services: PublicService[] }[];
  count: number;
}

/** The platforms the list has (OTHER_PLATFORM last) and the types it has, for the filter's options. */
export function priceListOptions(services: readonly PublicService[]): { platforms: string[]; types: ServiceGroup[] } {
  const platforms = new Set<string>();
  const types = new Set<ServiceGroup>();
  for (const s of services) {
    platforms.add(listedPlatform(s));
    types.add(s.group);
  }
  return { platforms: [...platforms].sort(comparePlatforms), types: SERVICE_GROUPS.filter((g) => types.has(g)) };
}

/**
 * The services the filters keep, by platform (the list's order) and, within one, by type (the
 * order page's six groups); a service's order within its type is the catalogue's.
 */
export function priceGroups(services: readonly PublicService[], f: PriceFilters): PriceGroup[] {
  const kept = filterServices(services, f.q).filter(
    (s) => (!f.platform || listedPlatform(s) === f.platform) && (!f.type || s.group === f.type) && (!f.refill || s.refill) && (!f.cancel || s.cancel),
  );
  const byPlatform = new Map<string, Map<ServiceGroup, PublicService[]>>();
  for (const s of kept) {
    const platform = listedPlatform(s);
    let types = byPlatform.get(platform);
    if (!types) byPlatform.set(platform, (types = new Map()));
    let list = types.get(s.group);
    if (!list) types.set(s.group, (list = []));
    list.push(s);
  }
  return [...byPlatform.keys()].sort(comparePlatforms).map((platform) => {
    const types = byPlatform.get(platform)!;
    const ordered = SERVICE_GROUPS.filter((g) => types.has(g)).map((group) => ({ group, services: types.get(group)! }));
    return { platform, types: ordered, count: ordered.reduce((n, t) => n + t.services.length, 0) };
  });
}

/**
 * The rows a price list's page carries itself; the rest come in parts of PRICE_LIST_PART_ROWS,
 * each asked for once the one before is on the screen (docs/decisions/0036): a catalogue of
 * hundreds of services in one document is past what the first round trip carries, and one part
 * of them all would hold a phone's main thread for longer than a frame.
 */
export const PRICE_LIST_FIRST_ROWS = 20;
export const PRICE_LIST_PART_ROWS = 60;

/** The rows an address of the list shows, `start` (inclusive) to `end` (exclusive), and where the next part starts (null: none). */
export function priceListRows(rows: number, from: number): { start: number; end: number; next: number | null } {
  const end = Math.min(rows, from === 0 ? PRICE_LIST_FIRST_ROWS : from + PRICE_LIST_PART_ROWS);
  return { start: from, end, next: end < rows ? end : null };
}

/** Where the list's second part starts: `from`, a row number the list has past its first part; any other value reads as the start. */
export function readPriceListFrom(asked: string | null, rows: number): number {
  const from = asked !== null && /^\d{1,9}$/.test(asked) ? Number(asked) : NaN;
  return Number.isSafeInteger(from) && from >= PRICE_LIST_FIRST_ROWS && from < rows ? from : 0;
}

/** The list's address with these filters: its rows from `from` on when given. */
export function priceListHref(lang: string, f: PriceFilters, from?: number): string {
  const query = new URLSearchParams();
  // The fields readPriceFilters reads, written as the form sends them (a ticked box as `1`).
  for (const key of FIELDS) {
    const value = f[key];
    if (value) query.set(key, value === true ? '1' : value);
  }
  if (from !== undefined) query.set('from', String(from));
  const search = query.toString();
  return `/${lang}/prices${search ? `?${search}` : ''}`;
}

export interface PriceGroupPart {
  platform: string;
  /** The platform's rows in the whole list. */
  count: number;
  /** The platform had rows before this part: its section continues one already on the page. */
  continues: boolean;
  types: { group: ServiceGroup; services: PublicService[]; count: number; continues: boolean }[];
}

/**
 * The rows numbered `from` (inclusive) to `to` (exclusive), counted across the groups in their
 * order, with the groups and types they belong to; each keeps its whole count, and says whether it
 * began before `from`.
 */
export function priceListPart(groups: readonly PriceGroup[], from: number, to: number): PriceGroupPart[] {
  const part: PriceGroupPart[] = [];
  let row = 0;
  for (const g of groups) {
    const types: PriceGroupPart['types'] = [];
    const groupStart = row;
    for (const t of g.types) {
      const start = row;
      row += t.services.length;
      const services = t.services.slice(Math.max(0, from - start), Math.max(0, to - start));
      if (services.length) types.push({ group: t.group, services, count: t.services.length, continues: start < from });
    }
    if (types.length) part.push({ platform: g.platform, count: g.count, continues: groupStart < from, types });
  }
  return part;
}

/** The order form with the service chosen (its platform too, when it has one). */
export function orderHref(lang: string, s: Pick<PublicService, 'id' | 'platform'>): string {
  const query = new URLSearchParams({ platform: platformKey(s.platform), service: s.id });
  return `/${lang}/order?${query.toString()}`;
}
