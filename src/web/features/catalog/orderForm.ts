import type { TFunction } from '../../i18n';
import type { ServiceParam } from '../../../core/catalog';
import type { LocalizedParam, PublicService } from '../../../core/contracts/catalog';
import type { MyDiscount } from '../../../core/contracts/discounts';
import { linkExample as coreLinkExample } from '../../../core/links';
import { DRIP_MAX_INTERVAL, DRIP_MAX_RUNS, DRIP_MIN_INTERVAL, DRIP_MIN_RUNS, isDripFeedAllowed, validateOrderInput, type OrderInputIssue } from '../../../core/orderRules';
import { platformDisplayName } from '../../../core/platforms';
import { priceOrder, pricePerUnitDisplay, type Fees } from '../../../core/pricing';
import { formatNumber } from '../../lib/format';

/**
 * The order form's rules in the browser: the shared rules of src/core (the same functions the
 * server runs before charging) applied to a list entry and, once loaded, its params.
 */

export interface OrderDraft {
  link: string;
  /** As typed; see `parseQuantity`. */
  quantity: string;
  params: Record<string, string>;
  /** Drip-feed, when ticked (services that allow it): runs and the interval in minutes, as typed. */
  drip?: { runs: string; interval: string };
}

export const DRIP_BOUNDS = { runs: { min: DRIP_MIN_RUNS, max: DRIP_MAX_RUNS }, interval: { min: DRIP_MIN_INTERVAL, max: DRIP_MAX_INTERVAL } } as const;

/**
 * The drip-feed part of the order: null for an ordinary order (not ticked, or a service without
 * drip-feed), the numbers when valid, or the field that is not.
 */
export function dripInput(service: PublicService | undefined, draft: OrderDraft): { runs: number; interval: number } | null | { invalid: 'runs' | 'interval' } {
  if (!service?.dripfeed || !draft.drip) return null;
  const runs = parseQuantity(draft.drip.runs);
  const interval = parseQuantity(draft.drip.interval);
  if (!isDripFeedAllowed(runs, DRIP_MIN_INTERVAL)) return { invalid: 'runs' };
  if (!isDripFeedAllowed(DRIP_MIN_RUNS, interval)) return { invalid: 'interval' };
  return { runs, interval };
}

/** A whole positive number as typed ("1000", " 50 "); anything else is NaN and fails the bounds. */
export function parseQuantity(text: string): number {
  return /^\s*\d{1,15}\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** The shape the shared rules read, from the list entry (bounds, tiers) and the detail's params. */
export function ruleShape(service: PublicService, params: readonly ServiceParam[]) {
  return {
    platform: service.platform,
    amountMinimum: service.min,
    amountIncrement: service.step,
    tiers: service.tiers,
    params: [...params],
  };
}

export function orderIssues(service: PublicService, params: readonly ServiceParam[], draft: OrderDraft): OrderInputIssue[] {
  return validateOrderInput(ruleShape(service, params), {
    link: draft.link,
    quantity: parseQuantity(draft.quantity),
    params: draft.params,
  });
}

/** Issues by field ("link", "quantity", "params.<name>"), the first of each. */
export function issuesByField(issues: readonly OrderInputIssue[]): Map<string, OrderInputIssue> {
  const out = new Map<string, OrderInputIssue>();
  for (const issue of issues) if (!out.has(issue.field)) out.set(issue.field, issue);
  return out;
}

/** The example link of the link field's placeholder: the platform's own (src/core/links.ts), or a generic one. */
export const linkExample = (platform: string) => coreLinkExample(platform) ?? 'https://…';

/**
 * The localized message of an issue (namespace `catalog`). A param's own message (a known kind's,
 * src/core/paramTexts.ts) wins over the generic "{label} is required"; the label is the
 * localized one of `params` when the issue came with the provider's. Bounds are written in the
 * page's `locale` (10.000 in az and tr, 10,000 in en), as the field's hint writes them.
 */
export function issueMessage(t: TFunction, issue: OrderInputIssue, platform: string, params: readonly LocalizedParam[] = [], locale?: string): string {
  switch (issue.code) {
    case 'LINK_INVALID': {
      if (issue.details.reason === 'required') return t('catalog:errors.linkRequired');
      // The example belongs to the rule that refused the link (src/core/links.ts), which accepts it.
      const example = coreLinkExample(platform);
      return example ? t('catalog:errors.linkFormat', { platform: platformDisplayName(platform), example }) : t('catalog:errors.linkFormatAny');
    }
    case 'QUANTITY_OUT_OF_RANGE': {
      const number = (n: number) => (locale ? formatNumber(n, locale) : String(n));
      const [min, max, step] = [issue.details.min, issue.details.max, issue.details.step];
      return step > 1
        ? t('catalog:errors.quantityStep', { min: number(min), max: number(max), step: number(step) })
        : t('catalog:errors.quantity', { min: number(min), max: number(max) });
    }
    case 'PARAM_REQUIRED': {
      const param = params.find((p) => p.fieldName === issue.details.field);
      return param?.requiredMessage ?? t('catalog:errors.paramRequired', { label: param?.fieldLabel || issue.details.label });
    }
    case 'VALIDATION_FAILED': {
      const param = params.find((p) => p.fieldName === issue.details.field);
      return param?.invalidMessage ?? t('catalog:errors.paramOption', { label: param?.fieldLabel || issue.details.label });
    }
  }
}

/**
 * A param refusal of the server (PARAM_REQUIRED, or VALIDATION_FAILED naming a param) as the
 * form's issue, so it is worded like the form's own; null for any other refusal.
 */
export function serverParamIssue(code: string, details: Readonly<Record<string, unknown>> | undefined): OrderInputIssue | null {
  const field = details?.field;
  if (typeof field !== 'string' || !field) return null;
  const label = typeof details?.label === 'string' ? details.label : field;
  if (code === 'PARAM_REQUIRED') return { code, field: `params.${field}`, details: { field, label } };
  if (code === 'VALIDATION_FAILED' && details?.reason === 'option') {
    return { code, field: `params.${field}`, details: { field, label, reason: 'option' } };
  }
  return null;
}

/**
 * What the display price is computed from. The group stands in for the type so that a comment
 * service is priced per 10 whatever language its name is shown in (the server decided the group
 * from the provider's own names).
 */
const displayShape = (s: PublicService) => ({ tiers: s.tiers, amountMinimum: s.min, amountIncrement: s.step, type: s.group === 'other' ? s.type : s.group, name: '' });

/**
 * The fees a signed-in customer's prices are computed with: the list's fees and their discount
 * (docs/rules.md#discounts), which `GET /api/me` tells them alone; without one, the list's.
 */
export function customerFees(fees: Fees, discount: MyDiscount | undefined): Fees {
  return discount ? { ...fees, discountPercent: discount.percent } : fees;
}

/** USD for 1000 units (10 for comment services), service fee included (and the customer's discount, when `fees` carry one). */
export function unitPrice(service: PublicService, fees: Fees) {
  return pricePerUnitDisplay(displayShape(service), fees);
}

/** The order's total in USD micro-dollars, or null when the quantity is not a number yet. */
export function orderTotal(service: PublicService, quantity: number, fees: Fees): number | null {
  if (!Number.isSafeInteger(quantity) || quantity <= 0) return null;
  try {
    return priceOrder(service.tiers, quantity, fees).micros;
  } catch {
    return null;
  }
}
