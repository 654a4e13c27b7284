/**
 * Target links of orders (spec 01 §5): http or https, case-insensitive, optional "www.", and for
 * known platforms one of that platform's hosts. Hosts are compared exactly after parsing, so
 * lookalikes such as instagram.com.evil.io or evilinstagram.com are refused.
 *
 * Choices beyond the spec: YouTube and Facebook also accept their mobile host "m."; "x" is an
 * alias of the twitter platform. Links with credentials (user@host), whitespace or backslashes
 * are refused everywhere, since other parsers read those differently; for known platforms the
 * host must also be written plainly (no port, no percent-escapes). Other platforms accept any
 * http(s) URL whose host has a dot.
 */

export const LINK_MAX_LENGTH = 2048;

type PathRule = (path: string, url: URL) => boolean;
interface HostRule {
  hosts: readonly string[];
  path: PathRule;
}

/** Something after the first slash: a profile, post or video. */
const hasPath: PathRule = (path) => path.length > 1;
const youtubePath: PathRule = (path, url) =>
  (path === '/watch' && url.search.length > 1) || /^\/(channel|user)\/[^/]+/.test(path);

const RULES = new Map<string, readonly HostRule[]>(Object.entries({
  youtube: [
    { hosts: ['youtube.com', 'm.youtube.com'], path: youtubePath },
    { hosts: ['youtu.be'], path: hasPath },
  ],
  instagram: [{ hosts: ['instagram.com'], path: hasPath }],
  tiktok: [{ hosts: ['tiktok.com'], path: hasPath }],
  facebook: [{ hosts: ['facebook.com', 'm.facebook.com'], path: hasPath }],
  twitter: [{ hosts: ['twitter.com', 'x.com'], path: hasPath }],
  telegram: [{ hosts: ['t.me'], path: hasPath }],
}));
const PLATFORM_ALIASES = new Map([['x', 'twitter']]);

/** Whitespace, backslashes and control characters. */
const UNSAFE_CHARS = /[\s\\\p{Cc}]/u;
const AUTHORITY = /^https?:\/\/([^/?#]*)/i;

function parseHttpUrl(link: string): URL | null {
  if (link.length > LINK_MAX_LENGTH || !/^https?:\/\//i.test(link) || UNSAFE_CHARS.test(link)) return null;
  try {
    const url = new URL(link);
    return url.username || url.password ? null : url;
  } catch {
    return null;
  }
}

/** Whether `link` (trimmed first) is an acceptable order target for `platform`. */
export function isValidLink(platform: string, link: string): boolean {
  const text = link.trim();
  const url = parseHttpUrl(text);
  if (!url) return false;
  const name = platform.trim().toLowerCase();
  const rules = RULES.get(PLATFORM_ALIASES.get(name) ?? name);
  if (!rules) return url.hostname.includes('.') && !url.hostname.endsWith('.');
  // The host as typed must be the host as parsed: "instagram%2ecom" or ":443" are refused.
  if (AUTHORITY.exec(text)?.[1]?.toLowerCase() !== url.hostname) return false;
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname.toLowerCase();
  return rules.some((rule) => rule.hosts.includes(host) && rule.path(path, url));
}

const LINK_PARTS = /^(https?):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(?:#.*)?$/i;

/**
 * The comparison key of a link, for "an active order already exists for this link": trimmed,
 * scheme and host lower-cased, "www." and a default port dropped, trailing slashes and the
 * fragment dropped. Path and query keep their case. Text that is not an http(s) URL is only
 * trimmed.
 */
export function normalizeLink(link: string): string {
  const trimmed = link.trim();
  const parts = LINK_PARTS.exec(trimmed);
  if (!parts) return trimmed;
  const [, scheme = '', authority = '', path = '', query = ''] = parts;
  const lowerScheme = scheme.toLowerCase();
  const defaultPort = lowerScheme === 'https' ? ':443' : ':80';
  let host = authority.toLowerCase().replace(/^www\./, '');
  if (host.endsWith(defaultPort)) host = host.slice(0, -defaultPort.length);
  return `${lowerScheme}://${host}${path.replace(/\/+$/, '')}${query === '?' ? '' : query}`;
}
