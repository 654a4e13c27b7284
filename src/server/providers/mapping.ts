import type { OrderStatus } from '../../core/orderStatus';

/**
 * QQTube `status.id_status` → storefront status. The ids follow the one public client that
 * maps them (1 completed, 2 and 3 in progress, 8 refunded, 19 stopped, everything else failed).
 * The status name refines what the ids leave open:
 * - ids 2 and 3 whose name says "pending"/"waiting"/"queue" → pending (both are active anyway);
 * - any other id whose name says "partial" → partial, "cancel" → cancelled, "refund" →
 *   refunded, so the refund policy applies the right rule instead of treating them as failures;
 * - otherwise → error.
 */
export function mapQqtubeStatus(idStatus: number, name: string): OrderStatus {
  const n = name.toLowerCase();
  switch (idStatus) {
    case 1:
      return 'completed';
    case 2:
    case 3:
      return /pending|waiting|queue/.test(n) ? 'pending' : 'in_progress';
    case 8:
      return 'refunded';
    case 19:
      return 'stopped';
  }
  if (n.includes('partial')) return 'partial';
  if (n.includes('cancel')) return 'cancelled';
  if (n.includes('refund')) return 'refunded';
  return 'error';
}

const V2_STATUSES: Record<string, OrderStatus> = {
  pending: 'pending',
  'in progress': 'in_progress',
  processing: 'processing',
  completed: 'completed',
  partial: 'partial',
  canceled: 'cancelled',
  cancelled: 'cancelled',
  refunded: 'refunded',
};

/**
 * PerfectPanel v2 status text → storefront status. Compared case-insensitively with the inner
 * space kept ("In progress"; "in_progress" is not a v2 status). Unknown texts are `error`.
 */
export function mapV2Status(text: string): OrderStatus {
  const key = text.trim().replace(/\s+/g, ' ').toLowerCase();
  return V2_STATUSES[key] ?? 'error';
}

const PLATFORM_WORDS: [string, RegExp][] = [
  ['instagram', /\b(instagram|insta|ig)\b/],
  ['tiktok', /\b(tiktok|tik tok)\b/],
  ['youtube', /\b(youtube|yt)\b/],
  ['facebook', /\b(facebook|fb)\b/],
  ['linkedin', /\blinked ?in\b/],
  ['twitter', /\b(twitter|tweets?|retweets?|x\.com)\b/],
  ['telegram', /\b(telegram|tg)\b/],
];

/**
 * v2 panels give no platform field; it is guessed from the category first, then from the
 * service name, by the platform's name or a common short form (IG, YT, FB, TG). No match → ''
 * (the storefront leaves services without a platform out).
 */
export function guessPlatform(...texts: (string | null | undefined)[]): string {
  for (const text of texts) {
    const t = (text ?? '').toLowerCase();
    for (const [platform, re] of PLATFORM_WORDS) if (re.test(t)) return platform;
  }
  return '';
}

const TYPE_WORDS: [string, RegExp][] = [
  ['Comments', /\b(comments?|replies|reply)\b/],
  ['Followers', /\b(followers?|subscribers?|subs|members?|fans)\b/],
  ['Likes', /\b(likes?|hearts?)\b/],
  ['Views', /\b(views?|plays?|impressions?|watch ?time)\b/],
  ['Shares', /\b(shares?|retweets?|reposts?)\b/],
];

/**
 * v2 `type` is the order form ("Default", "Custom Comments"), not what is sold, so the type
 * name is guessed from the service name, then the category: the first of the words for
 * Comments, Followers, Likes, Views or Shares that appears in the text wins; none → Other.
 */
export function guessType(...texts: (string | null | undefined)[]): string {
  for (const text of texts) {
    const t = (text ?? '').toLowerCase();
    let best: { type: string; at: number } | null = null;
    for (const [type, re] of TYPE_WORDS) {
      const m = re.exec(t);
      if (m && (best === null || m.index < best.at)) best = { type, at: m.index };
    }
    if (best) return best.type;
  }
  return 'Other';
}
