import type { CatalogService } from './catalog';
import { AppError } from './errors';
import { isValidLink } from './links';

/**
 * The order form's rules (docs/rules.md#orders), shared by the browser form and the server, which runs
 * them again on its own catalogue copy before charging anything.
 */

export const DEFAULT_MIN_QUANTITY = 1;
export const DEFAULT_MAX_QUANTITY = 10_000;
export const DEFAULT_QUANTITY_STEP = 1;

export interface QuantityBounds {
  min: number;
  max: number;
  step: number;
}

const positiveInt = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : fallback;

/** min = amountMinimum (default 1), max = the first tier's maximum (default 10000), step = amountIncrement (default 1). */
export function quantityBounds(
  service: Pick<CatalogService, 'amountMinimum' | 'amountIncrement' | 'tiers'>,
): QuantityBounds {
  return {
    min: positiveInt(service.amountMinimum, DEFAULT_MIN_QUANTITY),
    max: positiveInt(service.tiers[0]?.maximum, DEFAULT_MAX_QUANTITY),
    step: positiveInt(service.amountIncrement, DEFAULT_QUANTITY_STEP),
  };
}

/** A positive integer within the bounds, reachable from min in whole steps. */
export function isQuantityAllowed(quantity: number, { min, max, step }: QuantityBounds): boolean {
  return Number.isSafeInteger(quantity) && quantity >= min && quantity <= max && (quantity - min) % step === 0;
}

/**
 * One refused field. `field` is the form path ("link", "quantity", "params.<fieldName>");
 * `code` is an error code the browser translates, with `details` filling the message
 * ("{label} vacibdir", "quantity must be between {min} and {max}").
 */
export type OrderInputIssue =
  | { code: 'LINK_INVALID'; field: 'link'; details: { reason: 'required' | 'format' } }
  | { code: 'QUANTITY_OUT_OF_RANGE'; field: 'quantity'; details: QuantityBounds }
  | { code: 'PARAM_REQUIRED'; field: `params.${string}`; details: { field: string; label: string } }
  | { code: 'VALIDATION_FAILED'; field: `params.${string}`; details: { field: string; label: string; reason: 'option' } };

export interface OrderInput {
  link: string;
  quantity: number;
  params?: Readonly<Record<string, string | undefined>>;
}

/** A param's value when it was given as text; inherited names such as "constructor" do not count. */
function paramValue(params: OrderInput['params'], name: string): string | undefined {
  const value = params && Object.hasOwn(params, name) ? params[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Every issue of an order form; an empty list means the input may be ordered. */
export function validateOrderInput(
  service: Pick<CatalogService, 'platform' | 'amountMinimum' | 'amountIncrement' | 'tiers' | 'params'>,
  input: OrderInput,
): OrderInputIssue[] {
  const issues: OrderInputIssue[] = [];
  const link = input.link.trim();
  if (!link) issues.push({ code: 'LINK_INVALID', field: 'link', details: { reason: 'required' } });
  else if (!isValidLink(service.platform, link)) {
    issues.push({ code: 'LINK_INVALID', field: 'link', details: { reason: 'format' } });
  }

  const bounds = quantityBounds(service);
  if (!isQuantityAllowed(input.quantity, bounds)) {
    issues.push({ code: 'QUANTITY_OUT_OF_RANGE', field: 'quantity', details: bounds });
  }

  for (const param of service.params) {
    const value = paramValue(input.params, param.fieldName)?.trim() ?? '';
    const where = { field: param.fieldName, label: param.fieldLabel || param.fieldName };
    if (!value) {
      if (param.required) issues.push({ code: 'PARAM_REQUIRED', field: `params.${param.fieldName}`, details: where });
    } else if (param.fieldType === 'dropdown' && param.options.length > 0 && !param.options.some((o) => o.value === value)) {
      issues.push({ code: 'VALIDATION_FAILED', field: `params.${param.fieldName}`, details: { ...where, reason: 'option' } });
    }
  }
  return issues;
}

/**
 * A service that cannot be ordered without extra details: one of its params is required. A
 * service whose params are all optional is ordered without them (a mass order, say).
 */
export const needsParams = (service: Pick<CatalogService, 'params'>): boolean => service.params.some((p) => p.required);

/** Throws the first issue as an AppError (for the server); returns when there is none. */
export function assertValidOrderInput(...args: Parameters<typeof validateOrderInput>): void {
  const [issue] = validateOrderInput(...args);
  if (issue) throw new AppError(issue.code, issue.code, { field: issue.field, ...issue.details });
}

/** The params to send to the provider: only the service's declared fields, trimmed, blanks left out. */
export function orderParams(service: Pick<CatalogService, 'params'>, params: OrderInput['params']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { fieldName } of service.params) {
    const value = paramValue(params, fieldName)?.trim();
    if (value) out[fieldName] = value;
  }
  return out;
}

/**
 * Params whose value is a list, one item per line: comments to post, usernames to mention. An
 * order of a service that takes one is for as many units as the list has items (docs/rules.md#orders).
 */
export const LINE_LIST_PARAMS = ['comments', 'usernames'] as const;
export type LineListParam = (typeof LINE_LIST_PARAMS)[number];

/** The items of a line list: its lines trimmed, the empty ones left out. */
export function listLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

export const DRIP_MIN_RUNS = 2;
export const DRIP_MAX_RUNS = 1000;
/** Minutes between two runs of a drip-feed. */
export const DRIP_MIN_INTERVAL = 1;
export const DRIP_MAX_INTERVAL = 60 * 24 * 30;

/** A drip-feed's runs and interval are allowed: whole numbers within the bounds. */
export const isDripFeedAllowed = (runs: number, interval: number): boolean =>
  Number.isSafeInteger(runs) && Number.isSafeInteger(interval) && runs >= DRIP_MIN_RUNS && runs <= DRIP_MAX_RUNS && interval >= DRIP_MIN_INTERVAL && interval <= DRIP_MAX_INTERVAL;

/**
 * How the keys the server makes for its own orders begin (docs/rules.md#orders): `api_<random>`
 * for orders placed through the reseller API (the prefix is what marks an order as placed
 * through it, `orders.via_api`), `mass_<batch key>_<line>` for the lines of a mass order (a batch
 * key has no `_`), `drip_<parent>_<run>` for drip-feed runs as they were keyed before; runs are
 * now keyed `drip:<parent>:<run>`, with a `:` no customer key contains.
 */
export const SERVER_KEY_PREFIXES = ['api_', 'mass_', 'drip_', 'drip:'] as const;
/** Whether `key` is in the server's own namespace (in any letter case). */
export const isServerKey = (key: string): boolean => SERVER_KEY_PREFIXES.some((p) => key.toLowerCase().startsWith(p));

/** How many params an order may carry, and how long each may be. */
export const ORDER_PARAMS_MAX_KEYS = 20;
export const ORDER_PARAM_MAX_LENGTH = 5000;
