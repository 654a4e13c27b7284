import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINK_MAX_LENGTH, hasLinkRule, isValidLink, linkExample } from './links';
import { normalizeLink } from './linkKey';

const accepted: [string, string][] = [
  // youtube
  ['youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['youtube', 'https://youtube.com/watch?v=dQw4w9WgXcQ&t=42'],
  ['youtube', 'http://youtube.com/watch?v=abc'],
  ['youtube', 'HTTPS://WWW.YOUTUBE.COM/WATCH?V=abc'],
  ['youtube', 'https://m.youtube.com/watch?v=abc'],
  ['youtube', 'https://www.youtube.com/channel/UC38IQsAvIsxxjztdMZQtwHA'],
  ['youtube', 'https://youtube.com/user/PewDiePie'],
  ['youtube', 'https://youtu.be/dQw4w9WgXcQ'],
  ['youtube', 'https://youtu.be/dQw4w9WgXcQ?si=xyz'],
  ['YouTube', '  https://youtu.be/abc  '],
  ['youtube', 'https://www.youtube.com/@MrBeast'],
  ['youtube', 'https://youtube.com/@mrbeast/videos'],
  ['youtube', 'https://m.youtube.com/@mrbeast/shorts'],
  ['youtube', 'https://www.youtube.com/c/PewDiePie'],
  ['youtube', 'https://youtube.com/shorts/aqz-KE-bpKQ?si=AbC'],
  ['youtube', 'https://www.youtube.com/live/jfKfPfyJRdk?feature=share'],
  ['youtube', 'https://music.youtube.com/watch?v=dQw4w9WgXcQ&list=RDAMVM'],
  ['youtube', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
  ['youtube', 'https://www.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf'],
  // instagram
  ['instagram', 'https://www.instagram.com/natgeo/'],
  ['instagram', 'https://instagram.com/p/C1a2b3c4d5e/'],
  ['instagram', 'http://instagram.com/reel/xyz?igsh=abc'],
  ['INSTAGRAM', 'HTTPS://Instagram.COM/NatGeo'],
  ['instagram', 'https://www.instagram.com/reel/C9xYz12AbCd/?igsh=MWQ1ZGUxMzBkMA=='],
  ['instagram', 'https://www.instagram.com/reels/C9xYz12AbCd/'],
  ['instagram', 'https://instagram.com/stories/natgeo/3412345678901234567?utm_source=ig_story_item_share'],
  ['instagram', 'https://www.instagram.com/tv/CdEfGhIjKlM/'],
  ['instagram', 'https://www.instagram.com/natgeo/p/C1a2b3c4d5e/'],
  ['instagram', 'https://m.instagram.com/natgeo'],
  // tiktok
  ['tiktok', 'https://www.tiktok.com/@khaby.lame/video/7123456789'],
  ['tiktok', 'https://tiktok.com/@user'],
  ['tiktok', 'https://vm.tiktok.com/ZMhvqjK4r/'],
  ['tiktok', 'https://vt.tiktok.com/ZSYXeWqQm/'],
  ['tiktok', 'https://www.tiktok.com/t/ZTRvVsd7a/'],
  ['tiktok', 'https://m.tiktok.com/@khaby.lame/video/7123456789?is_from_webapp=1&sender_device=pc'],
  // facebook
  ['facebook', 'https://www.facebook.com/zuck'],
  ['facebook', 'https://m.facebook.com/story.php?id=1'],
  ['facebook', 'https://facebook.com/groups/123/posts/456'],
  ['facebook', 'https://fb.watch/nXyZ12AbC/'],
  ['facebook', 'https://www.facebook.com/share/p/1AbCdEfGh/'],
  ['facebook', 'https://www.facebook.com/share/r/1AbCdEfGh/?mibextid=oFDknk'],
  ['facebook', 'https://www.facebook.com/profile.php?id=100012345678901'],
  ['facebook', 'https://m.facebook.com/profile.php?id=100012345678901'],
  ['facebook', 'https://web.facebook.com/artim.az'],
  // twitter / x
  ['twitter', 'https://twitter.com/jack/status/20'],
  ['twitter', 'https://x.com/jack/status/20'],
  ['twitter', 'https://www.x.com/jack'],
  ['x', 'https://x.com/jack'],
  ['twitter', 'https://mobile.twitter.com/jack/status/20?s=20'],
  ['twitter', 'https://twitter.com/jack'],
  ['x', 'https://x.com/elonmusk/status/1750000000000000000?t=AbC&s=19'],
  // telegram
  ['telegram', 'https://t.me/durov'],
  ['telegram', 'http://www.t.me/durov/123'],
  ['telegram', 'https://t.me/+AbCdEfGhIjKlMnOp'],
  ['telegram', 'https://t.me/joinchat/AAAAAEkk2WdoDrB4-Q8-gg'],
  ['telegram', 'https://telegram.me/durov'],
  ['telegram', 'https://t.me/s/durov'],
  // linkedin
  ['linkedin', 'https://www.linkedin.com/in/someone'],
  ['linkedin', 'https://linkedin.com/in/some-one-12345/'],
  ['linkedin', 'https://www.linkedin.com/company/artim/'],
  ['linkedin', 'https://www.linkedin.com/posts/someone_growth-activity-7123456789012345678-AbCd?utm_source=share&utm_medium=member_desktop'],
  ['linkedin', 'https://www.linkedin.com/feed/update/urn:li:activity:7123456789012345678/'],
  ['linkedin', 'https://az.linkedin.com/in/someone'],
  ['linkedin', 'https://lnkd.in/dAbC123'],
  // other platforms: any http(s) URL
  ['spotify', 'https://open.spotify.com/track/abc'],
  ['website', 'http://example.az'],
  ['website', 'https://münchen.de/path'],
  ['website', 'https://example.com:8443/x'],
  ['', 'https://example.com/'],
];

const refused: [string, string][] = [
  // not http(s)
  ['instagram', 'javascript:alert(1)//instagram.com/x'],
  ['other', 'javascript:alert(1)'],
  ['other', 'JaVaScRiPt:alert(document.cookie)'],
  ['other', 'data:text/html,<script>alert(1)</script>'],
  ['other', 'ftp://example.com/file'],
  ['other', 'file:///etc/passwd'],
  ['other', 'mailto:a@b.c'],
  // missing or broken scheme
  ['instagram', 'instagram.com/natgeo'],
  ['instagram', 'www.instagram.com/natgeo'],
  ['instagram', '//instagram.com/natgeo'],
  ['instagram', 'https:/instagram.com/natgeo'],
  ['instagram', 'https//instagram.com/natgeo'],
  ['other', 'example.com'],
  ['other', ''],
  ['other', '   '],
  // lookalike hosts
  ['instagram', 'https://instagram.com.evil.io/natgeo'],
  ['instagram', 'https://evilinstagram.com/natgeo'],
  ['instagram', 'https://instagram.co/natgeo'],
  ['instagram', 'https://instagram.com@evil.io/natgeo'],
  ['instagram', 'https://user:pw@instagram.com/natgeo'],
  ['instagram', 'https://evil.io/instagram.com/natgeo'],
  ['instagram', 'https://evil.io?instagram.com/natgeo'],
  ['instagram', 'https://evil.io#instagram.com/natgeo'],
  ['instagram', 'https://evil.io\\instagram.com/natgeo'],
  ['instagram', 'https://instagram.com\\@evil.io/x'],
  ['instagram', 'https://instаgram.com/natgeo'], // Cyrillic "а"
  ['instagram', 'https://instagram%2ecom/natgeo'],
  ['instagram', 'https://instagram.com./natgeo'],
  ['instagram', 'https://instagram.com:8080/natgeo'],
  ['instagram', 'https://www2.instagram.com/natgeo'],
  ['youtube', 'https://youtube.com.evil.io/watch?v=abc'],
  ['youtube', 'https://notyoutube.com/watch?v=abc'],
  ['youtube', 'https://youtu.be.evil.io/abc'],
  ['twitter', 'https://x.com.evil.io/jack'],
  ['twitter', 'https://xx.com/jack'],
  ['telegram', 'https://t.me.evil.io/durov'],
  ['telegram', 'https://at.me/durov'],
  ['tiktok', 'https://tiktok.com.evil.io/@user'],
  ['facebook', 'https://facebook.com-login.io/zuck'],
  // lookalikes of the hosts of shared links, and other tricks
  ['instagram', 'https://instagram.com.evil.example/natgeo'],
  ['instagram', 'https://evil.example/instagram.com'],
  ['instagram', 'https://evil.example/instagram.com/p/C1a2b3c4d5e'],
  ['instagram', 'https://instagram.com@evil.example'],
  ['instagram', 'https://instagram.com@evil.example/natgeo'],
  ['instagram', 'https://mm.instagram.com/natgeo'],
  ['youtube', 'https://music.youtube.com.evil.example/watch?v=abc'],
  ['youtube', 'https://notyoutube.com/@mrbeast'],
  ['youtube', 'https://youtube.com@evil.example/shorts/abc'],
  ['youtube', 'https://www.youtube.com.evil.example/@mrbeast'],
  ['tiktok', 'https://vm.tiktok.com.evil.example/ZMabc/'],
  ['tiktok', 'https://vmtiktok.com/ZMabc/'],
  ['tiktok', 'https://evil.example/vm.tiktok.com/ZMabc'],
  ['tiktok', 'https://vv.tiktok.com/ZMabc/'],
  ['twitter', 'https://mobile.twitter.com.evil.example/jack'],
  ['twitter', 'https://mobile.x.co/jack'],
  ['twitter', 'https://twitter.com@evil.example/jack'],
  ['telegram', 'https://telegram.me.evil.example/durov'],
  ['telegram', 'https://t.me@evil.example/durov'],
  ['telegram', 'tg://resolve?domain=durov'],
  ['facebook', 'https://fb.watch.evil.example/abc'],
  ['facebook', 'https://evil.example/fb.watch/abc'],
  ['facebook', 'https://fb.watch/'],
  ['linkedin', 'https://evil.example/linkedin.com/in/someone'],
  ['linkedin', 'https://linkedin.com.evil.example/in/someone'],
  ['linkedin', 'https://notlinkedin.com/in/someone'],
  ['linkedin', 'https://evil.linkedin.com.example/in/someone'],
  ['linkedin', 'https://abc.linkedin.com/in/someone'],
  ['linkedin', 'https://linkedin.com@evil.example/in/someone'],
  ['linkedin', 'https://www.linkedin.com/'],
  ['linkedin', 'javascript:alert(1)//linkedin.com/in/x'],
  // IP addresses, in any notation
  ['instagram', 'https://157.240.1.174/natgeo'],
  ['youtube', 'https://[2a03:2880::1]/watch?v=abc'],
  ['other', 'http://127.0.0.1/x'],
  ['other', 'http://2130706433/x'],
  ['other', 'http://0x7f.1/x'],
  ['other', 'http://[::1]/x'],
  ['website', 'https://192.168.1.10:8443/'],
  // wrong platform
  ['instagram', 'https://www.tiktok.com/@user'],
  ['tiktok', 'https://www.instagram.com/natgeo'],
  ['telegram', 'https://telegram.org/durov'],
  ['twitter', 'https://facebook.com/jack'],
  // youtube paths other than watch, channel, user
  ['youtube', 'https://www.youtube.com/'],
  ['youtube', 'https://www.youtube.com/watch'],
  ['youtube', 'https://www.youtube.com/watch?'],
  ['youtube', 'https://www.youtube.com/channel/'],
  ['youtube', 'https://www.youtube.com/user/'],
  ['youtube', 'https://www.youtube.com/results?search_query=x'],
  ['youtube', 'https://www.youtube.com/@'],
  ['youtube', 'https://www.youtube.com/shorts/'],
  ['youtube', 'https://www.youtube.com/live/'],
  ['youtube', 'https://www.youtube.com/playlist'],
  ['youtube', 'https://www.youtube.com/feed/subscriptions'],
  ['youtube', 'https://music.youtube.com/'],
  ['youtube', 'https://youtu.be/'],
  // bare hosts without a target
  ['instagram', 'https://instagram.com'],
  ['instagram', 'https://instagram.com/'],
  ['telegram', 'https://t.me/'],
  // whitespace and control characters inside
  ['instagram', 'https://instagram.com/nat geo'],
  ['instagram', 'https://insta\ngram.com/natgeo'],
  ['instagram', 'https://instagram.com/nat\tgeo'],
  ['instagram', 'https://instagram.com/nat\u0000geo'],
  ['instagram', 'https://instagram.com/\u007fx'],
  ['instagram', 'https://instagram.com/nat\u00a0geo'],
  ['other', 'https://exa mple.com/'],
  // other platforms still need a real host
  ['other', 'https://'],
  ['other', 'http://localhost/x'],
  ['other', 'https://example./x'],
  ['other', 'https://user@example.com/'],
  // prototype names are not platforms with rules
  ['constructor', 'javascript:alert(1)'],
  ['__proto__', 'ftp://example.com'],
];

describe('isValidLink', () => {
  it.each(accepted)('accepts %s %j', (platform, link) => {
    expect(isValidLink(platform, link)).toBe(true);
  });

  it.each(refused)('refuses %s %j', (platform, link) => {
    expect(isValidLink(platform, link)).toBe(false);
  });

  it('refuses links longer than the limit', () => {
    const base = 'https://instagram.com/';
    expect(isValidLink('instagram', base + 'a'.repeat(LINK_MAX_LENGTH - base.length))).toBe(true);
    expect(isValidLink('instagram', base + 'a'.repeat(LINK_MAX_LENGTH - base.length + 1))).toBe(false);
  });

  it('treats any prefix on a known host as a different host', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{1,12}$/), (prefix) => {
        fc.pre(prefix !== 'www' && prefix !== 'm');
        expect(isValidLink('instagram', `https://${prefix}.instagram.com/x`)).toBe(false);
        expect(isValidLink('instagram', `https://${prefix}instagram.com/x`)).toBe(false);
        expect(isValidLink('instagram', `https://instagram.com.${prefix}.io/x`)).toBe(false);
      }),
    );
  });

  it('never accepts a scheme other than http or https', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9+.-]{0,10}$/), fc.constantFrom('instagram', 'youtube', 'other'), (scheme, platform) => {
        fc.pre(scheme !== 'http' && scheme !== 'https');
        expect(isValidLink(platform, `${scheme}://instagram.com/watch?v=1`)).toBe(false);
        expect(isValidLink(platform, `${scheme}:instagram.com/x`)).toBe(false);
      }),
    );
  });
});

