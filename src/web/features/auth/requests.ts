import type { z } from 'zod';
import type { AUTH_WRITE_BODIES } from '../../../core/contracts/account';
import { isErrorCode } from '../../../core/errors';
import { api, ApiError, unwrap } from './api';
import { signInFailed, signUpFailed } from './messages';

/**
 * What the sign-in and sign-up forms send, and how a refusal is told. Loaded when a form is first
 * sent or an address first checked, not with the dialog: the API client and the error codes are
 * not a request of the dialog's opening (docs/decisions/0031).
 */

/** The account contract, with zod: loaded when a form is first sent, not with the dialog. */
const accountContract = () => import('../../../core/contracts/account');
type FormPath = '/sign-in/email' | '/sign-up/email';
export type SignInValues = z.input<(typeof AUTH_WRITE_BODIES)['/sign-in/email']>;
export type SignUpValues = z.input<(typeof AUTH_WRITE_BODIES)['/sign-up/email']>;

/**
 * A form's values as the account contract reads them for `path` (`AUTH_WRITE_BODIES`: trimmed,
 * the e-mail in lower case), or the refusal the server would have sent: the contract's messages
 * are error codes (src/core/contracts/account.ts).
 */
async function contractBody<P extends FormPath>(path: P, values: z.input<(typeof AUTH_WRITE_BODIES)[P]>): Promise<z.output<(typeof AUTH_WRITE_BODIES)[P]>> {
  const { AUTH_WRITE_BODIES: bodies } = await accountContract();
  const parsed = bodies[path].safeParse(values);
  if (parsed.success) return parsed.data as z.output<(typeof AUTH_WRITE_BODIES)[P]>;
  const message = parsed.error.issues[0]?.message;
  throw new ApiError(isErrorCode(message) ? message : 'VALIDATION_FAILED', 422);
}

/** Signs in with the e-mail and password: `code` when the account asks for its second factor next. */
export async function signIn(values: SignInValues): Promise<'signed-in' | 'code'> {
  const body = await contractBody('/sign-in/email', values);
  const answer: unknown = await unwrap((o) => api.auth['sign-in'].email.$post({ json: body }, o));
  const { isTwoFactorChallenge } = await accountContract();
  return isTwoFactorChallenge(answer) ? 'code' : 'signed-in';
}

/** The second step: the authenticator's code, or a recovery code. */
export async function verifyCode(recovery: boolean, code: string): Promise<void> {
  if (recovery) await unwrap((o) => api.auth['two-factor']['verify-backup-code'].$post({ json: { code } }, o));
  else await unwrap((o) => api.auth['two-factor']['verify-totp'].$post({ json: { code } }, o));
}

/** A refusal's error code (src/core/errors.ts), or null for anything else. */
export const refusalCode = (err: unknown): string | null => (err instanceof ApiError ? err.code : null);

/** The sign-up form's check of an address as typed: a malformed one is not a failed check (the form shows it as invalid). */
export async function emailAvailability(email: string): Promise<'available' | 'taken' | 'idle' | 'error'> {
  try {
    const { available } = await unwrap((o) => api['auth-extra']['email-available'].$post({ json: { email } }, o));
    return available ? 'available' : 'taken';
  } catch (err) {
    return err instanceof ApiError && err.code === 'EMAIL_INVALID' ? 'idle' : 'error';
  }
}

/**
 * Creates the account: the address checked again first (it may have been taken meanwhile; the
 * contract checked the password), refused as the server would (EMAIL_TAKEN) with nothing sent.
 */
export async function signUp(values: SignUpValues): Promise<{ name: string; email: string }> {
  const body = await contractBody('/sign-up/email', values);
  const { available } = await unwrap((o) => api['auth-extra']['email-available'].$post({ json: { email: body.email } }, o));
  if (!available) throw new ApiError('EMAIL_TAKEN', 409);
  await unwrap((o) => api.auth['sign-up'].email.$post({ json: body }, o));
  return { name: body.name, email: body.email };
}

export { signInFailed, signUpFailed };
