import Big from 'big.js';
import { createRandom, type Random } from './random';

/**
 * The sandbox's seeded catalogue. Services are kept in the QQTube wire format (snake_case,
 * numbers as strings); the v2 handler flattens them with `toV2Service`.
 */

export interface WireOption { name: string; value: string; error_selection: string }
export interface WireParam {
  field_name: string;
  field_label: string;
  field_type: 'dropdown' | 'textarea' | 'text';
  field_placeholder: string;
  field_descr: string;
  field_validators: string;
  is_price_modifier: string;
  options: WireOption[];
}
export interface WireTier { minimum: string; maximum: string; price: string; pricing_per: string }
export interface WireService {
  id_service: string;
  platform: string;
  public_name: string;
  type_name: string;
  description: string;
  example: string;
  amount_minimum: string;
  amount_increment: string;
  is_geo: string;
  is_retention: string;
  is_drip: string;
  drip_cost: string;
  start_time: string;
  speed: string;
  prices: WireTier[];
  params: WireParam[];
}

export interface SandboxService {
  id: string;
  wire: WireService;
  minimum: number;
  maximum: number;
  increment: number;
  /** v2 listing: category, order form type and the refill/cancel flags. */
  category: string;
  v2Type: string;
  refill: boolean;
  cancel: boolean;
}

export interface SandboxCatalog {
  services: SandboxService[];
  byId: Map<string, SandboxService>;
}

type Target = 'profile' | 'post' | 'video' | 'channel' | 'site';
type Size = 'follow' | 'bulk' | 'small' | 'unit';
type ParamKind = 'comments' | 'usernames' | 'keywords' | 'share_type' | 'reaction_type' | 'answer_number' | 'gender' | 'hashtag';

interface Template {
  platform: string;
  type: string;
  noun: string;
  target: Target;
  /** Price range for `per` units. */
  price: [number, number];
  per?: number;
  size: Size;
  params?: ParamKind[];
  geo?: boolean;
}

const tpl = (
  platform: string, type: string, noun: string, target: Target, price: [number, number], size: Size,
  extra: Partial<Template> = {},
): Template => ({ platform, type, noun, target, price, size, ...extra });

