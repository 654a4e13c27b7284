import { useCallback, useEffect, useMemo, useState, type SetStateAction } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import type { ServiceParam } from '../../../core/catalog';
import type { PublicService } from '../../../core/contracts/catalog';
import { placeOrderInputSchema, type PlaceOrderInput } from '../../../core/orderRules';
import { dripInput, issuesByField, orderIssues, type OrderDraft } from './orderForm';

/** What the resolver checks the draft against: the chosen service and its params (once loaded). */
export interface OrderFormContext {
  service: PublicService | undefined;
  params: readonly ServiceParam[];
}

/** The order the form hands on: the contract's order input, less what the submission adds (key, shown total). */
export type OrderFormOutput = Omit<PlaceOrderInput, 'idempotencyKey' | 'expectedTotalMicros'>;

/** Stands in for the submission's own key while the contract checks the form's part of the order. */
const CHECK_KEY = 'order-form-check';

export const EMPTY_DRAFT: OrderDraft = { link: '', quantity: '', params: {} };

/**
 * The order form's resolver: the shared rules (src/core/orderRules.ts, the ones the server runs
 * before charging) field by field, then the contract's order input (`placeOrderInputSchema`).
 * Each error's `type` is the rule's code and its message the field (`link`, `quantity`,
 * `params.<name>`, `runs`, `interval`), in the order the form shows them.
 */
export const orderResolver: Resolver<OrderDraft, OrderFormContext, OrderFormOutput> = (values, context) => {
  const service = context?.service;
  if (!service) return { values: {}, errors: { root: { type: 'service', message: 'service' } } };
  const errors: Record<string, unknown> = {};
  const paramErrors: Record<string, unknown> = {};
  for (const [field, issue] of issuesByField(orderIssues(service, context.params, values))) {
    const error = { type: issue.code, message: field };
    if (field.startsWith('params.')) {
      paramErrors[field.slice('params.'.length)] = error;
      errors.params = paramErrors;
    } else errors[field] = error;
  }
  const drip = dripInput(service, values);
  if (drip && 'invalid' in drip) errors.drip = { [drip.invalid]: { type: 'VALIDATION_FAILED', message: drip.invalid } };
  if (Object.keys(errors).length > 0 || (drip && 'invalid' in drip)) return { values: {}, errors: errors as FieldErrors<OrderDraft> };

  const order: OrderFormOutput = {
    serviceId: service.id,
    link: values.link.trim(),
    quantity: Number(values.quantity),
    params: Object.fromEntries(Object.entries(values.params).filter(([, v]) => v.trim())),
    ...(drip ? { runs: drip.runs, interval: drip.interval } : {}),
  };
  const parsed = placeOrderInputSchema.safeParse({ ...order, idempotencyKey: CHECK_KEY });
  if (!parsed.success) return { values: {}, errors: { root: { type: 'VALIDATION_FAILED', message: parsed.error.issues[0]?.path.join('.') ?? '' } } };
  return { values: order, errors: {} as Record<string, never> };
};

/** The first field an error of the resolver names (see `orderResolver`), to bring into view. */
export function firstErrorField(errors: FieldErrors<OrderDraft>): string | undefined {
  const walk = (node: unknown): string | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const message = (node as { message?: unknown }).message;
    if (typeof message === 'string' && 'type' in node) return message;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'ref' || key === 'root') continue;
      const found = walk(child);
      if (found) return found;
    }
    return undefined;
  };
  return walk(errors);
}

/**
 * The one order form of the catalogue page and the dashboard: link, quantity, params and
 * drip-feed held by react-hook-form and checked by `orderResolver`. Issues are also read live
 * from the values, for the price and the Buy button; a field's message shows once it was left
 * or the form sent.
 */
export function useOrderForm({ service, params, initial, initialTouched }: { service: PublicService | undefined; params: readonly ServiceParam[]; initial?: OrderDraft; initialTouched?: readonly string[] }) {
  // The resolver reads the service and params of the last render, or the params a submission just fetched.
  const [context] = useState<OrderFormContext>(() => ({ service, params }));
  useEffect(() => {
    context.service = service;
    context.params = params;
  }, [context, service, params]);
  const form = useForm<OrderDraft, OrderFormContext, OrderFormOutput>({
    defaultValues: initial ?? EMPTY_DRAFT,
    resolver: orderResolver,
    context,
    shouldFocusError: false,
  });
  const draft = form.watch() as OrderDraft;
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set(initialTouched));
  const [submitted, setSubmitted] = useState(false);

  const issues = useMemo(() => (service ? orderIssues(service, params, draft) : []), [service, params, draft]);
  const byField = useMemo(() => issuesByField(issues), [issues]);
  const visibleIssues = useMemo(() => new Map([...byField].filter(([field]) => submitted || touched.has(field))), [byField, submitted, touched]);

  const { getValues, setValue } = form;
  /** OrderDetails' setter: the next draft from a value or an update of the current one. */
  const setDraft = useCallback(
    (next: SetStateAction<OrderDraft>) => {
      const value = typeof next === 'function' ? next(getValues()) : next;
      setValue('link', value.link);
      setValue('quantity', value.quantity);
      setValue('params', value.params);
      setValue('drip', value.drip);
    },
    [getValues, setValue],
  );
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
   * Sends the form: the order goes to `onValid` when the resolver accepts it (with `fields` as the
   * params when they were just fetched), or the first field it refused to `onInvalid`.
   * `setSubmitted(true)` shows every field's message, not only those left.
   */
  async function submit(onValid: (order: OrderFormOutput) => void | Promise<void>, onInvalid: (field: string | undefined) => void, fields = params) {
    context.params = fields;
    await form.handleSubmit(onValid, (errors) => onInvalid(firstErrorField(errors)))();
  }

  return { form, draft, setDraft, issues, byField, visibleIssues, touch, submitted, setSubmitted, serviceChosen, placed, submit };
}
