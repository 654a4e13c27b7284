/**
 * Per-language service names (docs/rules.md#catalogue): an admin's rule pairs words of provider names
 * (`keyword`, the "API name") with their wording in az or tr. Browser preview and server list
 * use these same functions.
 *
 * A rule translates the words it matches and keeps the rest of the provider name, so the
 * qualifiers that tell services apart (quality, refill, speed, targeting) stay:
 * "Instagram Followers [Real, 30d refill] ⚡" with "instagram followers" → "İnstaqram İzləyiciləri"
 * reads "İnstaqram İzləyiciləri [Real, 30d refill] ⚡". Keywords match case-insensitively, on word
 * boundaries ("Likes" is not found in "Dislikes"), with any run of spaces standing for a space.
 * A rule with a `serviceId` applies to that service only, before any other rule.
 *
 * Over a catalogue (`displayNames`), a rule never makes services indistinguishable: when
 * services with different provider names would read the same, those that a rule renamed keep
 * their provider names.
 */

export interface NameRule {
  keyword: string;
  lang: string;
  name: string;
  /** The one service the rule applies to; null or absent for every service whose name has the words. */
  serviceId?: string | null;
}

export interface NamedService {
  id: string;
  name: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** The pattern of a keyword: its words in order, on word boundaries where they begin and end with a letter or digit. */
function keywordPattern(keyword: string): RegExp | null {
  const words = keyword.trim().split(/\s+/u).filter(Boolean);
  if (!words.length) return null;
  const text = words.join(' ');
  const before = WORD_CHAR.test(text[0]!) ? '(?<![\\p{L}\\p{N}_])' : '';
  const after = WORD_CHAR.test(text.at(-1)!) ? '(?![\\p{L}\\p{N}_])' : '';
  return new RegExp(`${before}${words.map(escapeRegExp).join('\\s+')}${after}`, 'giu');
}

const patterns = new Map<string, RegExp | null>();
function cachedPattern(keyword: string): RegExp | null {
  let pattern = patterns.get(keyword);
  if (pattern === undefined) {
    if (patterns.size > 5000) patterns.clear();
    pattern = keywordPattern(keyword);
    patterns.set(keyword, pattern);
  }
  return pattern;
}

/** The rules that may apply to a service in a language, in the order they are tried. */
function rulesFor(service: NamedService, lang: string, rules: readonly NameRule[]): NameRule[] {
  return rules
    .filter((r) => r.lang === lang && r.name.trim() && (r.serviceId == null || r.serviceId === service.id))
    .sort((a, b) => Number(b.serviceId != null) - Number(a.serviceId != null) || b.keyword.trim().length - a.keyword.trim().length);
}

/**
 * The name of one service in a language: each rule's words replaced by its wording, longer
 * keywords first, a part of the name matched once; the provider name when no rule matches.
 */
export function applyNameRules(service: NamedService, lang: string, rules: readonly NameRule[]): string {
  const taken: { start: number; end: number; name: string }[] = [];
  for (const rule of rulesFor(service, lang, rules)) {
    const pattern = cachedPattern(rule.keyword);
    if (!pattern) continue;
    for (const match of service.name.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.some((t) => start < t.end && t.start < end)) continue;
      taken.push({ start, end, name: rule.name.trim() });
    }
  }
  if (!taken.length) return service.name;
  taken.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const t of taken) {
    out += service.name.slice(at, t.start) + t.name;
    at = t.end;
  }
  return out + service.name.slice(at);
}

/**
 * The names of a catalogue in a language, by service id. Where services with different provider
 * names would read the same, the renamed ones among them keep their provider names (repeated
 * until no such clash is left; provider names differ from each other, so it ends).
 */
export function displayNames(services: readonly NamedService[], lang: string, rules: readonly NameRule[]): Map<string, string> {
  const names = new Map<string, string>();
  if (!rules.some((r) => r.lang === lang)) {
    for (const s of services) names.set(s.id, s.name);
    return names;
  }
  for (const s of services) names.set(s.id, applyNameRules(s, lang, rules));
  for (;;) {
    const byName = new Map<string, NamedService[]>();
    for (const s of services) {
      const name = names.get(s.id)!;
      byName.set(name, [...(byName.get(name) ?? []), s]);
    }
    let reverted = false;
    for (const group of byName.values()) {
      if (new Set(group.map((s) => s.name)).size < 2) continue;
      for (const s of group) {
        if (names.get(s.id) !== s.name) {
          names.set(s.id, s.name);
          reverted = true;
        }
      }
    }
    if (!reverted) return names;
  }
}

export interface NamePreviewRow {
  id: string;
  providerName: string;
  /** The name before the change. */
  before: string;
  /** The name with the change. */
  after: string;
  /** True when the rule matches this service but it keeps its provider name, since it would read like another. */
  clash: boolean;
}

/**
 * What saving a change of rules does to a catalogue in one language: every service whose name
 * changes, and those the new rules match but that keep their names because of a clash.
 */
export function previewNames(
  services: readonly NamedService[],
  lang: string,
  before: readonly NameRule[],
  after: readonly NameRule[],
): NamePreviewRow[] {
  const old = displayNames(services, lang, before);
  const next = displayNames(services, lang, after);
  const rows: NamePreviewRow[] = [];
  for (const s of services) {
    const b = old.get(s.id)!;
    const a = next.get(s.id)!;
    const wanted = applyNameRules(s, lang, after);
    const clash = a === s.name && wanted !== s.name;
    if (a !== b || (clash && wanted !== applyNameRules(s, lang, before))) rows.push({ id: s.id, providerName: s.name, before: b, after: a, clash });
  }
  return rows;
}