const TEMPLATES: Template[] = [
  tpl('instagram', 'Followers', 'Followers', 'profile', [0.9, 6], 'follow', { params: ['gender'], geo: true }),
  tpl('instagram', 'Likes', 'Likes', 'post', [0.08, 1.5], 'follow', { geo: true }),
  tpl('instagram', 'Views', 'Reels Views', 'video', [0.01, 0.2], 'bulk'),
  tpl('instagram', 'Views', 'Story Views', 'profile', [0.05, 0.6], 'follow'),
  tpl('instagram', 'Comments', 'Custom Comments', 'post', [2, 9], 'small', { per: 100, params: ['comments'] }),
  tpl('instagram', 'Comments', 'Random Comments', 'post', [1.5, 6], 'small', { per: 100 }),
  tpl('instagram', 'Shares', 'Shares', 'post', [0.2, 2], 'follow'),
  tpl('instagram', 'Saves', 'Saves', 'post', [0.1, 1], 'follow'),
  tpl('instagram', 'Mentions', 'Mentions [Custom List]', 'post', [3, 12], 'follow', { params: ['usernames'] }),
  tpl('tiktok', 'Followers', 'Followers', 'profile', [1.2, 7], 'follow', { params: ['gender'] }),
  tpl('tiktok', 'Likes', 'Likes', 'video', [0.1, 1.8], 'follow', { geo: true }),
  tpl('tiktok', 'Views', 'Views', 'video', [0.005, 0.08], 'bulk', { params: ['hashtag'] }),
  tpl('tiktok', 'Shares', 'Shares', 'video', [0.15, 1.2], 'follow'),
  tpl('tiktok', 'Comments', 'Custom Comments', 'video', [2.5, 10], 'small', { per: 100, params: ['comments'] }),
  tpl('tiktok', 'Saves', 'Favorites', 'video', [0.1, 0.9], 'follow'),
  tpl('youtube', 'Followers', 'Subscribers', 'channel', [8, 40], 'follow'),
  tpl('youtube', 'Likes', 'Likes', 'video', [0.8, 5], 'follow'),
  tpl('youtube', 'Views', 'Views', 'video', [0.6, 4], 'bulk', { geo: true }),
  tpl('youtube', 'Views', 'Views from Search', 'video', [1.5, 6], 'bulk', { params: ['keywords'] }),
  tpl('youtube', 'Shares', 'Social Shares', 'video', [0.5, 3], 'follow', { params: ['share_type'] }),
  tpl('youtube', 'Comments', 'Custom Comments', 'video', [4, 15], 'small', { per: 100, params: ['comments'] }),
  tpl('youtube', 'Watch Time', 'Watch Time (hours)', 'video', [0.004, 0.02], 'unit', { per: 1 }),
  tpl('facebook', 'Likes', 'Page Likes', 'profile', [1.5, 8], 'follow', { geo: true }),
  tpl('facebook', 'Followers', 'Page Followers', 'profile', [1.2, 6], 'follow'),
  tpl('facebook', 'Reactions', 'Post Reactions', 'post', [0.6, 3], 'follow', { params: ['reaction_type'] }),
  tpl('facebook', 'Views', 'Video Views', 'video', [0.3, 2], 'bulk'),
  tpl('facebook', 'Shares', 'Post Shares', 'post', [1, 5], 'follow'),
  tpl('facebook', 'Comments', 'Custom Comments', 'post', [3, 12], 'small', { per: 100, params: ['comments'] }),
  tpl('linkedin', 'Followers', 'Company Followers', 'profile', [12, 40], 'follow'),
  tpl('linkedin', 'Likes', 'Post Likes', 'post', [8, 30], 'follow'),
  tpl('linkedin', 'Connections', 'Connections', 'profile', [0.03, 0.09], 'unit', { per: 1 }),
  tpl('linkedin', 'Comments', 'Custom Comments', 'post', [0.2, 0.6], 'unit', { per: 1, params: ['comments'] }),
  tpl('linkedin', 'Shares', 'Reposts', 'post', [10, 35], 'follow'),
  tpl('twitter', 'Followers', 'Followers', 'profile', [3, 15], 'follow', { geo: true }),
  tpl('twitter', 'Likes', 'Likes', 'post', [0.8, 5], 'follow'),
  tpl('twitter', 'Shares', 'Retweets', 'post', [1, 6], 'follow'),
  tpl('twitter', 'Views', 'Tweet Views', 'post', [0.02, 0.3], 'bulk'),
  tpl('twitter', 'Comments', 'Custom Replies', 'post', [3, 14], 'small', { per: 100, params: ['comments'] }),
  tpl('twitter', 'Poll Votes', 'Poll Votes', 'post', [0.5, 3], 'follow', { params: ['answer_number'] }),
  tpl('telegram', 'Followers', 'Channel Members', 'channel', [0.7, 5], 'follow', { geo: true }),
  tpl('telegram', 'Views', 'Post Views', 'post', [0.01, 0.15], 'bulk'),
  tpl('telegram', 'Reactions', 'Post Reactions', 'post', [0.05, 0.5], 'follow', { params: ['reaction_type'] }),
  tpl('telegram', 'Shares', 'Post Shares', 'post', [0.1, 0.8], 'follow'),
  tpl('telegram', 'Poll Votes', 'Poll Votes', 'post', [0.2, 1.5], 'follow', { params: ['answer_number'] }),
  tpl('', 'Traffic', 'Website Traffic', 'site', [0.3, 2], 'bulk', { geo: true }),
  tpl('', 'Views', 'Spotify Plays', 'site', [0.5, 2.5], 'bulk'),
  tpl('', 'Comments', 'Google Maps Reviews', 'site', [0.8, 2.5], 'unit', { per: 1, params: ['comments'] }),
];

const PLATFORM_NAMES: Record<string, string> = {
  instagram: 'Instagram', tiktok: 'TikTok', youtube: 'YouTube', facebook: 'Facebook',
  linkedin: 'LinkedIn', twitter: 'Twitter', telegram: 'Telegram', '': '',
};

