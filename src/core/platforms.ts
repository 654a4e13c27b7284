/** Platforms listed first in menus, in this order (docs/rules.md#catalogue). */
export const PRIORITY_PLATFORMS = ['instagram', 'tiktok', 'youtube', 'facebook'] as const;
/** Most platforms the header dropdown lists. */
export const PLATFORM_MENU_CAP = 12;

/**
 * The platform of services a provider names none for (website traffic, map reviews, music plays):
 * listed last, shown as "Digər", "Diğer", "Other" (docs/rules.md#catalogue).
 */
export const OTHER_PLATFORM = 'other';

/** A service's platform as the storefront lists it: lower-cased, trimmed; none is `OTHER_PLATFORM`. */
export function platformKey(platform: string | null | undefined): string {
  return platform?.trim().toLowerCase() || OTHER_PLATFORM;
}

const rank = (p: string) => {
  if (p === OTHER_PLATFORM) return PRIORITY_PLATFORMS.length + 1;
  const i = (PRIORITY_PLATFORMS as readonly string[]).indexOf(p);
  return i === -1 ? PRIORITY_PLATFORMS.length : i;
};

/** The menus' platform order: instagram, tiktok, youtube, facebook, the rest alphabetically, other last. */
export const comparePlatforms = (a: string, b: string): number => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * Platforms for menus from a service list: lower-cased, de-duplicated, services without a platform
 * under `OTHER_PLATFORM`; in the order of `comparePlatforms`; at most 12.
 */
export function platformsFromServices(
  services: readonly { platform?: string | null | undefined }[],
): string[] {
  const names = new Set<string>();
  for (const { platform } of services) names.add(platformKey(platform));
  return [...names].sort(comparePlatforms).slice(0, PLATFORM_MENU_CAP);
}

/** Display name: the brand's own spelling ("tiktok" → "TikTok"), otherwise the first letter upper-cased. */
/** Brands whose own spelling is not the platform id with a capital first letter. */
const BRAND_NAMES: Record<string, string> = {
  tiktok: 'TikTok',
  youtube: 'YouTube',
  linkedin: 'LinkedIn',
  twitter: 'X (Twitter)',
  x: 'X (Twitter)',
  soundcloud: 'SoundCloud',
  whatsapp: 'WhatsApp',
  vk: 'VK',
};

export function platformDisplayName(platform: string): string {
  const known = BRAND_NAMES[platform.toLowerCase()];
  if (known) return known;
  const [first = '', ...rest] = platform;
  return first.toUpperCase() + rest.join('');
}

/** The six service groups of the order page (docs/rules.md#catalogue). */
export const SERVICE_GROUPS = ['likes', 'followers', 'views', 'shares', 'comments', 'other'] as const;
export type ServiceGroup = (typeof SERVICE_GROUPS)[number];

/**
 * Keywords of provider type names, checked in this order; each must start a word, so
 * "Reviews" is not a view. Likes come before comments so that "Comment Likes" counts as likes.
 */
const GROUP_PATTERNS: readonly [Exclude<ServiceGroup, 'other'>, RegExp][] = [
  ['likes', /\b(likes?|reactions?|hearts?)\b/],
  ['followers', /\b(follow|subscri|members?\b)/],
  ['views', /\b(view|plays?\b|watch|impressions?\b)/],
  ['shares', /\b(shares?|retweets?|reposts?)\b/],
  ['comments', /\b(comment|repl(y|ies)\b)/],
];

/** Maps a provider type name ("Page Likes", "Video Views", "Custom Comments" …) to its group. */
export function serviceGroup(typeName: string): ServiceGroup {
  const text = typeName.toLowerCase();
  return GROUP_PATTERNS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other';
}

/** The group of a service: from its type name, or from its name when the type says nothing. */
export function serviceGroupOf(service: { type: string; name?: string }): ServiceGroup {
  const group = serviceGroup(service.type);
  return group === 'other' && service.name ? serviceGroup(service.name) : group;
}

/** Comment services are priced for display per 10 units instead of per 1000 (docs/rules.md#money). */
export function isCommentService(service: { type: string; name?: string }): boolean {
  return serviceGroupOf(service) === 'comments';
}
