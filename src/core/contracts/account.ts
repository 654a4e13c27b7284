import { z } from 'zod';
import { myDiscountSchema } from './discounts';
import { EMAIL_MAX_LENGTH, FULL_NAME_MAX_LENGTH, FULL_NAME_MIN_LENGTH, isAcceptablePassword, isVisibleName, PASSWORD_MAX_LENGTH } from '../password';
import { ROLES } from '../permissions';
import { recoveryCode, totpCode } from '../secondFactor';

// Issue messages are error codes (see errors.ts) that the browser translates.

/** An e-mail address as stored: trimmed and lower-cased. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, 'EMAIL_INVALID')
  .pipe(z.email('EMAIL_INVALID'));

/** A person's full name as stored: trimmed, 3 to 100 characters, only visible characters. */
export const fullNameSchema = z
  .string()
  .trim()
  .min(FULL_NAME_MIN_LENGTH, 'VALIDATION_FAILED')
  .max(FULL_NAME_MAX_LENGTH, 'VALIDATION_FAILED')
  .refine(isVisibleName, 'VALIDATION_FAILED');

export const signUpInputSchema = z.object({
  fullName: fullNameSchema,
  email: emailSchema,
  password: z
    .string()
    .max(PASSWORD_MAX_LENGTH, 'PASSWORD_WEAK')
    .refine(isAcceptablePassword, 'PASSWORD_WEAK'),
});
export type SignUpInput = z.infer<typeof signUpInputSchema>;

/** A typed second-factor code as its rule reads it (../secondFactor.ts): the code, or TWO_FACTOR_CODE_INVALID. */
const secondFactorCode = (read: (typed: string) => string | null) =>
  z
    .string('TWO_FACTOR_CODE_INVALID')
    .refine((typed) => read(typed) !== null, 'TWO_FACTOR_CODE_INVALID')
    .transform((typed) => read(typed)!);
export const totpCodeSchema = secondFactorCode(totpCode);
export const recoveryCodeSchema = secondFactorCode(recoveryCode);

/** The roles a person can hold (../permissions.ts). */
export const roleSchema = z.enum(ROLES);

/** The signed-in person as the browser sees them: `GET /api/me` answers `{ user: Me | null }`. */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  roles: z.array(roleSchema),
  balanceMicros: z.number().int(),
  /** Whether the account signs in with a second factor (docs/rules.md#second-factor). */
  twoFactorEnabled: z.boolean(),
  /** Whether the admin area refuses this person until they have one (production, a team role). */
  twoFactorRequired: z.boolean(),
  /** The discount the customer's prices take (docs/rules.md#discounts); null: list prices. */
  discount: myDiscountSchema,
});
export type Me = z.infer<typeof meSchema>;

/** The session cookie's prefix; in production the name also carries the `__Secure-` prefix. */
export const COOKIE_PREFIX = 'artim';
const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${COOKIE_PREFIX}\\.session_token=[^;]`);
/** Whether a Cookie header carries a session (valid or not): only then can a page be personal. */
export const hasSessionCookie = (cookieHeader: string | null | undefined) => SESSION_COOKIE.test(cookieHeader ?? '');

/**
 * The bodies of the account writes under `/api/auth/*`, exactly as the browser sends them.
 * Strict: a field not listed here refuses the request with VALIDATION_FAILED, so nothing the
 * forms do not send (a profile image, a role, a callback address …) can reach the account.
 */
const strict = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape, { error: 'VALIDATION_FAILED' });
/** A password as typed, checked against the stored hash (not against the strength rules). */
const typedPassword = z.string('VALIDATION_FAILED').min(1, 'VALIDATION_FAILED').max(PASSWORD_MAX_LENGTH, 'INVALID_CREDENTIALS');
/** A new password: the sign-up strength rules. */
const newPassword = signUpInputSchema.shape.password;
/** The token of a password-reset link. */
const resetToken = z.string('VALIDATION_FAILED').min(1, 'VALIDATION_FAILED').max(512, 'VALIDATION_FAILED');

export const AUTH_WRITE_BODIES = {
  '/sign-up/email': strict({ name: fullNameSchema, email: emailSchema, password: newPassword }),
  '/sign-in/email': strict({ email: emailSchema, password: typedPassword }),
  '/update-user': strict({ name: fullNameSchema }),
  '/change-password': strict({ currentPassword: typedPassword, newPassword, revokeOtherSessions: z.boolean('VALIDATION_FAILED').optional() }),
  '/request-password-reset': strict({ email: emailSchema }),
  '/reset-password': strict({ token: resetToken, newPassword }),
  // The second factor: turning it on, off and new recovery codes ask for the password again; a
  // code is checked after the password at sign-in, and once to finish turning it on.
  '/two-factor/enable': strict({ password: typedPassword }),
  '/two-factor/disable': strict({ password: typedPassword }),
  '/two-factor/generate-backup-codes': strict({ password: typedPassword }),
  '/two-factor/verify-totp': strict({ code: totpCodeSchema }),
  '/two-factor/verify-backup-code': strict({ code: recoveryCodeSchema }),
} as const;
export type AuthWritePath = keyof typeof AUTH_WRITE_BODIES;

/** Whether a password-reset link still works, asked when its page opens (`/api/auth-extra/reset-link`). */
export const resetLinkSchema = strict({ token: resetToken });
export const isAuthWritePath = (path: string): path is AuthWritePath => Object.hasOwn(AUTH_WRITE_BODIES, path);

/**
 * What `/sign-in/email` answers when the password was right and the account has a second
 * factor: no session yet, a short-lived challenge cookie, and the code step next.
 */
export const twoFactorChallengeSchema = z.object({ twoFactorRedirect: z.literal(true), twoFactorMethods: z.array(z.string()) });
export const isTwoFactorChallenge = (body: unknown): body is z.infer<typeof twoFactorChallengeSchema> => twoFactorChallengeSchema.safeParse(body).success;

/** Turning the second factor on: the authenticator's address and the recovery codes, shown once. */
export const twoFactorSetupSchema = z.object({ totpURI: z.string(), backupCodes: z.array(z.string()) });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** One recent sign-in as the account page and the team's user page show it. */
export const signInEntrySchema = z.object({
  at: z.string(),
  ipAddress: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  method: z.enum(['password', 'totp', 'recovery_code']),
});
export type SignInEntry = z.infer<typeof signInEntrySchema>;
/** How many sign-ins are kept per account (the older ones are deleted as new ones come). */
export const SIGN_INS_KEPT = 20;
