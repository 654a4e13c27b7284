import { z } from 'zod';
import { can } from './permissions';

/**
 * The second factor (time-based one-time codes with recovery codes, through better-auth's
 * two-factor plugin): who must have one, and what a typed code looks like.
 */

/**
 * Whether the admin area refuses this person until they have a second factor: in production every
 * role that may enter the team's area (`staff:enter`) needs one; outside production it is only
 * offered, so a fresh shop still starts with two commands. Customers are never made to.
 */
export const secondFactorRequired = (production: boolean, roles: readonly string[]): boolean => production && can(roles, 'staff:enter');

/** A code from an authenticator app: six digits (spaces typed between them are dropped). */
export const totpCodeSchema = z
  .string('TWO_FACTOR_CODE_INVALID')
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'TWO_FACTOR_CODE_INVALID'));

/** A recovery code as shown when it was made: ten letters and digits, a dash after the fifth. */
export const recoveryCodeSchema = z
  .string('TWO_FACTOR_CODE_INVALID')
  .transform((v) => v.trim())
  .pipe(z.string().regex(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/, 'TWO_FACTOR_CODE_INVALID'));

/** The secret of an `otpauth://` address, in groups of four for typing by hand. */
export function secretOf(otpauthUri: string): string {
  let secret = '';
  try {
    secret = new URL(otpauthUri).searchParams.get('secret') ?? '';
  } catch {
    return '';
  }
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}
