import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { AUTH_WRITE_BODIES, resetLinkSchema, type Me } from '../../core/contracts/account';
import { AppError, ERROR_CODES, isErrorCode, type ErrorCode } from '../../core/errors';
import { emailSchema } from '../../core/contracts/account';
import { namedLanguage } from '../../core/i18n';
import { sessions } from '../db/schema';
import { declaredBody, readableRequest } from '../http/body';
import { errorBody } from '../http/errors';
import { isResetTokenValid, mailNotSent, type Auth } from './auth';
import { clientIp } from '../http/clientIp';
import { optionalUser, requireUser, type AuthUser } from './guard';
import { recentSignIns, recordSignIn } from './signIns';
import { audit } from '../admin';
import { can } from '../../core/permissions';
import { secondFactorRequired } from '../../core/secondFactor';
import type { SignInMethod } from '../db/schema';
import { RATE_RULES, type RateLimiter } from '../http/rateLimit';
import { isEmailAvailable, rolesOf } from './service';
import { balanceAndDiscount } from '../discounts';
import type { Db } from '../db/client';

/** better-auth's error codes, as our stable codes (src/core/errors.ts). */
const AUTH_CODES: Record<string, ErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: 'INVALID_CREDENTIALS',
  INVALID_PASSWORD: 'INVALID_CREDENTIALS',
  CREDENTIAL_ACCOUNT_NOT_FOUND: 'INVALID_CREDENTIALS',
  USER_ALREADY_EXISTS: 'EMAIL_TAKEN',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'EMAIL_TAKEN',
  INVALID_EMAIL: 'EMAIL_INVALID',
  PASSWORD_TOO_SHORT: 'PASSWORD_WEAK',
  PASSWORD_TOO_LONG: 'PASSWORD_WEAK',
  INVALID_TOKEN: 'RESET_LINK_INVALID',
  TOKEN_EXPIRED: 'RESET_LINK_INVALID',
  USER_NOT_FOUND: 'RESET_LINK_INVALID',
  INVALID_ORIGIN: 'ORIGIN_REFUSED',
  MISSING_OR_NULL_ORIGIN: 'ORIGIN_REFUSED',
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: 'ORIGIN_REFUSED',
  VALIDATION_ERROR: 'VALIDATION_FAILED',
  BODY_MUST_BE_AN_OBJECT: 'VALIDATION_FAILED',
  FIELD_NOT_ALLOWED: 'VALIDATION_FAILED',
  MISSING_FIELD: 'VALIDATION_FAILED',
  // The second factor (better-auth's two-factor plugin).
  INVALID_CODE: 'TWO_FACTOR_CODE_INVALID',
  INVALID_BACKUP_CODE: 'TWO_FACTOR_CODE_INVALID',
  INVALID_TWO_FACTOR_COOKIE: 'TWO_FACTOR_EXPIRED',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'TWO_FACTOR_EXPIRED',
  ACCOUNT_TEMPORARILY_LOCKED: 'TWO_FACTOR_LOCKED',
  TOTP_ALREADY_ENABLED: 'TWO_FACTOR_ALREADY_ENABLED',
  TOTP_NOT_ENABLED: 'TWO_FACTOR_NOT_ENABLED',
  TWO_FACTOR_NOT_ENABLED: 'TWO_FACTOR_NOT_ENABLED',
  BACKUP_CODES_NOT_ENABLED: 'TWO_FACTOR_NOT_ENABLED',
};

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'INTERNAL';
  return 'BAD_REQUEST';
}

/** Rewrites a refused better-auth answer into `{ error: { code, message } }`; others pass through. */
async function normalizeError(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  let raw: { code?: unknown; message?: unknown } = {};
  try {
    raw = (await res.clone().json()) as typeof raw;
  } catch {
    // not JSON: keep the status, give it a code
  }
  const given = typeof raw.code === 'string' ? raw.code : '';
  const code: ErrorCode = isErrorCode(given) ? given : (AUTH_CODES[given] ?? codeForStatus(res.status));
  const status = ERROR_CODES[code];
  const headers = new Headers(res.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.delete('content-length');
  const message = typeof raw.message === 'string' && code !== 'INTERNAL' ? raw.message : code;
  return new Response(JSON.stringify(errorBody(code, message)), { status, headers });
}

async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await c.req.json();
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export interface AccountParts {
  auth: Auth;
  db: Db;
  limiter: RateLimiter;
  /** Production: the admin area asks the team for a second factor. */
  production: boolean;
}

const emailAvailableSchema = z.object({ email: emailSchema });

const emailKey = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : '');

/**
 * The better-auth endpoints the site uses; every other one answers 404. The account writes are
 * declared as routes below (with the contract's bodies, for the typed client); the catch-all
 * route answers the rest of better-auth from this list.
 */
