/**
 * Refill periods. Providers tell a refill period only in words, in the service's name or
 * description ("30d refill", "Refill: 60 days", "Lifetime refill"); `refillDaysOf` reads it.
 */

/** The period used when a service offers refills but names no period. */
export const DEFAULT_REFILL_DAYS = 30;
/** "Lifetime" refills, counted as ten years. */
export const LIFETIME_REFILL_DAYS = 3650;

const PATTERNS: RegExp[] = [
  /\b(\d{1,4})\s*(?:d|days?|gün|gun)\b[\s-]*(?:auto[\s-]*)?refill/i,
  /\brefill\b\s*[:(-]?\s*(\d{1,4})\s*(?:d|days?|gün|gun)\b/i,
];

/** The refill period a provider's text names, in days; null when it names none. */
export function refillDaysOf(...texts: (string | null | undefined)[]): number | null {
  for (const text of texts) {
    if (!text) continue;
    for (const re of PATTERNS) {
      const m = re.exec(text);
      const days = m ? Number(m[1]) : 0;
      if (days > 0) return days;
    }
    if (/\b(?:lifetime|life[\s-]*time|ömürlük)\b[^\n\]]{0,12}\brefill|\brefill\b\s*[:(-]?\s*lifetime/i.test(text)) return LIFETIME_REFILL_DAYS;
  }
  return null;
}

/**
 * Until when a refill of an order may be asked for: the refill period counted from its completion
 * (`completedAt`); an order completed before completions were recorded counts from when it was
 * placed (`createdAt`), as it did then.
 */
export function refillUntil(order: { createdAt: Date; completedAt: Date | null }, refillDays: number | null): Date {
  return new Date((order.completedAt ?? order.createdAt).getTime() + (refillDays ?? DEFAULT_REFILL_DAYS) * 86_400_000);
}

/** The least time between two refills of one order, counted from the last one the provider took. */
export const REFILL_COOLDOWN_MS = 24 * 3600_000;

/** Why a refill is refused: stable codes, worded by the site from `common:errors.reasons.REFILL_NOT_ALLOWED`. */
export const REFILL_REFUSALS = ['not_offered', 'not_completed', 'period_ended', 'open', 'cooldown', 'later_order', 'provider'] as const;
export type RefillRefusal = (typeof REFILL_REFUSALS)[number];

/** The reseller API's wording of each refusal (`provider`: the provider's own words go instead). */
export const REFILL_REFUSAL_TEXT: Record<RefillRefusal, string> = {
  not_offered: 'Refill is not available for this service',
  not_completed: 'Refill is available for completed orders only',
  period_ended: 'The refill period of this order has ended',
  open: 'A refill of this order is already in progress',
  cooldown: `A refill of this order was requested less than ${REFILL_COOLDOWN_MS / 3600_000} hours ago`,
  later_order: 'A later order targets the same link',
  provider: 'Refill was not accepted',
};

/**
 * A provider's refusal of a refill, in its own words, read as one of the shop's codes so that pages
 * word it in the reader's language (docs/rules.md#refill): panels write these few situations in
 * many ways. Words it does not know stay `provider`, shown with the provider's text after them.
 */
const PROVIDER_REFUSAL_WORDS: [RefillRefusal, RegExp][] = [
  ['open', /\balready\b|\bin progress\b|\bexists?\b/i],
  ['period_ended', /\b(?:expired|period (?:is |has )?(?:over|ended|passed))\b/i],
  ['not_completed', /\bnot (?:yet )?(?:completed?|finished|delivered)\b|\bonly (?:for )?completed\b/i],
  ['not_offered', /\b(?:not (?:available|supported|enabled|allowed|offered|eligible)|unavailable|disabled|no refill|(?:does not|doesn't|cannot|can't) (?:support |offer |be )?refill)/i],
];

export function providerRefillRefusal(text: string): RefillRefusal {
  return PROVIDER_REFUSAL_WORDS.find(([, words]) => words.test(text))?.[0] ?? 'provider';
}

/** What the refill rule reads about one order. */
export interface RefillCase {
  /** The service offers refills, and for how many days (null: the default period). */
  offered: boolean;
  refillDays: number | null;
  order: { status: string; providerOrderId: string | null; createdAt: Date; completedAt: Date | null };
  /** The order's latest refill request, and the latest one the provider took. */
  latest?: { status: RefillStatus };
  lastTaken?: { createdAt: Date };
  /** An order placed after this one targets the same link on the same platform. */
  laterOrder: boolean;
}

/**
 * The refill rule (docs/rules.md#refill), for customers, the reseller API and the team alike.
 * A refill may be asked for when the service offers refills, the order is completed, its refill
 * period counted from completion has not ended, no refill of it is open, the last one the
 * provider took is at least REFILL_COOLDOWN_MS old, and no order placed later (by anyone) targets
 * the same link. Returns why not, or null.
 */
export function refillRefusal(c: RefillCase, now: Date): RefillRefusal | null {
  if (!c.offered) return 'not_offered';
  if (c.order.status !== 'completed' || !c.order.providerOrderId) return 'not_completed';
  if (now > refillUntil(c.order, c.refillDays)) return 'period_ended';
  if (c.latest && isOpenRefill(c.latest.status)) return 'open';
  if (c.lastTaken && now.getTime() - c.lastTaken.createdAt.getTime() < REFILL_COOLDOWN_MS) return 'cooldown';
  if (c.laterOrder) return 'later_order';
  return null;
}

/** States of a refill request, as the storefront keeps them. */
export const REFILL_STATUSES = ['pending', 'in_progress', 'completed', 'rejected', 'error'] as const;
export type RefillStatus = (typeof REFILL_STATUSES)[number];
/** A refill still under way: an order holds at most one. */
export const OPEN_REFILL_STATUSES = ['pending', 'in_progress'] as const satisfies readonly RefillStatus[];
export const isOpenRefill = (s: RefillStatus) => (OPEN_REFILL_STATUSES as readonly string[]).includes(s);

/** How the reseller API spells each state (the wording panels use). */
export const REFILL_STATUS_TEXT: Record<RefillStatus, string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed',
  rejected: 'Rejected',
  error: 'Error',
};

/** A provider's refill status text, compared case-insensitively, `in_progress` and `In progress` alike. */
export function refillStatusFromText(text: string): RefillStatus {
  const t = text.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
  if (t === 'completed' || t === 'complete' || t === 'done' || t === 'success') return 'completed';
  if (t === 'in progress' || t === 'processing' || t === 'inprogress') return 'in_progress';
  if (t === 'rejected' || t === 'canceled' || t === 'cancelled' || t === 'refused') return 'rejected';
  if (t === 'error' || t === 'fail' || t === 'failed') return 'error';
  return 'pending';
}