const EXAMPLES: Record<string, Partial<Record<Target, string>>> = {
  instagram: { profile: 'https://www.instagram.com/artim.az', post: 'https://www.instagram.com/p/C8xYz12AbCd/', video: 'https://www.instagram.com/reel/C9aBc34DeFg/' },
  tiktok: { profile: 'https://www.tiktok.com/@artim.az', video: 'https://www.tiktok.com/@artim.az/video/7351234567890123456' },
  youtube: { channel: 'https://www.youtube.com/@artim', video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
  facebook: { profile: 'https://www.facebook.com/artim.az', post: 'https://www.facebook.com/artim.az/posts/1234567890', video: 'https://www.facebook.com/watch/?v=1234567890' },
  linkedin: { profile: 'https://www.linkedin.com/company/artim', post: 'https://www.linkedin.com/posts/artim_activity-7100000000000000000' },
  twitter: { profile: 'https://twitter.com/artim_az', post: 'https://twitter.com/artim_az/status/1780000000000000000' },
  telegram: { channel: 'https://t.me/artim_az', post: 'https://t.me/artim_az/125' },
  '': { site: 'https://artim.az' },
};

const SIZES: Record<Size, { steps: [number, number][]; maxima: number[] }> = {
  follow: { steps: [[10, 10], [50, 50], [100, 100]], maxima: [5000, 10000, 50000, 100000] },
  bulk: { steps: [[100, 100], [500, 100], [1000, 1000]], maxima: [100000, 500000, 1000000] },
  small: { steps: [[5, 1], [10, 1], [10, 5]], maxima: [500, 1000, 5000] },
  unit: { steps: [[1, 1], [5, 1], [10, 1]], maxima: [100, 500, 1000] },
};

const QUALITIES = ['Real', 'HQ', 'Premium', 'Mixed Quality', 'Active Users', 'Non Drop', 'Low Drop', 'Bot'];
const REFILLS = ['No Refill', 'No Refill', '30d refill', '30d refill', '60d refill', '90d refill', '365d refill', 'Lifetime refill'];
const SPEEDS = ['500/day', '1K/day', '5K/day', '10K/day', '50K/day', 'Instant', 'Fast'];
const STARTS = ['0-1 hours', '0-6 hours', '0-12 hours', '12-24 hours', 'Instant'];

const SHARE_SOURCES = ['Random', 'Facebook', 'Twitter', 'Reddit', 'WhatsApp', 'Telegram', 'LinkedIn', 'Pinterest', 'Tumblr', 'VK', 'Blogger', 'Email', 'Skype', 'Viber'];
const FB_REACTIONS = ['Like', 'Love', 'Care', 'Haha', 'Wow', 'Sad', 'Angry'];
const TG_REACTIONS = ['👍', '❤️', '🔥', '🎉', '😁', '👏'];

const option = (name: string, value: string): WireOption => ({ name, value, error_selection: '0' });

function param(
  field_name: string, field_label: string, field_type: WireParam['field_type'], required: boolean,
  extra: Partial<WireParam> = {},
): WireParam {
  return {
    field_name, field_label, field_type,
    field_placeholder: '', field_descr: '',
    field_validators: required ? 'required' : '',
    is_price_modifier: '0', options: [], ...extra,
  };
}

function buildParam(kind: ParamKind, platform: string): WireParam {
  switch (kind) {
    case 'comments':
      return param('comments', 'Comments', 'textarea', true, {
        field_placeholder: 'Great post!\nLove this 🔥',
        field_descr: 'One comment per line; the number of lines should match the quantity.',
        field_validators: 'required|max:5000',
      });
    case 'usernames':
      return param('usernames', 'Usernames', 'textarea', true, { field_placeholder: 'user1\nuser2', field_descr: 'One username per line, without @.' });
    case 'keywords':
      return param('keywords', 'Search keywords', 'text', true, { field_placeholder: 'baku travel vlog', field_descr: 'Words viewers search for before opening the video.' });
    case 'share_type':
      return param('share_type', 'Share source', 'dropdown', true, { options: SHARE_SOURCES.map((n, i) => option(n, String(i))) });
    case 'reaction_type': {
      const names = platform === 'telegram' ? TG_REACTIONS : FB_REACTIONS;
      return param('reaction_type', 'Reaction', 'dropdown', true, { options: names.map((n, i) => option(n, String(i + 1))) });
    }
    case 'answer_number':
      return param('answer_number', 'Answer number', 'text', true, { field_placeholder: '1', field_descr: 'Position of the answer in the poll, counting from 1.' });
    case 'gender':
      return param('gender', 'Gender', 'dropdown', false, {
        is_price_modifier: '1',
        options: [option('Mixed', 'mixed'), option('Female', 'female'), option('Male', 'male')],
      });
    case 'hashtag':
      return param('hashtag', 'Hashtag', 'text', false, { field_placeholder: '#artim', field_descr: 'Optional: views arrive from this hashtag page.' });
  }
}

const geoParam = (): WireParam =>
  param('geo-countries', 'Country', 'text', true, {
    field_placeholder: 'US',
    field_descr: 'Two-letter ISO country code (e.g. US, TR, AZ).',
    field_validators: 'required|size:2',
  });

const decimal = (n: number, dp = 4) => new Big(n).round(dp, Big.roundHalfUp).toFixed(dp);

/** Rounds `n` to a multiple of `step`, at least `step`. */
const toStep = (n: number, step: number) => Math.max(step, Math.round(n / step) * step);

/** 1–3 contiguous tiers, each cheaper per unit than the one before. */
function buildTiers(r: Random, min: number, max: number, inc: number, base: number, per: number): WireTier[] {
  const count = r.pick([1, 2, 2, 3, 3]);
  const cuts = [min];
  if (count >= 2) cuts.push(toStep(max / (count === 3 ? 20 : 10), inc));
  if (count === 3) cuts.push(toStep(max / 4, inc));
  const bounds = cuts.filter((c, i) => i === 0 || (c > cuts[i - 1]! && c < max));
  return bounds.map((lo, i) => ({
    minimum: String(lo),
    maximum: String(i + 1 < bounds.length ? bounds[i + 1]! - inc : max),
    price: decimal(base * (1 - i * (0.08 + r.next() * 0.05))),
    pricing_per: String(per),
  }));
}

function buildService(r: Random, t: Template): Omit<SandboxService, 'id' | 'wire'> & { wire: Omit<WireService, 'id_service'> } {
  const platformName = PLATFORM_NAMES[t.platform] ?? t.platform;
  const per = t.per ?? 1000;
  const [min, inc] = r.pick(SIZES[t.size].steps);
  const max = r.pick(SIZES[t.size].maxima.filter((m) => m >= min * 20));
  const base = t.price[0] + r.next() * (t.price[1] - t.price[0]);
  const geo = !!t.geo && r.chance(0.35);
  const refillTag = r.pick(REFILLS);
  const quality = r.pick(QUALITIES);
  const qualities = [quality];
  if (r.chance(0.5)) qualities.push(r.pick(QUALITIES.filter((q) => q !== quality)));
  const tags = [...qualities];
  const speed = r.pick(SPEEDS);
  if (r.chance(0.4)) tags.push(speed);
  tags.push(refillTag);
  const name = [platformName, t.noun].filter(Boolean).join(' ') + (geo ? ' [Targeted Country]' : '') + ` [${tags.join(', ')}]`;
  const example = EXAMPLES[t.platform]?.[t.target] ?? 'https://artim.az';
  const refill = refillTag !== 'No Refill';
  const startTime = r.pick(STARTS);
  const isDrip = t.size === 'bulk' && r.chance(0.3);
  const params = (t.params ?? []).map((k) => buildParam(k, t.platform));
  if (geo) params.push(geoParam());
  const description = [
    `${t.noun} for your ${platformName || 'site'} ${t.target === 'site' ? 'link' : t.target}. Quality: ${qualities.join(', ')}.`,
    `Start: ${startTime}`,
    `Speed: ${speed}`,
    `Refill: ${refill ? refillTag.replace(' refill', '') : 'none'}`,
    `Link format: ${example}`,
    t.target === 'site' ? 'Any public URL.' : 'The account must be public during delivery.',
  ].join('\n');
  const category = t.platform ? `${platformName} ${t.noun.replace(/ \[.*\]$/, '')}` : t.noun;
  const v2Type = params.some((p) => p.field_name === 'comments')
    ? 'Custom Comments'
    : params.some((p) => p.field_name === 'usernames')
      ? 'Mentions Custom List'
      : params.some((p) => p.field_name === 'answer_number')
        ? 'Poll'
        : 'Default';
  return {
    minimum: min,
    maximum: max,
    increment: inc,
    category: r.chance(0.05) ? '⭐ Best Sellers' : category,
    v2Type,
    refill,
    cancel: r.chance(0.4),
    wire: {
      platform: t.platform,
      public_name: name,
      type_name: t.type,
      description,
      example,
      amount_minimum: String(min),
      amount_increment: String(inc),
      is_geo: geo ? '1' : '0',
      is_retention: t.type === 'Views' && r.chance(0.3) ? '1' : '0',
      is_drip: isDrip ? '1' : '0',
      drip_cost: isDrip ? '0.0000' : '0',
      start_time: startTime,
      speed,
      prices: buildTiers(r, min, max, inc, base, per),
      params,
    },
  };
}

const PLATFORM_ORDER = ['instagram', 'tiktok', 'youtube', 'facebook', 'linkedin', 'twitter', 'telegram', ''];

/**
 * Deterministic catalogue: the same seed and count always give the same services. The first
 * services cover every template once (every platform, type and param kind), the rest are drawn
 * at random; the list is ordered by platform and type like a panel's, with increasing ids.
 */
export function generateCatalog(seed = 1, count = 320): SandboxCatalog {
  const r = createRandom(seed);
  const drafts = Array.from({ length: count }, (_, i) => {
    const t = i < TEMPLATES.length ? TEMPLATES[i]! : r.pick(TEMPLATES);
    return { order: PLATFORM_ORDER.indexOf(t.platform) * 100 + TEMPLATES.indexOf(t), draft: buildService(r, t) };
  });
  drafts.sort((a, b) => a.order - b.order);
  let nextId = 1000 + r.int(0, 500);
  const services = drafts.map(({ draft }) => {
    const id = String(nextId);
    nextId += r.int(1, 7);
    return { ...draft, id, wire: { id_service: id, ...draft.wire } };
  });
  return { services, byId: new Map(services.map((s) => [s.id, s])) };
}

/** A price factor: a positive decimal of at most 4 decimals ("1", "1.15", "0.9"). */
export const PRICE_FACTOR = /^\d{1,6}(\.\d{1,4})?$/;

/** A decimal's exact text, with at least `min` decimals (the catalogue's prices have 4). */
function exactText(n: Big, min = 4): string {
  const decimals = n.toFixed().split('.')[1]?.length ?? 0;
  return n.toFixed(Math.max(min, decimals));
}

/**
 * The same services at other prices: every tier's price times `factor`, exactly (a 4-decimal
 * price times a factor of at most 4 decimals keeps every digit, e.g. 1.2345 × 1.15 = 1.419675).
 * Ids, names, bounds and fields stay as they are, so a second sandbox provider sells the same
 * services as the first one, dearer or cheaper.
 */
export function withPriceFactor(catalog: SandboxCatalog, factor: string): SandboxCatalog {
  if (!PRICE_FACTOR.test(factor) || new Big(factor).lte(0)) throw new Error(`price factor must be a positive decimal of at most 4 decimals, got "${factor}"`);
  if (new Big(factor).eq(1)) return catalog;
  const services = catalog.services.map((s) => ({
    ...s,
    wire: { ...s.wire, prices: s.wire.prices.map((t) => ({ ...t, price: exactText(new Big(t.price).times(factor)) })) },
  }));
  return { services, byId: new Map(services.map((s) => [s.id, s])) };
}

/** The tier for a quantity, if any. */
export function tierFor(s: SandboxService, quantity: number): WireTier | undefined {
  return s.wire.prices.find((t) => Number(t.minimum) <= quantity && quantity <= Number(t.maximum));
}

/** Cost of an order: tier price / pricing_per × quantity, rounded up to 4 decimals. */
export function chargeFor(s: SandboxService, quantity: number): string {
  const tier = tierFor(s, quantity) ?? s.wire.prices[0]!;
  return new Big(tier.price).div(tier.pricing_per).times(quantity).round(4, Big.roundUp).toFixed(4);
}

/**
 * A v2 panel's one price of a service: USD per 1000 from the first tier, with at least 4
 * decimals, exact (a price factor's digits are kept; a division that does not end is rounded
 * up at the 8th decimal).
 */
export function v2Rate(s: SandboxService): string {
  const first = s.wire.prices[0]!;
  return exactText(new Big(first.price).times(1000).div(first.pricing_per).round(8, Big.roundUp));
}

/**
 * Cost of an order through SMM v2: rate × quantity / 1000 (for a drip-feed, every run's quantity
 * together), computed exactly and given with the 5 decimals such panels charge in (half up).
 */
export function v2ChargeFor(s: SandboxService, quantity: number): string {
  return new Big(v2Rate(s)).times(quantity).div(1000).round(5, Big.roundHalfUp).toFixed(5);
}

/** The service as a v2 panel lists it: rate per 1000 from the first tier. */
export function toV2Service(s: SandboxService) {
  return {
    service: Number(s.id),
    name: s.wire.public_name,
    type: s.v2Type,
    category: s.category,
    rate: v2Rate(s),
    min: String(s.minimum),
    max: String(s.maximum),
    refill: s.refill,
    cancel: s.cancel,
    dripfeed: s.wire.is_drip === '1',
    desc: s.wire.description,
  };
}

/** The service as the QQTube `services` list gives it: everything but the description. */
export function toQqtubeListItem(s: SandboxService): Omit<WireService, 'description'> {
  const { description: _omitted, ...rest } = s.wire;
  return rest;
}
