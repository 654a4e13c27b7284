import { AppError } from './errors';

/**
 * Why a cancel is refused (docs/rules.md#cancel): stable codes in `details.reason`, worded by the
 * site from `common:errors.reasons.CANCEL_NOT_ALLOWED`; the rule that picks one is `cancelRefusal`
 * in src/server/orders/cancels.ts.
 */
export const CANCEL_REFUSALS = ['drip_sent', 'not_offered', 'not_active', 'requested', 'provider'] as const;
export type CancelRefusal = (typeof CANCEL_REFUSALS)[number];

/** The reseller API's wording of each refusal (`provider`: the provider's own words go instead). */
export const CANCEL_REFUSAL_TEXT: Record<CancelRefusal, string> = {
  drip_sent: 'All runs of this drip-feed were already sent',
  not_offered: 'Cancel is not available for this service',
  not_active: 'Cancel is available for active orders only',
  requested: 'A cancel of this order was already requested',
  provider: 'Cancel was not accepted',
};

/** A refusal: the API's wording as the message; the code, and the provider's words, for the site. */
export const cancelNotAllowed = (reason: CancelRefusal, providerWords?: string) =>
  new AppError('CANCEL_NOT_ALLOWED', providerWords ?? CANCEL_REFUSAL_TEXT[reason], { reason, ...(providerWords ? { message: providerWords } : {}) });
