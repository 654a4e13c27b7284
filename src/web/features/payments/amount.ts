import { z } from 'zod';
import { TOPUP_MAX_MICROS, TOPUP_MIN_MICROS, topUpInputSchema } from '../../../core/contracts/payments';
import { LANGUAGES } from '../../../core/i18n';
import type { TFunction } from '../../i18n';
import { formatMoney } from '../../lib/format';
import { parseUsdToMicros } from '../../../core/money';

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

/** Why an amount cannot be paid (at least 1 USD, step 0.01; docs/rules.md#payments), or null when it can. */
export function topUpAmountIssue(text: string): TopUpAmountIssue | null {
  if (text.trim() === '') return 'required';
  const micros = parseTopUpAmount(text);
  if (micros === null) return 'invalid';
  if (micros < TOPUP_MIN_MICROS) return 'min';
  if (micros > TOPUP_MAX_MICROS) return 'max';
  return null;
}

/**
 * The top-up form: the amount as typed and the page's language, checked by `topUpAmountIssue`
 * (the issue is the error's message, worded by the dialog as `topup.<issue>`) and handed on as
 * the contract's top-up input.
 */
export const topUpFormSchema = z
  .object({ amount: z.string(), language: z.enum(LANGUAGES) })
  .superRefine(({ amount }, ctx) => {
    const issue = topUpAmountIssue(amount);
    if (issue) ctx.addIssue({ code: 'custom', path: ['amount'], message: issue });
  })
  .transform(({ amount, language }): z.input<typeof topUpInputSchema> => ({ amountMicros: parseTopUpAmount(amount) ?? 0, language }))
  .pipe(topUpInputSchema);

export type TopUpFormValues = z.input<typeof topUpFormSchema>;

/** The localized text of the amount field's error (its message is a `TopUpAmountIssue`). */
export const amountIssueText = (t: TFunction, issue: string, locale: string) =>
  t(`payments:topup.${issue}`, { min: formatMoney(TOPUP_MIN_MICROS, 'USD', locale), max: formatMoney(TOPUP_MAX_MICROS, 'USD', locale) });