export const AUTH_ENDPOINTS: ReadonlySet<string> = new Set([
  'POST /sign-in/email',
  'POST /sign-up/email',
  'POST /sign-out',
  'POST /request-password-reset',
  'POST /reset-password',
  'POST /update-user',
  'POST /change-password',
  'GET /verify-email',
  'POST /two-factor/enable',
  'POST /two-factor/disable',
  'POST /two-factor/generate-backup-codes',
  'POST /two-factor/verify-totp',
  'POST /two-factor/verify-backup-code',
]);

/** The account of a successful sign-in's answer (`{ user: { id } }`); none for a code challenge. */
async function signedInUserId(res: Response): Promise<string | null> {
  if (!res.ok) return null;
  const body = (await res.clone().json().catch(() => null)) as { user?: { id?: unknown } } | null;
  return typeof body?.user?.id === 'string' ? body.user.id : null;
}

/** Whether a refused answer says the password was wrong (the check ran and failed). */
async function isWrongPassword(res: Response): Promise<boolean> {
  if (res.status !== ERROR_CODES.INVALID_CREDENTIALS) return false;
  const body = (await res.clone().json().catch(() => null)) as { error?: { code?: unknown } } | null;
  return body?.error?.code === 'INVALID_CREDENTIALS';
}

/**
 * `/api/auth/*`: the better-auth endpoints the site uses, with our rate limits in front,
 * sign-out extended to every session of the user, and errors in the API's shape.
 */
export function authHandlerRoutes(get: () => AccountParts) {
  const handle = async (c: Context) => normalizeError(await get().auth.handler(await readableRequest(c)));

  /** Runs a password check under the password rules, counted before it runs. */
  const checkingPassword = async (c: Context, account: string) => {
    const attempt = await get().limiter.beginPasswordCheck(clientIp(c), account);
    const res = await handle(c);
    if (await isWrongPassword(res)) await attempt.failed();
    else await attempt.passed();
    return res;
  };

  /** Records the sign-in a successful answer opened a session with (docs/rules.md#second-factor). */
  const recording = async (c: Context, res: Response, method: SignInMethod) => {
    const userId = await signedInUserId(res);
    if (userId) {
      const language = namedLanguage(c.req.header('cookie'), c.req.header('accept-language'));
      await recordSignIn(get().db, { userId, ipAddress: clientIp(c), userAgent: c.req.header('user-agent') ?? null, method, language });
    }
    return res;
  };

  /**
   * Turning the second factor on or off, or new recovery codes: the password checked as at
   * sign-in; a team member's change is audited (turning it on is audited at its first code).
   */
  const changingSecondFactor = (action: string | null) => async (c: Context) => {
    const user = await optionalUser(c);
    if (!user) return handle(c);
    const res = await checkingPassword(c, emailKey(user.email));
    if (res.ok && action && can(user.roles, 'staff:enter')) await audit(get().db, user, action, { type: 'user', id: user.id });
    return res;
  };

  /** A code of the second factor: counted per address first; at sign-in it opens the session, signed in it finishes turning the factor on. */
  const checkingCode = (method: Exclude<SignInMethod, 'password'>) => async (c: Context) => {
    await get().limiter.consume(RATE_RULES.twoFactorCodesPerIp, clientIp(c));
    const before = await optionalUser(c);
    const res = await handle(c);
    if (!before) return recording(c, res, method);
    if (res.ok && method === 'totp' && !before.twoFactorEnabled && can(before.roles, 'staff:enter')) {
      await audit(get().db, before, 'two_factor.enable', { type: 'user', id: before.id });
    }
    return res;
  };

  return (
    new Hono()
      .post('/sign-in/email', declaredBody(AUTH_WRITE_BODIES['/sign-in/email']), async (c) =>
        recording(c, await checkingPassword(c, emailKey((await jsonBody(c)).email)), 'password'),
      )
      .post('/sign-up/email', declaredBody(AUTH_WRITE_BODIES['/sign-up/email']), async (c) => {
        await get().limiter.consume(RATE_RULES.signUpPerIp, clientIp(c));
        return recording(c, await handle(c), 'password');
      })
      .post('/two-factor/enable', declaredBody(AUTH_WRITE_BODIES['/two-factor/enable']), changingSecondFactor(null))
      .post('/two-factor/disable', declaredBody(AUTH_WRITE_BODIES['/two-factor/disable']), changingSecondFactor('two_factor.disable'))
      .post('/two-factor/generate-backup-codes', declaredBody(AUTH_WRITE_BODIES['/two-factor/generate-backup-codes']), changingSecondFactor('two_factor.recovery_codes'))
      .post('/two-factor/verify-totp', declaredBody(AUTH_WRITE_BODIES['/two-factor/verify-totp']), checkingCode('totp'))
      .post('/two-factor/verify-backup-code', declaredBody(AUTH_WRITE_BODIES['/two-factor/verify-backup-code']), checkingCode('recovery_code'))
      .post('/request-password-reset', declaredBody(AUTH_WRITE_BODIES['/request-password-reset']), async (c) => {
        const parsed = emailSchema.safeParse((await jsonBody(c)).email);
        if (!parsed.success) throw new AppError('EMAIL_INVALID', 'The e-mail address is not valid.');
        const { limiter } = get();
        await limiter.consume(RATE_RULES.resetPerIp, clientIp(c));
        await limiter.consume(RATE_RULES.resetPerAccount, parsed.data);
        const res = await handle(c);
        if (mailNotSent.has(c.req.raw)) throw new AppError('MAIL_NOT_SENT', 'The e-mail could not be sent.');
        // The same answer whether or not the account exists.
        return res.ok ? c.json({ status: true }) : res;
      })
      // Sign-out ends every session of the user (global scope), not only this browser's.
      // better-auth reads an (empty) JSON body on this POST.
      .post('/sign-out', declaredBody(z.strictObject({})), async (c) => {
        const user = await optionalUser(c);
        const res = await handle(c);
        if (user) await get().db.delete(sessions).where(eq(sessions.userId, user.id));
        return res;
      })
      .post('/update-user', declaredBody(AUTH_WRITE_BODIES['/update-user']), handle)
      // Checking the current password counts like a sign-in on the same account.
      .post('/change-password', declaredBody(AUTH_WRITE_BODIES['/change-password']), async (c) => {
        const user = await optionalUser(c);
        return user ? checkingPassword(c, emailKey(user.email)) : handle(c);
      })
      .post('/reset-password', declaredBody(AUTH_WRITE_BODIES['/reset-password']), handle)
      .on(['GET', 'POST'], '*', async (c) => {
        const endpoint = `${c.req.method} ${c.req.path.replace(/^.*?\/api\/auth(?=\/)/, '')}`;
        if (!AUTH_ENDPOINTS.has(endpoint)) throw new AppError('NOT_FOUND', 'Not found.');
        return handle(c);
      })
  );
}

