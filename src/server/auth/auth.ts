import { betterAuth } from 'better-auth';
import { COOKIE_PREFIX } from '../../core/contracts/account';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { twoFactor } from 'better-auth/plugins/two-factor';
import { AUTH_WRITE_BODIES, isAuthWritePath } from '../../core/contracts/account';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../core/password';
import { requestLanguage } from '../../core/i18n';
import type { ErrorCode } from '../../core/errors';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import type { Logger } from '../logger';
import { type Mailer, passwordResetMail, verifyEmailMail } from '../mail';
import { getSettings } from '../settings';
import { hashPassword, verifyPassword } from '../passwords';
import { creditSignUpBonus, setUpNewAccount } from './service';

export interface AuthOptions {
  db: Db;
  secret: string;
  publicUrl: string;
  /** Origins allowed to make state-changing requests (the public URL's). */
  origins: string[];
  production: boolean;
  mailer: Mailer;
  logger: Logger;
}

/** Session lifetime and refresh: a session lives 30 days and is extended once a day while used. */
export const SESSION_EXPIRES_SECONDS = 30 * 24 * 60 * 60;
export const SESSION_UPDATE_AGE_SECONDS = 24 * 60 * 60;
/** A reset link works for one hour, once. */
export const RESET_TOKEN_EXPIRES_SECONDS = 60 * 60;
/** An e-mail confirmation link works for three days. */
export const VERIFY_TOKEN_EXPIRES_SECONDS = 3 * 24 * 60 * 60;
/** Where a followed confirmation link lands: the home page, which says how it went. */
export const VERIFIED_LANDING = '/?verified=1';
export { COOKIE_PREFIX };
/** How long the code step of a sign-in waits after the password: ten minutes. */
export const TWO_FACTOR_CHALLENGE_SECONDS = 10 * 60;

