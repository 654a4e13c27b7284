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
 * Where no rule matched, the storefront's glossary (src/core/serviceGlossary.ts) words the terms
 * provider names are made of, so that a fresh shop reads in az and tr; an admin's rule wins over
 * it wherever both match. The glossary orders and inflects words as each language wants them:
 * "Instagram Followers" → "Instagram izləyiciləri" (az), "Instagram takipçi" (tr).
 *
 * Over a catalogue (`displayNames`), neither rules nor the glossary make services
 * indistinguishable: when services with different provider names would read the same, those
 * renamed keep their provider names.
 */

import { GLOSSARY_LANGUAGES, SERVICE_GLOSSARY, type GlossaryTerm } from './serviceGlossary';

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

/** A part of a provider name and what replaces it. */
interface Span {
  start: number;
  end: number;
  /** An admin's wording: written as the admin wrote it. */
  name?: string;
  /** A glossary term and the numbers its `{n}` and `{m}` matched. */
  term?: GlossaryTerm;
  numbers?: string[];
}

const NUMBER = '(\\d+(?:[.,]\\d+)?[KkMm]?)';

/** A glossary term's pattern: its words as a keyword's, `{n}` and `{m}` as numbers. */
function termPattern(term: GlossaryTerm): RegExp {
  const text = term.en.trim().split(/\s+/u).join(' ');
  const body = text
    .split(/(\{[nm]\})/u)
    .map((part) => (part === '{n}' || part === '{m}' ? NUMBER : part.split(' ').map(escapeRegExp).join('\\s+')))
    .join('');
  const before = WORD_CHAR.test(text[0]!) || text.startsWith('{') ? '(?<![\\p{L}\\p{N}_])' : '';
  const after = WORD_CHAR.test(text.at(-1)!) || text.endsWith('}') ? '(?![\\p{L}\\p{N}_])' : '';
  return new RegExp(`${before}${body}${after}`, term.exact ? 'gu' : 'giu');
}

interface CompiledTerm {
  term: GlossaryTerm;
  pattern: RegExp;
  /** The term's longest run of letters, lower-cased unless the term is exact: a name without it cannot match. */
  anchor: string;
}

/** A language's terms with their patterns, longer wordings first. */
const compiled = new WeakMap<readonly GlossaryTerm[], Map<string, CompiledTerm[]>>();
function glossaryFor(glossary: readonly GlossaryTerm[], lang: string): CompiledTerm[] {
  if (!(GLOSSARY_LANGUAGES as readonly string[]).includes(lang)) return [];
  let byLang = compiled.get(glossary);
  if (!byLang) compiled.set(glossary, (byLang = new Map()));
  let terms = byLang.get(lang);
  if (!terms) {
    terms = [...glossary]
      .sort((a, b) => b.en.length - a.en.length)
      .map((term) => {
        const letters = term.en.replace(/\{[nm]\}/gu, ' ').split(/[^\p{L}]+/u).reduce((a, b) => (b.length > a.length ? b : a), '');
        return { term, pattern: termPattern(term), anchor: term.exact ? letters : letters.toLowerCase() };
      });
    byLang.set(lang, terms);
  }
  return terms;
}

/** Where a glossary term matches in a name. */
interface TermMatch {
  start: number;
  end: number;
  term: GlossaryTerm;
  numbers: string[];
}

/** Every match of a language's terms in a name, longer wordings first (kept per name: catalogues repeat their words). */
const termMatches = new WeakMap<readonly GlossaryTerm[], Map<string, TermMatch[]>>();
function matchesIn(name: string, lang: string, glossary: readonly GlossaryTerm[]): TermMatch[] {
  const terms = glossaryFor(glossary, lang);
  if (!terms.length) return [];
  let cache = termMatches.get(glossary);
  if (!cache) termMatches.set(glossary, (cache = new Map()));
  const key = `${lang}\u0000${name}`;
  let found = cache.get(key);
  if (found) return found;
  found = [];
  const lower = name.toLowerCase();
  for (const { term, pattern, anchor } of terms) {
    if (!(term.exact ? name : lower).includes(anchor)) continue;
    for (const match of name.matchAll(pattern)) {
      if (match[0].length) found.push({ start: match.index, end: match.index + match[0].length, term, numbers: match.slice(1) as string[] });
    }
  }
  if (cache.size > 20_000) cache.clear();
  cache.set(key, found);
  return found;
}

