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
