import type { TFunction } from '../../i18n';
import { toast } from '../../lib/toast';
import type * as Requests from './requests';

/**
 * ./requests.ts (the forms' requests, the API client, the error codes) loaded when a form first
 * needs it, not with the sign-in dialog (docs/decisions/0031). A failed load is tried again next time.
 */
let loading: Promise<typeof Requests> | null = null;
export function requests(): Promise<typeof Requests> {
  loading ??= import('./requests').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/**
 * Tells a refused sign-in (or its second step) or sign-up as ./messages.ts words it; if even the
 * requests could not load (the network dropped), as unexpected. Answers the refusal's error code.
 */
export async function refused(t: TFunction, err: unknown, form: 'signIn' | 'signUp'): Promise<string | null> {
  try {
    const { signInFailed, signUpFailed, refusalCode } = await requests();
    (form === 'signIn' ? signInFailed : signUpFailed)(t, err);
    return refusalCode(err);
  } catch {
    toast.error(t('errors.unexpectedTitle'), { description: t(form === 'signIn' ? 'login.unexpected' : 'signup.unexpected') });
    return null;
  }
}