/** Characters that end a part of a name ("[", ",", "|", "-", an emoji…): a word after one starts anew. */
const PART_BREAK = /[^\p{L}\p{N}\p{M}\s'’.&+_]/u;
const HAS_LETTER = /\p{L}/u;

/** A term's wording in a language, in the form its place asks for, its numbers filled in. */
function wordingOf(span: Span, lang: string, name: string, spans: readonly Span[]): string {
  const term = span.term!;
  const text = term[lang as 'az' | 'tr'];
  // What comes before the span in its part of the name: nothing, adjectives only, or a noun.
  let first = true;
  let afterNoun = false;
  let at = span.start;
  let i = spans.indexOf(span) - 1;
  while (at > 0) {
    const prev = i >= 0 ? spans[i]! : undefined;
    if (prev && prev.end === at) {
      first = false;
      if (prev.name !== undefined || prev.term?.kind !== 'adj') afterNoun = true;
      at = prev.start;
      i--;
      continue;
    }
    const ch = name[at - 1]!;
    if (PART_BREAK.test(ch)) break;
    if (!/\s/u.test(ch)) {
      // A word the rules left as it is: a brand ("Instagram", "Reels"), another noun, or a number.
      let from = at - 1;
      while (from > 0 && !/\s/u.test(name[from - 1]!) && !PART_BREAK.test(name[from - 1]!) && !(prev && prev.end === from)) from--;
      first = false;
      if (HAS_LETTER.test(name.slice(from, at))) afterNoun = true;
      at = from;
      continue;
    }
    at--;
  }
  let out = typeof text === 'string' ? text : text[term.kind === 'head' && afterNoun ? 1 : 0];
  out = out.replace(/\{([nm])\}/gu, (_, which: string) => span.numbers?.[which === 'n' ? 0 : 1] ?? '');
  return first ? out.charAt(0).toLocaleUpperCase(lang) + out.slice(1) : out;
}

/**
 * The name of one service in a language: each rule's words replaced by its wording, longer
 * keywords first, a part of the name matched once; then the glossary's terms in what the rules
 * left, longer wordings first; the provider name when nothing matches.
 */
export function applyNameRules(service: NamedService, lang: string, rules: readonly NameRule[], glossary: readonly GlossaryTerm[] = SERVICE_GLOSSARY): string {
  const taken: Span[] = [];
  const free = (start: number, end: number) => !taken.some((t) => start < t.end && t.start < end);
  for (const rule of rulesFor(service, lang, rules)) {
    const pattern = cachedPattern(rule.keyword);
    if (!pattern) continue;
    for (const match of service.name.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (free(start, end)) taken.push({ start, end, name: rule.name.trim() });
    }
  }
  for (const m of matchesIn(service.name, lang, glossary)) if (free(m.start, m.end)) taken.push({ ...m });
  if (!taken.length) return service.name;
  taken.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const t of taken) {
    out += service.name.slice(at, t.start) + (t.name ?? wordingOf(t, lang, service.name, taken));
    at = t.end;
  }
  return out + service.name.slice(at);
}

/**
 * The names of a catalogue in a language, by service id. Where services with different provider
 * names would read the same, the renamed ones among them keep their provider names (repeated
 * until no such clash is left; provider names differ from each other, so it ends).
 */
export function displayNames(
  services: readonly NamedService[],
  lang: string,
  rules: readonly NameRule[],
  glossary: readonly GlossaryTerm[] = SERVICE_GLOSSARY,
): Map<string, string> {
  const names = new Map<string, string>();
  if (!rules.some((r) => r.lang === lang) && !glossaryFor(glossary, lang).length) {
    for (const s of services) names.set(s.id, s.name);
    return names;
  }
  for (const s of services) names.set(s.id, applyNameRules(s, lang, rules, glossary));
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
  glossary: readonly GlossaryTerm[] = SERVICE_GLOSSARY,
): NamePreviewRow[] {
  const old = displayNames(services, lang, before, glossary);
  const next = displayNames(services, lang, after, glossary);
  const rows: NamePreviewRow[] = [];
  for (const s of services) {
    const b = old.get(s.id)!;
    const a = next.get(s.id)!;
    const wanted = applyNameRules(s, lang, after, glossary);
    const clash = a === s.name && wanted !== s.name;
    if (a !== b || (clash && wanted !== applyNameRules(s, lang, before, glossary))) rows.push({ id: s.id, providerName: s.name, before: b, after: a, clash });
  }
  return rows;
}
