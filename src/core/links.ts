/**
 * Target links of orders (docs/rules.md#orders): http or https, case-insensitive, optional "www.", and for
 * known platforms one of that platform's hosts. Hosts are compared exactly after parsing, so
 * lookalikes such as instagram.com.evil.io or evilinstagram.com are refused.
 *
 * Beyond the plain rule: each platform also accepts the hosts of the links its apps share
 * (mobile "m." hosts, music.youtube.com, youtu.be, vm./vt.tiktok.com, mobile.twitter.com,
 * telegram.me, fb.watch, lnkd.in, LinkedIn's country hosts), YouTube also accepts @handles,
 * /c/ names, shorts, live streams, embeds and playlists; LinkedIn has a rule of its own; "x" is
 * an alias of the twitter platform. Links with credentials (user@host), whitespace or
 * backslashes are refused everywhere, since other parsers read those differently; for known
 * platforms the host must also be written plainly (no port, no percent-escapes). Other
 * platforms accept any http(s) URL whose host is a name with a dot (not an IP address).
 */

export const LINK_MAX_LENGTH = 2048;

type PathRule = (path: string, url: URL) => boolean;
interface HostRule {
  /** Exact host names (after "www."), or a pattern of them. */
  hosts: readonly string[] | RegExp;
  path: PathRule;
}

/** Something after the first slash: a profile, post or video. */
const hasPath: PathRule = (path) => /^\/[^/]/.test(path);
/**
 * Videos (watch?v=, shorts, live, embed), channels (@handle with any tab, channel/, user/, c/)
 * and playlists; not the home page, search or feeds.
 */
const youtubePath: PathRule = (path, url) =>
  (path === '/watch' && url.search.length > 1) ||
  (path === '/playlist' && /[?&]list=[^&]/i.test(url.search)) ||
  /^\/(?:channel|user|c|shorts|live|embed|v)\/[^/]+/.test(path) ||
  /^\/@[^/]+/.test(path);

const RULES = new Map<string, readonly HostRule[]>(Object.entries({
  youtube: [
    { hosts: ['youtube.com', 'm.youtube.com', 'music.youtube.com'], path: youtubePath },
    { hosts: ['youtu.be'], path: hasPath },
  ],
  instagram: [{ hosts: ['instagram.com', 'm.instagram.com'], path: hasPath }],
  tiktok: [{ hosts: ['tiktok.com', 'm.tiktok.com', 'vm.tiktok.com', 'vt.tiktok.com'], path: hasPath }],
  facebook: [{ hosts: ['facebook.com', 'm.facebook.com', 'web.facebook.com', 'mbasic.facebook.com', 'fb.com', 'fb.watch'], path: hasPath }],
  twitter: [{ hosts: ['twitter.com', 'x.com', 'mobile.twitter.com', 'mobile.x.com'], path: hasPath }],
  telegram: [{ hosts: ['t.me', 'telegram.me', 'telegram.dog'], path: hasPath }],
  linkedin: [
    // linkedin.com, its mobile host and its two-letter country hosts (az.linkedin.com …).
    { hosts: /^(?:(?:[a-z]{2}|mobile)\.)?linkedin\.com$/, path: hasPath },
    { hosts: ['lnkd.in'], path: hasPath },
  ],
}));
const PLATFORM_ALIASES = new Map([['x', 'twitter']]);

/** Whether `platform` has a link rule of its own (other platforms take any web link). */
export function hasLinkRule(platform: string): boolean {
  const name = platform.trim().toLowerCase();
  return RULES.has(PLATFORM_ALIASES.get(name) ?? name);
}

/**
 * The example link the order form shows for a platform with a rule (in the placeholder and in
 * the "enter a valid … link, for example …" message); null for other platforms. Each passes the
 * platform's rule once "…" is filled in.
 */
const LINK_EXAMPLES = new Map<string, string>([
  ['instagram', 'https://instagram.com/username'],
  ['tiktok', 'https://tiktok.com/@username'],
  ['youtube', 'https://youtube.com/watch?v=…'],
  ['facebook', 'https://facebook.com/page'],
  ['twitter', 'https://x.com/username'],
  ['telegram', 'https://t.me/channel'],
  ['linkedin', 'https://linkedin.com/in/username'],
]);
export function linkExample(platform: string): string | null {
  const name = platform.trim().toLowerCase();
  return LINK_EXAMPLES.get(PLATFORM_ALIASES.get(name) ?? name) ?? null;
}

/** Whitespace, backslashes and control characters. */
const UNSAFE_CHARS = /[\s\\\p{Cc}]/u;
const AUTHORITY = /^https?:\/\/([^/?#]*)/i;
/** IPv4 hosts as the URL parser writes them (also from "0x7f.1" or "2130706433"), and IPv6 ones. */
const IP_HOST = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[.*\])$/;

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
  if (!rules) return url.hostname.includes('.') && !url.hostname.endsWith('.') && !IP_HOST.test(url.hostname);
  // The host as typed must be the host as parsed: "instagram%2ecom" or ":443" are refused.
  if (AUTHORITY.exec(text)?.[1]?.toLowerCase() !== url.hostname) return false;
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname.toLowerCase();
  return rules.some((rule) => (Array.isArray(rule.hosts) ? rule.hosts.includes(host) : (rule.hosts as RegExp).test(host)) && rule.path(path, url));
}