/**
 * The signed-in person as the browser sees them (`GET /api/me`, and the pages made for them from
 * a shell: web/personalPages.ts): the session's user with their balance, second factor and discount.
 */
export async function meOf(db: Db, production: boolean, user: AuthUser): Promise<Me> {
  const { balanceMicros, discount } = await balanceAndDiscount(db, user.id);
  return {
    id: user.id,
    email: user.email,
    fullName: user.name,
    roles: user.roles,
    balanceMicros,
    twoFactorEnabled: user.twoFactorEnabled,
    twoFactorRequired: secondFactorRequired(production, user.roles),
    discount,
  };
}

/** `/api/me` and `/api/auth-extra/*`: the signed-in state for the browser, and the sign-up e-mail check. */
export function accountRoutes(get: () => AccountParts) {
  return new Hono()
    .get('/me', async (c) => {
      c.header('Cache-Control', 'private, no-store');
      // Read through better-auth with its headers, so a session due for refresh gets its new cookie.
      const opts = get();
      const { headers, response: session } = await opts.auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true });
      for (const cookie of headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
      if (!session) return c.json({ user: null as Me | null });
      const user = session.user;
      const me = await meOf(opts.db, opts.production, {
        id: user.id,
        email: user.email,
        name: user.name,
        roles: await rolesOf(opts.db, user.id),
        twoFactorEnabled: user.twoFactorEnabled === true,
      });
      return c.json({ user: me as Me | null });
    })
    // Counted first; a body that is not an e-mail answers EMAIL_INVALID.
    .post('/auth-extra/email-available', declaredBody(emailAvailableSchema), async (c) => {
      const opts = get();
      await opts.limiter.consume(RATE_RULES.emailCheckPerIp, clientIp(c));
      const parsed = emailAvailableSchema.safeParse(await jsonBody(c));
      if (!parsed.success) throw new AppError('EMAIL_INVALID', 'The e-mail address is not valid.');
      return c.json({ available: await isEmailAvailable(opts.db, parsed.data.email) });
    })
    // Whether a password-reset link still works, asked as its page opens (docs/rules.md#accounts).
    .post('/auth-extra/reset-link', declaredBody(resetLinkSchema), async (c) => {
      c.header('Cache-Control', 'no-store');
      const opts = get();
      await opts.limiter.consume(RATE_RULES.resetLinkPerIp, clientIp(c));
      const parsed = resetLinkSchema.safeParse(await jsonBody(c));
      if (!parsed.success) throw new AppError('VALIDATION_FAILED', 'The link is not valid.');
      return c.json({ valid: await isResetTokenValid(opts.auth, parsed.data.token) });
    })
    // The account's recent sign-ins (docs/rules.md#second-factor).
    .get('/auth-extra/sign-ins', async (c) => {
      c.header('Cache-Control', 'private, no-store');
      const user = await requireUser(c);
      return c.json({ signIns: await recentSignIns(get().db, user.id) });
    });
}
