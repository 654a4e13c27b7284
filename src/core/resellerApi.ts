import type { CatalogService } from './catalog';
import type { OrderStatus } from './orderStatus';
import { RATE_DECIMALS, ratePer1000Micros, type Fees, type RatedService } from './pricing';

/**
 * Figures of the reseller API (`/api/v2`, the PerfectPanel-style protocol): prices per 1000,
 * charges and balances as decimal USD strings of up to 5 decimals, statuses spelled as the
 * protocol's clients expect.
 */

/** Most ids one `status`, `refill`, `refill_status` or `cancel` call takes. */
export const V2_MAX_IDS = 100;

/** Decimals of the protocol's amounts (`rate`, `charge`, `balance`): "100.84292", "0.27819". */
export const API_DECIMALS = RATE_DECIMALS;

/** Refusals in the wording the protocol's clients match on. */
export const V2_ERRORS = {
  key: 'Incorrect API key',
  request: 'Incorrect request',
  service: 'Incorrect service ID',
  link: 'Incorrect link',
  funds: 'Not enough funds on balance',
  active: 'You have active order with this link. Please wait until order being completed.',
  order: 'Incorrect order ID',
  refillId: 'Incorrect refill ID',
  rate: 'Too many requests. Please slow down.',
  maintenance: 'The service is under maintenance. Please try again later.',
  owed: 'Your balance is negative after a reversed payment. Top up your balance to settle it before using the API.',
} as const;

/** Refusals of a quantity outside a service's bounds, in the protocol's wording. */
export const V2_QUANTITY_ERRORS = {
  min: (min: number) => `Quantity less than minimal ${min}`,
  max: (max: number) => `Quantity more than maximum ${max}`,
  step: (step: number) => `Quantity must be a multiple of ${step}`,
} as const;

/** Refusals of a field a service's type asks for. */
export const V2_FIELD_ERRORS = {
  required: (name: string) => `${name} is required`,
  tooLong: (name: string, max: number) => `${name} is too long (at most ${max} characters)`,
} as const;

/**
 * USD per 1000 units as the customer pays them (src/core/pricing.ts): the tier an order of 1000
 * units, or the orderable quantity nearest it, is charged by (else the first), the service fee included, rounded up to 5 decimals ("0.3500" → "0.35",
 * "0.21272"). Orders of that tier are charged by this very rate. The fixed per-order base fee,
 * when the shop sets one, is added to each order's charge, not to the rate. Null when no tier is
 * usable.
 */
export function ratePer1000(service: RatedService, fees: Fees): string | null {
  const micros = ratePer1000Micros(service, fees);
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

/** Order statuses as the protocol spells them. */
export const V2_STATUSES = ['Pending', 'Processing', 'In progress', 'Completed', 'Partial', 'Canceled'] as const;
export type V2Status = (typeof V2_STATUSES)[number];

/** The protocol's status of an order. */
export function v2Status(status: OrderStatus): V2Status {
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

/** The protocol's order-form types (`type` in `services`): which fields `add` takes besides service and link. */
export const V2_SERVICE_TYPES = [
  'Default',
  'Custom Comments',
  'Mentions Custom List',
  'Mentions Hashtag',
  'Mentions User Followers',
  'Mentions Media Likers',
  'Poll',
] as const;
export type V2ServiceType = (typeof V2_SERVICE_TYPES)[number];

/** The field names that make each type, in the order they are looked for. */
const TYPE_FIELDS: [Exclude<V2ServiceType, 'Default'>, readonly string[]][] = [
  ['Custom Comments', ['comments']],
  ['Mentions Custom List', ['usernames']],
  ['Mentions Hashtag', ['hashtag', 'hashtags']],
  ['Mentions Media Likers', ['media']],
  ['Poll', ['answer_number']],
  ['Mentions User Followers', ['username']],
];

/**
 * The protocol's order-form type of a service, from the extra field it requires, and the
 * service's name of that field. A field the service only may take leaves it `Default`: clients
 * read a type as the fields they must send.
 */
export function v2TypeOf(params: CatalogService['params']): { type: V2ServiceType; field: string | null } {
  const required = new Set(params.filter((p) => p.required).map((p) => p.fieldName));
  for (const [type, names] of TYPE_FIELDS) {
    const field = names.find((n) => required.has(n));
    if (field) return { type, field };
  }
  return { type: 'Default', field: null };
}

export const v2ServiceType = (params: CatalogService['params']): V2ServiceType => v2TypeOf(params).type;
