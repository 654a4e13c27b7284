import type { TFunction } from '../../i18n';
import { toast } from '../../lib/toast';
import { errorText } from '../../lib/errorText';
import { ApiError } from './api';

/** The refusals of sign-in that have their own wording; anything else is unexpected. */
const SIGN_IN_REASONS = new Set(['INVALID_CREDENTIALS', 'RATE_LIMITED', 'MAINTENANCE', 'NETWORK', 'TWO_FACTOR_CODE_INVALID', 'TWO_FACTOR_EXPIRED', 'TWO_FACTOR_LOCKED']);
/** The refusals of sign-up that have their own wording (docs/rules.md#accounts). */
const SIGN_UP_REASONS = new Set(['EMAIL_TAKEN', 'EMAIL_INVALID', 'PASSWORD_WEAK', 'REGISTRATION_CLOSED', 'VALIDATION_FAILED', 'NETWORK', 'MAINTENANCE', 'RATE_LIMITED']);

/** A refused sign-in: 'Giriş xətası' with the reason; anything unexpected as 'Xəta'. */
export function signInFailed(t: TFunction, err: unknown) {
  if (err instanceof ApiError && SIGN_IN_REASONS.has(err.code)) return toast.error(t('login.errorTitle'), { description: errorText(t, err, 'auth') });
  return toast.error(t('errors.unexpectedTitle'), { description: t('login.unexpected') });
}

/** A refused sign-up: 'Qeydiyyat xətası' with the catalogue's message (docs/rules.md#accounts). */
export function signUpFailed(t: TFunction, err: unknown) {
  if (err instanceof ApiError && SIGN_UP_REASONS.has(err.code)) return toast.error(t('signup.errorTitle'), { description: errorText(t, err, 'auth') });
  return toast.error(t('errors.unexpectedTitle'), { description: t('signup.unexpected') });
}
