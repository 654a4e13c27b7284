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

/** A code from an authenticator app: six digits (spaces typed between them are dropped); null when it is not one. */
export function totpCode(typed: string): string | null {
  const code = typed.replace(/\s+/g, '');
  return /^\d{6}$/.test(code) ? code : null;
}

/** A recovery code as shown when it was made: ten letters and digits, a dash after the fifth; null when it is not one. */
export function recoveryCode(typed: string): string | null {
  const code = typed.trim();
  return /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/.test(code) ? code : null;
}

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
