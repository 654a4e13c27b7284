import type { TFunction } from '../i18n';
import { ApiError } from './api';

/**
 * The screens that word some refusals their own way: `common:errors.<context>.<CODE>` (and
 * `.generic`) hold those texts; every other code reads `common:errors.<CODE>`.
 */
export type ErrorContext = 'admin' | 'auth' | 'dashboard' | 'payments' | 'reseller' | 'support' | 'tracking';

/** The minutes to wait after RATE_LIMITED, at least 1. */
export const waitMinutes = (err: unknown) =>
  Math.max(1, Math.ceil(Number((err instanceof ApiError && err.details?.retryAfterSeconds) || 60) / 60));

/**
 * The localized text of a failed request, the one way the browser words an error code
 * (src/core/errors.ts): the screen's own wording first, then the shared one, then the screen's
 * or the shared "try again". The code's details (`min`, `max`, `label`…) and `minutes` fill it in;
 * a `reason` that is a refusal code is worded from `common:errors.reasons.<CODE>.<reason>`.
 */
export function errorText(t: TFunction, err: unknown, context?: ErrorContext): string {
  const generic = () => (context && t(`common:errors.${context}.generic`, { defaultValue: '' })) || t('common:errors.generic');
  if (!(err instanceof ApiError)) return generic();
  const options: Record<string, unknown> = { ...err.details, minutes: waitMinutes(err), defaultValue: '' };
  const reason = err.details?.reason;
  if (typeof reason === 'string') options.reason = t(`common:errors.reasons.${err.code}.${reason}`, { ...err.details, defaultValue: reason });
  return (context && t(`common:errors.${context}.${err.code}`, options)) || t(`common:errors.${err.code}`, options) || generic();
}
