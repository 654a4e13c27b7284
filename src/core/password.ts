/**
 * Password strength (docs/rules.md#accounts): five criteria, one point each. Upper- and lower-case letters
 * are Unicode letters, so "Ə", "Ş" or "İ" count; digits are 0-9; the special characters are the
 * fixed set below. Length counts characters (code points), not UTF-16 units.
 */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MIN_SCORE = 3;
/** Upper bound on sign-up passwords, so hashing stays cheap for any request. */
export const PASSWORD_MAX_LENGTH = 128;
/** The strength meter appears from this many characters on. */
export const STRENGTH_METER_MIN_LENGTH = 3;
/** The characters that satisfy the "special character" criterion. */
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*(),.?":{}|<>';

export interface PasswordCriteria {
  length: boolean;
  uppercase: boolean;
  lowercase: boolean;
  digit: boolean;
  special: boolean;
}
export type PasswordScore = 0 | 1 | 2 | 3 | 4 | 5;
export type PasswordStrengthLabel = 'veryWeak' | 'weak' | 'medium' | 'strong' | 'veryStrong';

const LABELS: readonly PasswordStrengthLabel[] = ['veryWeak', 'veryWeak', 'weak', 'medium', 'strong', 'veryStrong'];

const characterCount = (text: string) => [...text].length;

export function passwordStrength(password: string): {
  score: PasswordScore;
  criteria: PasswordCriteria;
  label: PasswordStrengthLabel;
} {
  const criteria: PasswordCriteria = {
    length: characterCount(password) >= PASSWORD_MIN_LENGTH,
    uppercase: /\p{Lu}/u.test(password),
    lowercase: /\p{Ll}/u.test(password),
    digit: /[0-9]/.test(password),
    special: [...password].some((c) => PASSWORD_SPECIAL_CHARACTERS.includes(c)),
  };
  const score = Object.values(criteria).filter(Boolean).length as PasswordScore;
  return { score, criteria, label: LABELS[score]! };
}

/** At least 8 characters and a strength of at least 3 of 5. */
export function isAcceptablePassword(password: string): boolean {
  return characterCount(password) >= PASSWORD_MIN_LENGTH && passwordStrength(password).score >= PASSWORD_MIN_SCORE;
}

export function showStrengthMeter(password: string): boolean {
  return characterCount(password) >= STRENGTH_METER_MIN_LENGTH;
}

export const FULL_NAME_MIN_LENGTH = 3;
export const FULL_NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;

/**
 * Characters a name may not contain: control and format characters (among them the bidi
 * embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F
 * and U+061C, zero-width spaces and joiners, the soft hyphen and the byte-order mark),
 * unassigned, private-use and surrogate code points, line and paragraph separators, and every
 * character Unicode says to draw as nothing (Hangul fillers, the combining grapheme joiner,
 * variation selectors …), plus the braille blank. They could reorder or hide what an admin reads
 * next to a name.
 */
const INVISIBLE_IN_NAMES = /[\p{C}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Whether a name is free of the characters above. */
export const isVisibleName = (name: string) => !INVISIBLE_IN_NAMES.test(name);