/** The hosts of each platform's links, without "www.". */
const HOSTS: Record<string, readonly string[]> = {
  youtube: ['youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtu.be'],
  instagram: ['instagram.com', 'm.instagram.com'],
  tiktok: ['tiktok.com', 'm.tiktok.com', 'vm.tiktok.com', 'vt.tiktok.com'],
  facebook: ['facebook.com', 'm.facebook.com', 'web.facebook.com', 'mbasic.facebook.com', 'fb.com', 'fb.watch'],
  twitter: ['twitter.com', 'x.com', 'mobile.twitter.com', 'mobile.x.com'],
  telegram: ['t.me', 'telegram.me', 'telegram.dog'],
  linkedin: ['linkedin.com', 'mobile.linkedin.com', 'az.linkedin.com', 'tr.linkedin.com', 'lnkd.in'],
};
const isPlatformHost = (platform: string, host: string) =>
  HOSTS[platform]!.includes(host.replace(/^www\./, '')) || (platform === 'linkedin' && /^(?:www\.)?[a-z]{2}\.linkedin\.com$/.test(host));

/** Real links of each platform, as its apps and browsers share them: [platform, host, path and query]. */
const userName = fc.stringMatching(/^[a-z][a-z0-9_]{1,14}(?:\.[a-z0-9_]{1,8})?$/);
const videoId = fc.stringMatching(/^[A-Za-z0-9_-]{11}$/);
const postCode = fc.stringMatching(/^[A-Za-z0-9_-]{9,11}$/);
const shortCode = fc.stringMatching(/^[A-Za-z0-9]{7,10}$/);
const numericId = fc.stringMatching(/^[1-9][0-9]{5,19}$/);
const pick = <T,>(values: readonly T[]) => fc.constantFrom(...values);
const realLink = fc.oneof(
  // youtube
  fc.tuple(pick(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']), videoId).map(([h, v]) => ['youtube', h, `/watch?v=${v}`] as const),
  fc.tuple(pick(['youtube.com', 'www.youtube.com', 'm.youtube.com']), userName, pick(['', '/videos', '/shorts', '/streams', '/featured'])).map(([h, u, tab]) => ['youtube', h, `/@${u}${tab}`] as const),
  fc.tuple(pick(['youtube.com', 'www.youtube.com', 'm.youtube.com']), pick(['shorts', 'live', 'embed']), videoId).map(([h, kind, v]) => ['youtube', h, `/${kind}/${v}`] as const),
  fc.tuple(pick(['youtube.com', 'www.youtube.com']), pick(['channel/UC', 'user/', 'c/']), postCode).map(([h, kind, c]) => ['youtube', h, `/${kind}${c}`] as const),
  videoId.map((v) => ['youtube', 'youtu.be', `/${v}`] as const),
  // instagram
  fc.tuple(pick(['instagram.com', 'www.instagram.com', 'm.instagram.com']), userName).map(([h, u]) => ['instagram', h, `/${u}`] as const),
  fc.tuple(pick(['instagram.com', 'www.instagram.com']), pick(['p', 'reel', 'reels', 'tv']), postCode).map(([h, kind, c]) => ['instagram', h, `/${kind}/${c}`] as const),
  fc.tuple(pick(['instagram.com', 'www.instagram.com']), userName, numericId).map(([h, u, n]) => ['instagram', h, `/stories/${u}/${n}`] as const),
  // tiktok
  fc.tuple(pick(['tiktok.com', 'www.tiktok.com', 'm.tiktok.com']), userName).map(([h, u]) => ['tiktok', h, `/@${u}`] as const),
  fc.tuple(pick(['tiktok.com', 'www.tiktok.com', 'm.tiktok.com']), userName, numericId).map(([h, u, n]) => ['tiktok', h, `/@${u}/video/${n}`] as const),
  fc.tuple(pick(['vm.tiktok.com', 'vt.tiktok.com']), shortCode).map(([h, c]) => ['tiktok', h, `/${c}/`] as const),
  shortCode.map((c) => ['tiktok', 'www.tiktok.com', `/t/${c}/`] as const),
  // facebook
  fc.tuple(pick(['facebook.com', 'www.facebook.com', 'm.facebook.com', 'web.facebook.com']), userName).map(([h, u]) => ['facebook', h, `/${u}`] as const),
  fc.tuple(pick(['facebook.com', 'www.facebook.com', 'm.facebook.com']), numericId).map(([h, n]) => ['facebook', h, `/profile.php?id=${n}`] as const),
  fc.tuple(pick(['www.facebook.com', 'm.facebook.com']), pick(['p', 'r', 'v']), shortCode).map(([h, k, c]) => ['facebook', h, `/share/${k}/${c}/`] as const),
  shortCode.map((c) => ['facebook', 'fb.watch', `/${c}/`] as const),
  // x / twitter
  fc.tuple(pick(['twitter', 'x']), pick(['x.com', 'twitter.com', 'www.twitter.com', 'mobile.twitter.com', 'mobile.x.com']), userName).map(([p, h, u]) => [p, h, `/${u}`] as const),
  fc.tuple(pick(['x.com', 'twitter.com', 'mobile.twitter.com']), userName, numericId).map(([h, u, n]) => ['twitter', h, `/${u}/status/${n}`] as const),
  // telegram
  fc.tuple(pick(['t.me', 'telegram.me']), userName, pick(['', '/12', '/3456'])).map(([h, u, post]) => ['telegram', h, `/${u}${post}`] as const),
  fc.tuple(pick(['t.me', 'telegram.me']), pick(['+', 'joinchat/']), postCode).map(([h, kind, c]) => ['telegram', h, `/${kind}${c}`] as const),
  // linkedin
  fc.tuple(pick(['linkedin.com', 'www.linkedin.com', 'az.linkedin.com']), pick(['in', 'company', 'posts', 'school']), userName).map(([h, kind, u]) => ['linkedin', h, `/${kind}/${u.replace(/[._]/g, '-')}/`] as const),
  numericId.map((n) => ['linkedin', 'www.linkedin.com', `/feed/update/urn:li:activity:${n}/`] as const),
  shortCode.map((c) => ['linkedin', 'lnkd.in', `/${c}`] as const),
);
/** How a shared link may be dressed: scheme, host case, sharing parameters, fragment, spaces. */
const dressing = fc.record({
  http: fc.boolean(),
  upper: fc.boolean(),
  params: fc.subarray(['igsh=MTc4eDk', 'utm_source=ig_web_copy_link', 'si=AbC123', 'feature=share', 's=20', '_r=1', 'mibextid=ZbWKwL']),
  fragment: fc.constantFrom('', '#', '#comments'),
  space: fc.constantFrom('', ' '),
});
const dress = (host: string, pathAndQuery: string, d: { http: boolean; upper: boolean; params: string[]; fragment: string; space: string }) => {
  const params = d.params.join('&');
  const sep = !params ? '' : pathAndQuery.includes('?') ? '&' : '?';
  return `${d.space}${d.http ? 'http' : 'https'}://${d.upper ? host.toUpperCase() : host}${pathAndQuery}${sep}${params}${d.fragment}${d.space}`;
};
/** Another host: any other name, a lookalike, or an IP address. (Built once: a chained property rebuilds what it returns on every run.) */
const anyDomain = fc.domain();
const anyLabel = fc.stringMatching(/^[a-z0-9-]{1,8}$/);
const anyIpV4 = fc.ipV4();
const anyIpV6 = fc.ipV6().map((ip) => `[${ip}]`);
const otherHost = (host: string) =>
  fc.oneof(
    anyDomain,
    anyDomain.map((d) => `${host}.${d}`),
    anyLabel.map((label) => `${label}${host}`),
    anyLabel.map((label) => `${label}.${host}`),
    anyDomain.map((d) => `${d}/${host}`),
    anyDomain.map((d) => `${host}@${d}`),
    anyDomain.map((d) => `${d}?${host}`),
    anyIpV4,
    anyIpV6,
  );

describe('isValidLink on generated links', () => {
  it('accepts real links of each platform, however they are shared', () => {
    fc.assert(
      fc.property(realLink, dressing, ([platform, host, path], d) => {
        expect(isValidLink(platform, dress(host, path, d))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses the same links on any other host', () => {
    fc.assert(
      fc.property(
        realLink.chain(([platform, host, path]) => otherHost(host.replace(/^www\./, '')).map((other) => [platform, other, path] as const)),
        dressing,
        ([platform, host, path], d) => {
          fc.pre(!isPlatformHost(platform === 'x' ? 'twitter' : platform, host.toLowerCase()));
          expect(isValidLink(platform, dress(host, path, d))).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses other schemes for the same links', () => {
    fc.assert(
      fc.property(realLink, fc.constantFrom('ftp', 'javascript', 'data', 'file', 'ws', 'intent', 'tg', 'hxxps'), ([platform, host, path], scheme) => {
        expect(isValidLink(platform, `${scheme}://${host}${path}`)).toBe(false);
        expect(isValidLink(platform, `${scheme}:${host}${path}`)).toBe(false);
        expect(isValidLink(platform, `${host}${path}`)).toBe(false);
      }),
    );
  });
});

describe('linkExample', () => {
  it.each(['instagram', 'tiktok', 'youtube', 'facebook', 'twitter', 'x', 'telegram', 'linkedin'])('gives %s an example its rule accepts', (platform) => {
    expect(hasLinkRule(platform)).toBe(true);
    const example = linkExample(platform);
    expect(example).toMatch(/^https:\/\//);
    expect(isValidLink(platform, example!.replace('…', 'dQw4w9WgXcQ'))).toBe(true);
  });

  it('gives none to platforms without a rule, which take any web link', () => {
    expect(hasLinkRule('spotify')).toBe(false);
    expect(linkExample('spotify')).toBeNull();
  });
});

/** One target: a profile, post or video of a platform, in its plain written form, and what identifies it. */
const handle = fc.stringMatching(/^[a-z][a-z0-9_]{2,14}$/);
const code = fc.stringMatching(/^[A-Za-z0-9_-]{6,11}$/);
const digits = fc.stringMatching(/^[1-9][0-9]{3,18}$/);
const target = fc.oneof(
  handle.map((h) => ({ id: `instagram:${h}`, link: `https://instagram.com/${h}` })),
  code.map((c) => ({ id: `instagram-post:${c}`, link: `https://instagram.com/p/${c}` })),
  code.map((c) => ({ id: `youtube:${c}`, link: `https://youtube.com/watch?v=${c}` })),
  handle.map((h) => ({ id: `tiktok:${h}`, link: `https://tiktok.com/@${h}` })),
  fc.tuple(handle, digits).map(([h, n]) => ({ id: `tiktok-video:${n}`, link: `https://tiktok.com/@${h}/video/${n}` })),
  handle.map((h) => ({ id: `x:${h}`, link: `https://x.com/${h}` })),
  digits.map((n) => ({ id: `x-post:${n}`, link: `https://x.com/jack/status/${n}` })),
  handle.map((h) => ({ id: `facebook:${h}`, link: `https://facebook.com/${h}` })),
  digits.map((n) => ({ id: `facebook-id:${n}`, link: `https://facebook.com/profile.php?id=${n}` })),
  handle.map((h) => ({ id: `telegram:${h}`, link: `https://t.me/${h}` })),
  code.map((c) => ({ id: `site:${c}`, link: `https://example.az/${c}` })),
  // Other written forms of the same targets share their ids.
  fc.tuple(fc.constantFrom('shorts', 'live', 'embed'), code).map(([kind, c]) => ({ id: `youtube:${c}`, link: `https://youtube.com/${kind}/${c}` })),
  code.map((c) => ({ id: `youtube:${c}`, link: `https://youtu.be/${c}` })),
  code.map((c) => ({ id: `youtube:${c}`, link: `https://music.youtube.com/watch?v=${c}` })),
  fc.tuple(handle, fc.constantFrom('', '/videos', '/shorts', '/featured')).map(([h, tab]) => ({ id: `youtube-channel:${h}`, link: `https://youtube.com/@${h}${tab}` })),
  handle.map((h) => ({ id: `youtube-channel:${h}`, link: `https://youtube.com/@${h.toUpperCase()}` })),
  fc.tuple(handle, code).map(([h, c]) => ({ id: `instagram-post:${c}`, link: `https://instagram.com/${h}/p/${c}` })),
  code.map((c) => ({ id: `instagram-reel:${c}`, link: `https://instagram.com/reel/${c}` })),
  code.map((c) => ({ id: `instagram-reel:${c}`, link: `https://instagram.com/reels/${c}` })),
  code.map((c) => ({ id: `tiktok-short:${c}`, link: `https://vm.tiktok.com/${c}` })),
  code.map((c) => ({ id: `tiktok-t:${c}`, link: `https://tiktok.com/t/${c}` })),
  handle.map((h) => ({ id: `telegram:${h}`, link: `https://telegram.me/${h}` })),
  digits.map((n) => ({ id: `facebook-id:${n}`, link: `https://web.facebook.com/profile.php?id=${n}` })),
  code.map((c) => ({ id: `fb-watch:${c}`, link: `https://fb.watch/${c}` })),
  handle.map((h) => ({ id: `linkedin:${h}`, link: `https://linkedin.com/in/${h}` })),
  handle.map((h) => ({ id: `linkedin:${h}`, link: `https://az.linkedin.com/in/${h}` })),
);
const randomCase = (text: string, flips: number) => [...text].map((ch, i) => ((flips >> (i % 30)) & 1 ? ch.toUpperCase() : ch)).join('');
/** A way of writing a link differently without changing its target. */
const variant = fc
  .record({
    http: fc.boolean(),
    schemeCase: fc.integer({ min: 0, max: 15 }),
    prefix: fc.constantFrom('', 'www.', 'm.', 'mobile.', 'WWW.'),
    hostCase: fc.integer({ min: 0, max: 2 ** 30 - 1 }),
    slashes: fc.integer({ min: 0, max: 2 }),
    params: fc.subarray(['igsh=MTc4eDk', 'utm_source=ig_web_copy_link', 'utm_medium=share', 'si=AbC123', 'fbclid=IwAR0', 'gclid=x1']),
    fragment: fc.constantFrom('', '#', '#top', '#comments'),
    space: fc.constantFrom('', ' ', '  \t'),
  })
  .map((v) => (link: string) => {
    const url = /^https:\/\/([^/?#]+)([^?#]*)(\?[^#]*)?$/.exec(link)!;
    const [, host = '', path = '', query = ''] = url;
    const scheme = randomCase(v.http ? 'http' : 'https', v.schemeCase);
    const params = [...(query ? query.slice(1).split('&') : []), ...v.params];
    const slash = path ? '/'.repeat(v.slashes) : '';
    return `${v.space}${scheme}://${randomCase(v.prefix + host, v.hostCase)}${path}${slash}${params.length ? `?${params.join('&')}` : ''}${v.fragment}${v.space}`;
  });

describe('normalizeLink', () => {
  it.each([
    ['  https://www.Instagram.COM/NatGeo/  ', 'https://instagram.com/natgeo'],
    ['HTTPS://INSTAGRAM.COM/p/AbC/', 'https://instagram.com/p/AbC'],
    ['https://instagram.com/p/AbC///', 'https://instagram.com/p/AbC'],
    ['https://www.youtube.com/watch?v=AbC', 'https://youtube.com/watch?v=AbC'],
    ['https://youtube.com/watch/?v=AbC#t=1', 'https://youtube.com/watch?v=AbC'],
    ['https://instagram.com/p/AbC/?', 'https://instagram.com/p/AbC'],
    ['https://instagram.com/', 'https://instagram.com'],
    ['https://instagram.com', 'https://instagram.com'],
    ['https://instagram.com:443/x', 'https://instagram.com/x'],
    ['http://example.com:80/x', 'https://example.com/x'],
    ['http://example.com:8080/x/', 'https://example.com:8080/x'],
    ['http://t.me/Durov', 'https://t.me/durov'],
    ['https://m.facebook.com/story.php?id=1&mibextid=abc', 'https://facebook.com/story.php?id=1'],
    ['https://mobile.twitter.com/Jack/status/20?s=20&t=xyz', 'https://x.com/jack/status/20'],
    ['https://youtu.be/dQw4w9WgXcQ?si=xyz&t=42', 'https://youtube.com/watch?v=dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?list=PL1&v=AbC&t=42', 'https://youtube.com/watch?v=AbC'],
    ['https://youtube.com/playlist?list=PL1&si=x', 'https://youtube.com/playlist?list=PL1'],
    ['https://instagram.com/reel/AbC/?igsh=MTc4&utm_source=ig_web', 'https://instagram.com/reel/AbC'],
    ['https://open.spotify.com/track/AbC?si=1&utm_medium=x&b=2&a=1', 'https://open.spotify.com/track/AbC?a=1&b=2'],
    ['https://www.youtube.com/shorts/aqz-KE-bpKQ?si=AbC', 'https://youtube.com/watch?v=aqz-KE-bpKQ'],
    ['https://www.youtube.com/live/jfKfPfyJRdk?feature=share', 'https://youtube.com/watch?v=jfKfPfyJRdk'],
    ['https://music.youtube.com/watch?v=dQw4w9WgXcQ&list=RDAMVM', 'https://youtube.com/watch?v=dQw4w9WgXcQ'],
    ['https://m.youtube.com/@MrBeast/videos', 'https://youtube.com/@mrbeast'],
    ['https://youtube.com/@MrBeast/live', 'https://youtube.com/@MrBeast/live'],
    ['https://www.instagram.com/reels/C9xYz12AbCd/', 'https://instagram.com/reel/C9xYz12AbCd'],
    ['https://www.instagram.com/NatGeo/p/C1a2b3c4d5e/', 'https://instagram.com/p/C1a2b3c4d5e'],
    ['https://m.instagram.com/NatGeo', 'https://instagram.com/natgeo'],
    ['https://vm.tiktok.com/ZMhvqjK4r/?_t=8kZ', 'https://vm.tiktok.com/ZMhvqjK4r'],
    ['https://www.tiktok.com/t/ZTRvVsd7a/', 'https://tiktok.com/t/ZTRvVsd7a'],
    ['https://m.tiktok.com/@Khaby.Lame/video/7123456789?is_from_webapp=1', 'https://tiktok.com/@khaby.lame/video/7123456789'],
    ['https://telegram.me/Durov/12', 'https://t.me/durov/12'],
    ['https://web.facebook.com/profile.php?id=1000&sk=about', 'https://facebook.com/profile.php?id=1000'],
    ['https://fb.watch/nXyZ12AbC/?mibextid=x', 'https://fb.watch/nXyZ12AbC'],
    ['https://az.linkedin.com/in/someone?utm_source=share', 'https://linkedin.com/in/someone'],
    ['  not a url  ', 'not a url'],
  ])('%j → %j', (link, key) => {
    expect(normalizeLink(link)).toBe(key);
  });

  it('gives the same key to the same target written differently', () => {
    const forms = [
      'https://www.instagram.com/natgeo/',
      'https://instagram.com/natgeo',
      'HTTPS://Instagram.com/natgeo#top',
      ' https://WWW.INSTAGRAM.COM/natgeo// ',
    ];
    expect(new Set(forms.map(normalizeLink)).size).toBe(1);
  });

  it('gives the same key to http and https, www., m., a trailing slash, host case, sharing parameters and fragments', () => {
    fc.assert(
      fc.property(target, variant, variant, ({ link }, a, b) => {
        expect(normalizeLink(a(link))).toBe(normalizeLink(b(link)));
      }),
      { numRuns: 500 },
    );
  });

  it('gives different accounts, posts and videos different keys, however each is written', () => {
    fc.assert(
      fc.property(target, target, variant, variant, (x, y, a, b) => {
        fc.pre(x.id !== y.id);
        expect(normalizeLink(a(x.link))).not.toBe(normalizeLink(b(y.link)));
      }),
      { numRuns: 500 },
    );
  });

  it('gives one key to the written forms of one target that the platforms share', () => {
    const forms = fc.oneof(
      code.map((c) => [`https://youtube.com/watch?v=${c}`, `https://youtu.be/${c}`, `https://youtube.com/shorts/${c}`, `https://m.youtube.com/live/${c}`, `https://music.youtube.com/watch?v=${c}`, `https://youtube.com/embed/${c}`]),
      handle.map((h) => [`https://youtube.com/@${h}`, `https://youtube.com/@${h}/videos`, `https://m.youtube.com/@${h.toUpperCase()}/shorts`]),
      fc.tuple(handle, code).map(([h, c]) => [`https://instagram.com/p/${c}`, `https://instagram.com/${h}/p/${c}`, `https://m.instagram.com/p/${c}`]),
      code.map((c) => [`https://instagram.com/reel/${c}`, `https://instagram.com/reels/${c}`]),
      handle.map((h) => [`https://t.me/${h}`, `https://telegram.me/${h}`, `https://telegram.dog/${h}`]),
      digits.map((n) => [`https://facebook.com/profile.php?id=${n}`, `https://web.facebook.com/profile.php?id=${n}`, `https://fb.com/profile.php?id=${n}`, `https://mbasic.facebook.com/profile.php?id=${n}`]),
      handle.map((h) => [`https://x.com/${h}`, `https://twitter.com/${h}`, `https://mobile.twitter.com/${h}`, `https://mobile.x.com/${h}`]),
      handle.map((h) => [`https://linkedin.com/in/${h}`, `https://az.linkedin.com/in/${h}`, `https://tr.linkedin.com/in/${h}`]),
      fc.tuple(handle, digits).map(([h, n]) => [`https://tiktok.com/@${h}/video/${n}`, `https://m.tiktok.com/@${h}/video/${n}`]),
    );
    fc.assert(
      fc.property(forms, variant, variant, (links, a, b) => {
        expect(new Set(links.map((link, i) => normalizeLink((i % 2 ? a : b)(link)))).size).toBe(1);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps path case apart', () => {
    expect(normalizeLink('https://youtu.be/AbC')).not.toBe(normalizeLink('https://youtu.be/abc'));
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const once = normalizeLink(url);
        expect(normalizeLink(once)).toBe(once);
      }),
    );
  });

  it.each(accepted)('keeps %s %j valid', (platform, link) => {
    expect(isValidLink(platform, normalizeLink(link))).toBe(true);
  });
});
