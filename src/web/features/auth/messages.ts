import type { TFunction } from '../../i18n';
import { toast } from 'sonner';
import { ApiError } from './api';

/** The minutes to wait after RATE_LIMITED, at least 1. */
export const waitMinutes = (err: unknown) =>
  Math.max(1, Math.ceil(Number((err instanceof ApiError && err.details?.retryAfterSeconds) || 60) / 60));

/** A refused sign-in: 'Giriş xətası' with the reason; anything unexpected as 'Xəta'. */
export function signInFailed(t: TFunction, err: unknown) {
  if (err instanceof ApiError && err.code === 'INVALID_CREDENTIALS') return toast.error(t('login.errorTitle'), { description: t('errors.INVALID_CREDENTIALS') });
  if (err instanceof ApiError && err.code === 'RATE_LIMITED') return toast.error(t('login.errorTitle'), { description: t('errors.RATE_LIMITED', { minutes: waitMinutes(err) }) });
  if (err instanceof ApiError && err.code === 'MAINTENANCE') return toast.error(t('login.errorTitle'), { description: t('errors.MAINTENANCE') });
  if (err instanceof ApiError && err.code === 'NETWORK') return toast.error(t('login.errorTitle'), { description: t('errors.NETWORK') });
  return toast.error(t('errors.unexpectedTitle'), { description: t('login.unexpected') });
}

/** A refused sign-up: 'Qeydiyyat xətası' with the catalogue's message (docs/rules.md#accounts). */
export function signUpFailed(t: TFunction, err: unknown) {
  const code = err instanceof ApiError ? err.code : null;
  const known: Record<string, string> = {
    EMAIL_TAKEN: t('errors.EMAIL_TAKEN'),
    EMAIL_INVALID: t('errors.EMAIL_INVALID'),
    PASSWORD_WEAK: t('errors.PASSWORD_WEAK'),
    REGISTRATION_CLOSED: t('errors.REGISTRATION_CLOSED'),
    VALIDATION_FAILED: t('errors.VALIDATION_FAILED'),
    NETWORK: t('errors.NETWORK'),
    MAINTENANCE: t('errors.MAINTENANCE'),
  };
  if (code === 'RATE_LIMITED') return toast.error(t('signup.errorTitle'), { description: t('errors.RATE_LIMITED', { minutes: waitMinutes(err) }) });
  if (code && known[code]) return toast.error(t('signup.errorTitle'), { description: known[code] });
  return toast.error(t('errors.unexpectedTitle'), { description: t('signup.unexpected') });
}
