import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { LANGUAGES } from '../../../core/i18n';
import { ROLES } from '../../../core/permissions';

/**
 * Identity tables. `users`, `sessions`, `accounts` and `verifications` follow the shape better-auth
 * expects; `balance_micros` is ours: the cached wallet balance in USD micro-dollars
 * (docs/rules.md#money), changed only together
 * with a ledger entry and never below zero, except by a chargeback (docs/decisions/0019):
 * `chargeback_micros` is the sum of the chargebacks booked against the account, and the balance
 * may never be lower than minus that sum.
 */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** Full name as typed at sign-up. */
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    balanceMicros: bigint('balance_micros', { mode: 'number' }).notNull().default(0),
    /** Set by better-auth's two-factor plugin once a first code has been verified. */
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    /** What chargebacks took from this balance in all, in USD micro-dollars (≥ 0): how far below zero it may be. */
    chargebackMicros: bigint('chargeback_micros', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('users_chargebacks_non_negative', sql`${t.chargebackMicros} >= 0`),
    check('users_balance_within_chargebacks', sql`${t.balanceMicros} >= -${t.chargebackMicros}`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('accounts_user_idx').on(t.userId)],
);

export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);

/** The roles (core/permissions.ts); the column's check below lists them for the database. */
export { ROLES };
export type Role = (typeof ROLES)[number];

export const userRoles = pgTable(
  'user_roles',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('user_roles_user_role_unique').on(t.userId, t.role),
    check('user_roles_role_valid', sql`${t.role} in ('user', 'moderator', 'admin')`),
  ],
);

/**
 * A user's second factor, in the shape better-auth's two-factor plugin expects: the TOTP secret
 * and the recovery codes, both sealed with the auth secret; `verified` once a first code was
 * typed; failures counted towards the plugin's temporary lock. One row per user.
 */
export const twoFactors = pgTable(
  'two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [unique('two_factors_user_unique').on(t.userId)],
);

export const SIGN_IN_METHODS = ['password', 'totp', 'recovery_code'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/**
 * Each sign-in of an account (sessions are deleted on sign-out, so they cannot tell): when, from
 * which address and browser, in which of the site's languages, and how the last step was passed.
 * The newest few are kept per user (auth/signIns.ts); the newest one's language is the one the
 * account's security mails are written in.
 */
export const signIns = pgTable(
  'sign_ins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    method: text('method', { enum: SIGN_IN_METHODS }).notNull(),
    /** The site language the browser had (its `lang` cookie); null for sign-ins recorded before it was kept. */
    language: text('language', { enum: LANGUAGES }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sign_ins_user_idx').on(t.userId, t.createdAt),
    check('sign_ins_method_valid', sql`${t.method} in ('password', 'totp', 'recovery_code')`),
    check('sign_ins_language_valid', sql`${t.language} in ('az', 'tr', 'en')`),
  ],
);