const LINK_PARTS = /^(https?):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(?:#.*)?$/i;

/** Host prefixes of the same site: the desktop "www." and the mobile "m." and "mobile.". */
const HOST_PREFIX = /^(?:www|m|mobile)\./;
const HOST_ALIASES = new Map([
  ['twitter.com', 'x.com'],
  ['telegram.me', 't.me'],
  ['telegram.dog', 't.me'],
  ['fb.com', 'facebook.com'],
  ['web.facebook.com', 'facebook.com'],
  ['mbasic.facebook.com', 'facebook.com'],
  ['music.youtube.com', 'youtube.com'],
]);
/** LinkedIn's country hosts show the same pages as linkedin.com. */
const LINKEDIN_COUNTRY_HOST = /^[a-z]{2}\.linkedin\.com$/;
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
  ['vm.tiktok.com', []],
  ['vt.tiktok.com', []],
  ['fb.watch', []],
  ['linkedin.com', []],
]);
/** Tracking parameters dropped on any other host. */
const TRACKING_PARAM = /^(?:utm_.*|fbclid|gclid|dclid|msclkid|yclid|igsh|igshid|mibextid|si|ref_src|ref_url|_r|is_from_webapp|sender_device)$/i;
/** Hosts whose paths (user names, numeric ids) do not depend on case. */
const CASELESS_PATH_HOSTS = new Set(['x.com', 'tiktok.com', 't.me']);
/** Instagram paths whose second segment is a case-sensitive code; any other path is a user name. */
const INSTAGRAM_CODED = /^\/(?:p|reel|reels|tv|stories)\//i;
/** A post shared from a profile ("/<user>/p/<code>", "/<user>/reel/<code>") or a reel as "/reels/<code>". */
const INSTAGRAM_POST = /^(?:\/[^/]+)?\/(p|reels?|tv)\/([^/]+)$/i;
/** TikTok's short-link codes ("/t/<code>") are case-sensitive; its user names and video ids are not. */
const TIKTOK_CODED = /^\/t\//i;
/** A YouTube video id as it appears in youtu.be/<id>, /shorts/<id>, /live/<id> and /embed/<id>. */
const YOUTUBE_VIDEO_PATH = /^\/(?:shorts|live|embed|v)\/([\w-]+)$/i;
/** A channel's @handle (case-insensitive) with one of its tabs, which all show the same channel. */
const YOUTUBE_HANDLE = /^\/(@[^/]+)(?:\/(?:featured|videos|shorts|streams|playlists|community|posts|about|releases|podcasts))?$/i;

function keyHost(authority: string): string {
  // The key is written as https, so both default ports go (which also keeps the key of a key the same).
  const host = authority.toLowerCase().replace(/:(?:80|443)$/, '');
  const port = /:\d*$/.exec(host)?.[0] ?? '';
  let name = host.slice(0, host.length - port.length);
  while (HOST_PREFIX.test(name) && name.replace(HOST_PREFIX, '').includes('.')) name = name.replace(HOST_PREFIX, '');
  if (LINKEDIN_COUNTRY_HOST.test(name)) name = 'linkedin.com';
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
 * - twitter.com is x.com, telegram.me is t.me, fb.com and web.facebook.com are facebook.com,
 *   music.youtube.com and LinkedIn's country hosts are youtube.com and linkedin.com;
 * - youtu.be/<id>, /shorts/<id>, /live/<id> and /embed/<id> are youtube.com/watch?v=<id>; a
 *   channel's @handle is lower-cased and its tab (/videos, /shorts …) dropped; an Instagram post
 *   shared from a profile (/<user>/p/<code>) is /p/<code>, and /reels/<code> is /reel/<code>;
 * - on platform hosts only the query parameters that name the target count (YouTube `v`, or
 *   `list` without one; Facebook `id`, `story_fbid`, `fbid`, `v`); elsewhere tracking parameters
 *   (utm_*, fbclid, igsh, si …) are dropped; the parameters left are sorted;
 * - path case counts (post codes and video ids are case-sensitive), except for user names:
 *   Instagram profiles and whole X, TikTok (but for /t/<code> short links) and Telegram paths
 *   are lower-cased.
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
  const shortVideo = host === 'youtu.be' ? /^\/([\w-]+)$/.exec(path) : null;
  if (shortVideo) host = 'youtube.com';
  const video = shortVideo ?? (host === 'youtube.com' ? YOUTUBE_VIDEO_PATH.exec(path) : null);
  if (video) {
    path = '/watch';
    query = `?v=${video[1]}`;
  }
  const handle = host === 'youtube.com' ? YOUTUBE_HANDLE.exec(path) : null;
  if (handle) path = `/${handle[1]!.toLowerCase()}`;
  const post = host === 'instagram.com' ? INSTAGRAM_POST.exec(path) : null;
  if (post) path = `/${post[1]!.toLowerCase().replace('reels', 'reel')}/${post[2]}`;
  const caseless =
    (CASELESS_PATH_HOSTS.has(host) && !(host === 'tiktok.com' && TIKTOK_CODED.test(path))) ||
    (host === 'instagram.com' && !INSTAGRAM_CODED.test(`${path}/`));
  if (caseless) path = path.toLowerCase();
  return `https://${host}${path}${keyQuery(host, query)}`;
}
