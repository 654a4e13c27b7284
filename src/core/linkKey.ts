/**
 * The comparison key of a link (docs/rules.md#orders): which written forms of a link name one
 * target. Apart from ./links.ts, which checks a link against its platform, so that what checks a
 * link (the order form's first load) does not carry what compares two (the server's one active
 * order per link, the dashboard's warning of it).
 */

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
