import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINK_MAX_LENGTH, isValidLink, normalizeLink } from './links';

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
  // instagram
  ['instagram', 'https://www.instagram.com/natgeo/'],
  ['instagram', 'https://instagram.com/p/C1a2b3c4d5e/'],
  ['instagram', 'http://instagram.com/reel/xyz?igsh=abc'],
  ['INSTAGRAM', 'HTTPS://Instagram.COM/NatGeo'],
  // tiktok
  ['tiktok', 'https://www.tiktok.com/@khaby.lame/video/7123456789'],
  ['tiktok', 'https://tiktok.com/@user'],
  // facebook
  ['facebook', 'https://www.facebook.com/zuck'],
  ['facebook', 'https://m.facebook.com/story.php?id=1'],
  ['facebook', 'https://facebook.com/groups/123/posts/456'],
  // twitter / x
  ['twitter', 'https://twitter.com/jack/status/20'],
  ['twitter', 'https://x.com/jack/status/20'],
  ['twitter', 'https://www.x.com/jack'],
  ['x', 'https://x.com/jack'],
  // telegram
  ['telegram', 'https://t.me/durov'],
  ['telegram', 'http://www.t.me/durov/123'],
  // other platforms: any http(s) URL
  ['linkedin', 'https://www.linkedin.com/in/someone'],
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
  ['youtube', 'https://www.youtube.com/@handle'],
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
