import { TOPUP_MAX_CENTS, TOPUP_MIN_CENTS } from '../../../core/contracts/payments';
import { parseUsdToCents } from '../../../core/money';

/**
 * A typed top-up amount in cents, read exactly (no floats): "10", "12.5", "12.50"; a decimal
 * comma (az, tr) reads as a point. Null for anything else, including more than 2 decimals.
 */
export function parseTopUpAmount(text: string): number | null {
  const trimmed = text.trim();
  if ((trimmed.match(/,/g) ?? []).length > 1 || (trimmed.includes(',') && trimmed.includes('.'))) return null;
  return parseUsdToCents(trimmed.replace(',', '.'));
}

export type TopUpAmountIssue = 'required' | 'invalid' | 'min' | 'max';

/** Why an amount cannot be paid (at least 1 USD, step 0.01; docs/rules.md#payments), or null when it can. */
export function topUpAmountIssue(text: string): TopUpAmountIssue | null {
  if (text.trim() === '') return 'required';
  const cents = parseTopUpAmount(text);
  if (cents === null) return 'invalid';
  if (cents < TOPUP_MIN_CENTS) return 'min';
  if (cents > TOPUP_MAX_CENTS) return 'max';
  return null;
}
