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

/** Host prefixes of the same site: the desktop "www." and the mobile "m." and "mobile.". */
const HOST_PREFIX = /^(?:www|m|mobile)\./;
const HOST_ALIASES = new Map([['twitter.com', 'x.com']]);
/**
 * Query parameters that name the target on platform hosts; every other parameter there is
 * sharing or tracking noise (igsh, si, utm_*, s, t …) and is dropped.
 */
const TARGET_PARAMS = new Map<string, readonly string[]>([
  ['youtube.com', ['v', 'list']],
  ['facebook.com', ['id', 'story_fbid', 'fbid', 'v']],
  ['instagram.com', []],
  ['tiktok.com', []],
  ['x.com', []],
  ['t.me', []],
]);
/** Tracking parameters dropped on any other host. */
const TRACKING_PARAM = /^(?:utm_.*|fbclid|gclid|dclid|msclkid|yclid|igsh|igshid|mibextid|si|ref_src|ref_url|_r|is_from_webapp|sender_device)$/i;
/** Hosts whose paths (user names, numeric ids) do not depend on case. */
const CASELESS_PATH_HOSTS = new Set(['x.com', 'tiktok.com', 't.me']);
/** Instagram paths whose second segment is a case-sensitive code; any other path is a user name. */
const INSTAGRAM_CODED = /^\/(?:p|reel|reels|tv|stories)\//i;

function keyHost(authority: string): string {
  // The key is written as https, so both default ports go (which also keeps the key of a key the same).
  const host = authority.toLowerCase().replace(/:(?:80|443)$/, '');
  const port = /:\d*$/.exec(host)?.[0] ?? '';
  let name = host.slice(0, host.length - port.length);
  while (HOST_PREFIX.test(name) && name.replace(HOST_PREFIX, '').includes('.')) name = name.replace(HOST_PREFIX, '');
  return (HOST_ALIASES.get(name) ?? name) + port;
}

function keyQuery(host: string, query: string): string {
  const allowed = TARGET_PARAMS.get(host);
  let params = query
    .replace(/^\?/, '')
    .split('&')
    .filter((p) => {
      if (!p) return false;
      const name = p.split('=', 1)[0]!.toLowerCase();
      return allowed ? allowed.includes(name) : !TRACKING_PARAM.test(name);
    });
  // A video named by `v` is that video, whichever playlist it was opened from.
  if (host === 'youtube.com' && params.some((p) => /^v=/i.test(p))) params = params.filter((p) => /^v=/i.test(p));
  return params.length ? `?${params.sort().join('&')}` : '';
}

/**
 * The comparison key of a link, for "one active order per link and platform" (placeOrder stores
 * it in `orders.link_key`; the provider still gets the link as typed). Written forms of one
 * target share a key:
 * - surrounding spaces, the scheme (http and https), the case of the host, a default port,
 *   "www.", "m." and "mobile." host prefixes, trailing slashes and the fragment do not count;
 * - twitter.com is x.com, and youtu.be/<id> is youtube.com/watch?v=<id>;
 * - on platform hosts only the query parameters that name the target count (YouTube `v`, or
 *   `list` without one; Facebook `id`, `story_fbid`, `fbid`, `v`); elsewhere tracking parameters
 *   (utm_*, fbclid, igsh, si …) are dropped; the parameters left are sorted;
 * - path case counts (post codes and video ids are case-sensitive), except for user names:
 *   Instagram profiles and whole X, TikTok and Telegram paths are lower-cased.
 * Text that is not an http(s) URL is only trimmed. The key of a key is itself.
 */
export function normalizeLink(link: string): string {
  const trimmed = link.trim();
  const parts = LINK_PARTS.exec(trimmed);
  if (!parts) return trimmed;
  const [, , authority = '', rawPath = '', rawQuery = ''] = parts;
  let host = keyHost(authority);
  let path = rawPath.replace(/\/+$/, '');
  let query = rawQuery;
  const shortVideo = host === 'youtu.be' ? /^\/([^/]+)/.exec(path) : null;
  if (shortVideo) {
    host = 'youtube.com';
    path = '/watch';
    query = `?v=${shortVideo[1]}`;
  }
  if (CASELESS_PATH_HOSTS.has(host) || (host === 'instagram.com' && !INSTAGRAM_CODED.test(`${path}/`))) path = path.toLowerCase();
  return `https://${host}${path}${keyQuery(host, query)}`;
}
