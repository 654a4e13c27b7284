import type { CatalogService } from './catalog';
import type { OrderStatus } from './orderStatus';
import { RATE_DECIMALS, ratePer1000Micros, type Fees } from './pricing';

/**
 * Figures of the reseller API (`/api/v2`, the PerfectPanel-style protocol): prices per 1000,
 * charges and balances as decimal USD strings of up to 5 decimals, statuses spelled as the
 * protocol's clients expect.
 */

/** Most ids one `status`, `refill`, `refill_status` or `cancel` call takes. */
export const V2_MAX_IDS = 100;

/** Decimals of the protocol's amounts (`rate`, `charge`, `balance`): "100.84292", "0.27819". */
export const API_DECIMALS = RATE_DECIMALS;

/**
 * USD per 1000 units as the customer pays them (src/core/pricing.ts): the tier containing 1000
 * units (else the first), the service fee included, rounded up to 5 decimals ("0.3500" → "0.35",
 * "0.21272"). Orders of that tier are charged by this very rate. The fixed per-order base fee,
 * when the shop sets one, is added to each order's charge, not to the rate. Null when no tier is
 * usable.
 */
export function ratePer1000(tiers: CatalogService['tiers'], fees: Fees): string | null {
  const micros = ratePer1000Micros(tiers, fees);
  return micros === null ? null : microsToUsd(micros, 'up');
}

const STEP = 10 ** (6 - API_DECIMALS);

/**
 * Micro-dollars as the protocol's decimal string, with at least 2 and at most 5 decimals (no
 * trailing zeros beyond the second): 12 340 000 → "12.34", 278 190 → "0.27819". A sixth decimal is
 * rounded `up` for what the customer pays (`rate`, `charge`: never less than what is debited)
 * and `down` for what the customer holds (`balance`: never more than what can be spent):
 * 212 725 → "0.21273" up, "0.21272" down.
 */
export function microsToUsd(micros: number, round: 'up' | 'down'): string {
  if (!Number.isSafeInteger(micros)) throw new RangeError(`micros must be a safe integer, got ${micros}`);
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  // Rounded on the magnitude, in integers: away from zero ("up") or toward it ("down").
  const rest = abs % STEP;
  const steps = (abs - rest) / STEP + (round === 'up' && rest > 0 ? 1 : 0);
  const digits = String(steps).padStart(API_DECIMALS + 1, '0');
  const fraction = digits.slice(-API_DECIMALS).replace(/(\d{2}\d*?)0+$/, '$1');
  return `${sign}${digits.slice(0, -API_DECIMALS)}.${fraction}`;
}

/** The protocol's status of an order. */
export function v2Status(status: OrderStatus): string {
  switch (status) {
    case 'pending':
    case 'unknown':
      return 'Pending';
    case 'processing':
      return 'Processing';
    case 'in_progress':
    case 'active':
    case 'running':
      return 'In progress';
    case 'completed':
      return 'Completed';
    case 'partial':
      return 'Partial';
    case 'error':
    case 'stopped':
    case 'refunded':
    case 'cancelled':
      return 'Canceled';
  }
}

/** The protocol's order-form type of a service, from the extra fields it needs. */
export function v2ServiceType(params: CatalogService['params']): string {
  const names = new Set(params.map((p) => p.fieldName));
  if (names.has('comments')) return 'Custom Comments';
  if (names.has('usernames')) return 'Mentions Custom List';
  if (names.has('hashtag') || names.has('hashtags')) return 'Mentions Hashtag';
  if (names.has('media')) return 'Mentions Media Likers';
  if (names.has('answer_number')) return 'Poll';
  if (names.has('username')) return 'Mentions User Followers';
  return 'Default';
}
