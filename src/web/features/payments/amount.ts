import { z } from 'zod';
import { TOPUP_MAX_MICROS, TOPUP_MIN_MICROS, topUpInputSchema } from '../../../core/contracts/payments';
import { LANGUAGES } from '../../../core/i18n';
import type { TFunction } from '../../i18n';
import { formatMoney } from '../../lib/format';
import { parseUsdToMicros } from '../../../core/money';
import { PAYMENT_METHOD_KINDS } from '../../../core/paymentMethods';

/**
 * A typed top-up amount in USD micro-dollars, read exactly (no floats): "10", "12.5", "12.50"; a
 * decimal comma (az, tr) reads as a point. Null for anything else, including more than 2 decimals.
 */
export function parseTopUpAmount(text: string): number | null {
  const trimmed = text.trim();
  if ((trimmed.match(/,/g) ?? []).length > 1 || (trimmed.includes(',') && trimmed.includes('.'))) return null;
  return parseUsdToMicros(trimmed.replace(',', '.'), 2);
}

export type TopUpAmountIssue = 'required' | 'invalid' | 'min' | 'max';

/** The USD a top-up may credit: the shop's bounds, or a method's (docs/rules.md#payment-methods). */
export interface TopUpBounds {
  minMicros: number;
  maxMicros: number;
}
export const SHOP_BOUNDS: TopUpBounds = { minMicros: TOPUP_MIN_MICROS, maxMicros: TOPUP_MAX_MICROS };

/** Why an amount cannot be paid (within the bounds, step 0.01; docs/rules.md#payments), or null when it can. */
export function topUpAmountIssue(text: string, bounds: TopUpBounds = SHOP_BOUNDS): TopUpAmountIssue | null {
  if (text.trim() === '') return 'required';
  const micros = parseTopUpAmount(text);
  if (micros === null) return 'invalid';
  if (micros < Math.max(TOPUP_MIN_MICROS, bounds.minMicros)) return 'min';
  if (micros > Math.min(TOPUP_MAX_MICROS, bounds.maxMicros)) return 'max';
  return null;
}

/**
 * The top-up form within a method's bounds: the amount as typed, the page's language and the
 * method, checked by `topUpAmountIssue` (the issue is the error's message, worded by the dialog as
 * `topup.<issue>`) and handed on as the contract's top-up input.
 */
export const topUpFormSchema = (bounds: TopUpBounds = SHOP_BOUNDS) =>
  z
    .object({ amount: z.string(), language: z.enum(LANGUAGES), method: z.enum(PAYMENT_METHOD_KINDS) })
    .superRefine(({ amount }, ctx) => {
      const issue = topUpAmountIssue(amount, bounds);
      if (issue) ctx.addIssue({ code: 'custom', path: ['amount'], message: issue });
    })
    .transform(({ amount, language, method }): z.input<typeof topUpInputSchema> => ({ amountMicros: parseTopUpAmount(amount) ?? 0, language, method }))
    .pipe(topUpInputSchema);

export type TopUpFormValues = z.input<ReturnType<typeof topUpFormSchema>>;

/** The localized text of the amount field's error (its message is a `TopUpAmountIssue`), with the bounds in force. */
export const amountIssueText = (t: TFunction, issue: string, locale: string, bounds: TopUpBounds = SHOP_BOUNDS) =>
  t(`payments:topup.${issue}`, {
    min: formatMoney(Math.max(TOPUP_MIN_MICROS, bounds.minMicros), 'USD', locale),
    max: formatMoney(Math.min(TOPUP_MAX_MICROS, bounds.maxMicros), 'USD', locale),
  });
