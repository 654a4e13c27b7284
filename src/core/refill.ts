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

/** Until when a refill of an order placed at `orderedAt` may be asked for. */
export function refillUntil(orderedAt: Date, refillDays: number | null): Date {
  return new Date(orderedAt.getTime() + (refillDays ?? DEFAULT_REFILL_DAYS) * 86_400_000);
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