/** An error that the account routes turn into `{ error: { code } }` with the code's status. */
const refuse = (status: 'BAD_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'UNPROCESSABLE_ENTITY', code: ErrorCode, message: string) =>
  new APIError(status, { code, message });

/** Requests whose reset mail the transport refused. */
export const mailNotSent = new WeakSet<Request>();

/**
 * better-auth on our own tables: e-mail and password, database sessions in an httpOnly,
 * SameSite=Lax cookie (Secure in production), password reset by mail. The rules
 * on passwords and names are enforced here too, whatever the browser did.
 */
export function createAuth(opts: AuthOptions) {
  return betterAuth({
    appName: 'Artım',
    secret: opts.secret,
    baseURL: opts.publicUrl,
    basePath: '/api/auth',
    trustedOrigins: opts.origins,
    database: drizzleAdapter(opts.db, { provider: 'pg', usePlural: true, schema }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      // better-auth's scrypt, cheaper only in the tests (../passwords.ts).
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: RESET_TOKEN_EXPIRES_SECONDS,
      // A new password ends every session, wherever it was opened.
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, token }, request) {
        const settings = await getSettings(opts.db);
        const link = `${opts.publicUrl.replace(/\/$/, '')}/password-recovery?token=${encodeURIComponent(token)}`;
        const lang = requestLanguage(request?.headers.get('cookie'), request?.headers.get('accept-language'));
        try {
          await opts.mailer.send(passwordResetMail({ to: user.email, name: user.name, link, lang, siteName: settings.site_name }));
        } catch (err) {
          // better-auth swallows errors of this callback; the route reads the mark and answers MAIL_NOT_SENT.
          opts.logger.error({ err }, 'password reset mail not sent');
          if (request) mailNotSent.add(request);
        }
      },
    },
    // The address is confirmed by a mailed link; signing in does not wait for it, the sign-up
    // bonus does.
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_TOKEN_EXPIRES_SECONDS,
      async sendVerificationEmail({ user, token }, request) {
        const settings = await getSettings(opts.db);
        const link = `${opts.publicUrl.replace(/\/$/, '')}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(VERIFIED_LANDING)}`;
        const lang = requestLanguage(request?.headers.get('cookie'), request?.headers.get('accept-language'));
        try {
          await opts.mailer.send(verifyEmailMail({ to: user.email, name: user.name, link, lang, siteName: settings.site_name }));
        } catch (err) {
          // The account exists and works; only the bonus waits for the confirmation.
          opts.logger.error({ err }, 'e-mail confirmation mail not sent');
        }
      },
      async afterEmailVerification(user) {
        await creditSignUpBonus(opts.db, user);
      },
    },
    session: {
      expiresIn: SESSION_EXPIRES_SECONDS,
      updateAge: SESSION_UPDATE_AGE_SECONDS,
      // Every request reads the session row, so a signed-out session is refused at once.
      cookieCache: { enabled: false },
    },
    // The second factor (docs/rules.md#second-factor): codes from an authenticator app (TOTP,
    // 6 digits, 30 s) and ten single-use recovery codes, both sealed with the auth secret in
    // `two_factors`. After the password, sign-in answers a challenge instead of a session; the
    // challenge allows 5 codes, and 10 wrong codes in a row lock the account's codes for 15
    // minutes. A device is never trusted to skip the code.
    plugins: [
      twoFactor({
        twoFactorTable: 'twoFactor',
        twoFactorCookieMaxAge: TWO_FACTOR_CHALLENGE_SECONDS,
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: 'encrypted' },
        accountLockout: { enabled: true, maxFailedAttempts: 10, durationSeconds: 15 * 60 },
      }),
    ],
    rateLimit: { enabled: false }, // our own, database-backed limiter guards these routes
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: opts.production,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: opts.production, path: '/' },
      disableOriginCheck: false,
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await setUpNewAccount(opts.db, user.id);
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (!isAuthWritePath(ctx.path)) return undefined;
        // Every account write is checked against its strict body: unknown fields are refused,
        // names and e-mails are stored trimmed (and lower-cased), new passwords meet the rules.
        const parsed = AUTH_WRITE_BODIES[ctx.path].safeParse(ctx.body ?? {});
        if (!parsed.success) {
          const given = parsed.error.issues[0]?.message;
          const code: ErrorCode =
            given === 'EMAIL_INVALID' || given === 'PASSWORD_WEAK' || given === 'INVALID_CREDENTIALS' || given === 'TWO_FACTOR_CODE_INVALID' ? given : 'VALIDATION_FAILED';
          throw refuse(code === 'INVALID_CREDENTIALS' ? 'UNAUTHORIZED' : 'UNPROCESSABLE_ENTITY', code, 'The details are not valid.');
        }
        if (ctx.path === '/sign-up/email') {
          const settings = await getSettings(opts.db);
          if (!settings.allow_registration) throw refuse('FORBIDDEN', 'REGISTRATION_CLOSED', 'Registration is closed.');
        }
        if (ctx.path === '/two-factor/enable') {
          // The authenticator app lists the account under the shop's own name.
          const settings = await getSettings(opts.db);
          return { context: { body: { ...parsed.data, method: 'totp', issuer: settings.site_name || 'Artım' } } };
        }
        return { context: { body: parsed.data } };
      }),
    },
    logger: {
      log: (level, message) => {
        if (level === 'error') opts.logger.error({ source: 'better-auth' }, message);
        else if (level === 'warn') opts.logger.warn({ source: 'better-auth' }, message);
        else opts.logger.debug({ source: 'better-auth' }, message);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * Whether a password-reset link's token would still set a password: known, not used (a reset
 * consumes it), not expired, its account still there — what `/reset-password` checks before it
 * sets one.
 */
export async function isResetTokenValid(auth: Auth, token: string): Promise<boolean> {
  const { internalAdapter } = await auth.$context;
  const verification = await internalAdapter.findVerificationValue(`reset-password:${token}`);
  if (!verification || verification.expiresAt < new Date()) return false;
  return (await internalAdapter.findUserById(verification.value)) !== null;
}
