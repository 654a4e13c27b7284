import { useCallback, useEffect, useMemo, useRef, useState, type SetStateAction } from 'react';
import type { ServiceParam } from '../../../core/catalog';
import type { PlaceOrderInput } from '../../../core/contracts/orderInput';
import type { PublicService } from '../../../core/contracts/catalog';
import { dripInput, issuesByField, orderIssues, type OrderDraft } from './orderForm';

/** What the check reads the draft against: the chosen service and its params (once loaded). */
export interface OrderFormContext {
  service: PublicService | undefined;
  params: readonly ServiceParam[];
}

/** The order the form hands on: the contract's order input, less what the submission adds (key, shown total). */
export type OrderFormOutput = Omit<PlaceOrderInput, 'idempotencyKey' | 'expectedTotalMicros'>;

/** A refusal of one field: the rule's code, and the field it names (`link`, `params.<name>`, `runs`…). */
export interface FieldRefusal {
  type: string;
  message: string;
}
/** The refusals of a draft, as the form shows them: by field, params and drip-feed nested, `root` for the whole order. */
export interface OrderErrors {
  link?: FieldRefusal;
  quantity?: FieldRefusal;
  params?: Record<string, FieldRefusal>;
  drip?: Partial<Record<'runs' | 'interval', FieldRefusal>>;
  root?: FieldRefusal;
}
export type OrderCheck = { values: OrderFormOutput; errors: Record<string, never> } | { values: Record<string, never>; errors: OrderErrors };

/** Stands in for the submission's own key while the contract checks the form's part of the order. */
const CHECK_KEY = 'order-form-check';

export const EMPTY_DRAFT: OrderDraft = { link: '', quantity: '', params: {} };

/**
 * The order form's check: the shared rules (src/core/orderRules.ts, the ones the server runs
 * before charging) field by field, then the contract's order input (`placeOrderInputSchema`,
 * loaded with zod when the form is first sent: docs/decisions/0028-the-order-page-as-an-island.md).
 * Each refusal's `type` is the rule's code and its message the field (`link`, `quantity`,
 * `params.<name>`, `runs`, `interval`), in the order the form shows them.
 */
export async function orderResolver(values: OrderDraft, context: OrderFormContext): Promise<OrderCheck> {
  const service = context.service;
  if (!service) return { values: {}, errors: { root: { type: 'service', message: 'service' } } };
  const errors: OrderErrors = {};
  for (const [field, issue] of issuesByField(orderIssues(service, context.params, values))) {
    const error = { type: issue.code, message: field };
    if (field.startsWith('params.')) (errors.params ??= {})[field.slice('params.'.length)] = error;
    else errors[field as 'link' | 'quantity'] = error;
  }
  const drip = dripInput(service, values);
  if (drip && 'invalid' in drip) errors.drip = { [drip.invalid]: { type: 'VALIDATION_FAILED', message: drip.invalid } };
  if (Object.keys(errors).length > 0 || (drip && 'invalid' in drip)) return { values: {}, errors };

  const order: OrderFormOutput = {
    serviceId: service.id,
    link: values.link.trim(),
    quantity: Number(values.quantity),
    params: Object.fromEntries(Object.entries(values.params).filter(([, v]) => v.trim())),
    ...(drip ? { runs: drip.runs, interval: drip.interval } : {}),
  };
  const { placeOrderInputSchema } = await import('../../../core/contracts/orderInput');
  const parsed = placeOrderInputSchema.safeParse({ ...order, idempotencyKey: CHECK_KEY });
  if (!parsed.success) return { values: {}, errors: { root: { type: 'VALIDATION_FAILED', message: parsed.error.issues[0]?.path.join('.') ?? '' } } };
  return { values: order, errors: {} };
}

/** The first field an error of the resolver names (see `orderResolver`), to bring into view. */
export function firstErrorField(errors: OrderErrors): string | undefined {
  const walk = (node: unknown): string | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const message = (node as { message?: unknown }).message;
    if (typeof message === 'string' && 'type' in node) return message;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'root') continue;
      const found = walk(child);
      if (found) return found;
    }
    return undefined;
  };
  return walk(errors);
}

/**
 * The one order form of the catalogue page and the dashboard: link, quantity, params and
 * drip-feed held as typed, and checked by `orderResolver` when sent. Issues are also read live
 * from the values, for the price and the Buy button; a field's message shows once it was left
 * or the form sent.
 */
export function useOrderForm({ service, params, initial, initialTouched }: { service: PublicService | undefined; params: readonly ServiceParam[]; initial?: OrderDraft; initialTouched?: readonly string[] }) {
  // The check reads the service and params of the last render, or the params a submission just fetched.
  const [context] = useState<OrderFormContext>(() => ({ service, params }));
  useEffect(() => {
    context.service = service;
    context.params = params;
  }, [context, service, params]);
  const [draft, setDraftState] = useState<OrderDraft>(() => initial ?? EMPTY_DRAFT);
  // What a submission checks: the draft as last set, even before React has rendered it.
  const latest = useRef(draft);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set(initialTouched));
  const [submitted, setSubmitted] = useState(false);

  const issues = useMemo(() => (service ? orderIssues(service, params, draft) : []), [service, params, draft]);
  const byField = useMemo(() => issuesByField(issues), [issues]);
  const visibleIssues = useMemo(() => new Map([...byField].filter(([field]) => submitted || touched.has(field))), [byField, submitted, touched]);

  /** OrderDetails' setter: the next draft from a value or an update of the current one. */
  const setDraft = useCallback((next: SetStateAction<OrderDraft>) => {
    latest.current = typeof next === 'function' ? next(latest.current) : next;
    setDraftState(latest.current);
  }, []);
  const touch = useCallback((field: string) => setTouched((s) => (s.has(field) ? s : new Set(s).add(field))), []);
  /** Another service: the link stays, the quantity starts at its minimum, its params afresh. */
  const serviceChosen = useCallback(
    (next: PublicService | undefined) => {
      setSubmitted(false);
      setTouched(new Set());
      setDraft((d) => ({ link: d.link, quantity: next ? String(next.min) : '', params: {} }));
    },
    [setDraft],
  );
  /** After an order was placed: the link and params are cleared, the rest stays for the next one. */
  const placed = useCallback(() => {
    setDraft((d) => ({ ...d, link: '', params: {} }));
    setTouched(new Set());
    setSubmitted(false);
  }, [setDraft]);

  /**
   * Sends the form: the order goes to `onValid` when the check accepts it (with `fields` as the
   * params when they were just fetched), or the first field it refused to `onInvalid`.
   * `setSubmitted(true)` shows every field's message, not only those left.
   */
  async function submit(onValid: (order: OrderFormOutput) => void | Promise<void>, onInvalid: (field: string | undefined) => void, fields = params) {
    context.params = fields;
    const checked = await orderResolver(latest.current, context);
    if (Object.keys(checked.errors).length > 0) onInvalid(firstErrorField(checked.errors));
    else await onValid(checked.values as OrderFormOutput);
  }

  return { draft, setDraft, issues, byField, visibleIssues, touch, submitted, setSubmitted, serviceChosen, placed, submit };
}
