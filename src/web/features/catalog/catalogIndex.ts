import type { PublicService } from '../../../core/contracts/catalog';
import { comparePlatforms, platformKey, SERVICE_GROUPS, type ServiceGroup } from '../../../core/platforms';

/**
 * The order page's view of the service list, built once per list so that switching platform or
 * group and filtering by text never walk the whole catalogue again.
 */

export interface PlatformServices {
  /** Groups that have services, in their fixed order (Likes, Followers, Views, Shares, Comments, Other). */
  groups: ServiceGroup[];
  byGroup: ReadonlyMap<ServiceGroup, readonly PublicService[]>;
  /** Every service of the platform, group after group in the order of `groups`: what the search looks through. */
  all: readonly PublicService[];
  count: number;
}

export interface CatalogIndex {
  /** Every platform with services in the menus' order (`comparePlatforms`), without the header's cap of 12. */
  platforms: string[];
  byPlatform: ReadonlyMap<string, PlatformServices>;
  byId: ReadonlyMap<string, PublicService>;
}

/** What an order form shows of the catalogue for a platform and the group and service chosen on it. */
export interface ServiceChoice {
  platform: string;
  /** Missing when the platform has no services. */
  platformServices: PlatformServices | undefined;
  groups: readonly ServiceGroup[];
  /** The chosen group while the platform has it, else the chosen service's, else the platform's first. */
  group: ServiceGroup | undefined;
  groupServices: readonly PublicService[];
  /** The chosen service while it belongs to the platform and the group. */
  service: PublicService | undefined;
}

const NO_SERVICES: readonly PublicService[] = [];

export function resolveChoice(index: CatalogIndex | null, platform: string, chosen: { group?: ServiceGroup; serviceId?: string }): ServiceChoice {
  const platformServices = index?.byPlatform.get(platform);
  const groups = platformServices?.groups ?? [];
  const candidate = chosen.serviceId ? index?.byId.get(chosen.serviceId) : undefined;
  const group =
    chosen.group && groups.includes(chosen.group)
      ? chosen.group
      : candidate && candidate.platform === platform
        ? candidate.group
        : groups[0];
  const groupServices = (group && platformServices?.byGroup.get(group)) || NO_SERVICES;
  const service = candidate && candidate.platform === platform && candidate.group === group ? candidate : undefined;
  return { platform, platformServices, groups, group, groupServices, service };
}

/** Lower-cased text a service is found by: its name, type and id. */
const searchTexts = new WeakMap<PublicService, string>();
const searchText = (s: PublicService) => {
  let text = searchTexts.get(s);
  if (text === undefined) {
    text = `${s.name} ${s.type} #${s.id}`.toLocaleLowerCase();
    searchTexts.set(s, text);
  }
  return text;
};

export function indexCatalog(services: readonly PublicService[]): CatalogIndex {
  const lists = new Map<string, Map<ServiceGroup, PublicService[]>>();
  const byId = new Map<string, PublicService>();
  for (const s of services) {
    byId.set(s.id, s);
    const platform = platformKey(s.platform);
    let groups = lists.get(platform);
    if (!groups) lists.set(platform, (groups = new Map()));
    let list = groups.get(s.group);
    if (!list) groups.set(s.group, (list = []));
    list.push(s);
    searchText(s);
  }
  const byPlatform = new Map<string, PlatformServices>();
  for (const [platform, groups] of lists) {
    const present = SERVICE_GROUPS.filter((g) => groups.has(g));
    const all = present.flatMap((g) => groups.get(g)!);
    byPlatform.set(platform, { groups: present, byGroup: groups, all, count: all.length });
  }
  return { platforms: [...byPlatform.keys()].sort(comparePlatforms), byPlatform, byId };
}

/** The services whose name, type or id contain every word of `query` (case-insensitive). */
export function filterServices(services: readonly PublicService[], query: string): readonly PublicService[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return services;
  return services.filter((s) => {
    const text = searchText(s);
    return words.every((w) => text.includes(w));
  });
}

/**
 * The search of the order page: the platform's services of every type whose name, type or id
 * contain every word of `query`, by type in the order of `groups` (each hit names its type, and
 * choosing it switches to that type). Empty for a blank query.
 */
export function searchPlatform(platform: PlatformServices, query: string): { group: ServiceGroup; services: readonly PublicService[] }[] {
  if (!query.trim()) return [];
  const hits = filterServices(platform.all, query);
  const byGroup = new Map<ServiceGroup, PublicService[]>();
  for (const s of hits) {
    let list = byGroup.get(s.group);
    if (!list) byGroup.set(s.group, (list = []));
    list.push(s);
  }
  return platform.groups.flatMap((group) => {
    const services = byGroup.get(group);
    return services ? [{ group, services }] : [];
  });
}
