import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fullNameSchema, signUpInputSchema } from './contracts/account';
import { PASSWORD_SPECIAL_CHARACTERS, isAcceptablePassword, passwordStrength, showStrengthMeter } from './password';

describe('passwordStrength', () => {
  it.each([
    ['', 0, 'veryWeak'],
    ['a', 1, 'veryWeak'],
    ['abcdefgh', 2, 'weak'],
    ['Abc', 2, 'weak'],
    ['Abc1', 3, 'medium'],
    ['abcdefg1', 3, 'medium'],
    ['Abcdefg1', 4, 'strong'],
    ['Abc1!', 4, 'strong'],
    ['Abcdef1!', 5, 'veryStrong'],
    ['12345678', 2, 'weak'],
    ['!!!!!!!!', 2, 'weak'],
    ['ƏşİöÜğ12', 4, 'strong'],
  ] as const)('%j → %i %s', (pw, score, label) => {
    const result = passwordStrength(pw);
    expect(result.score).toBe(score);
    expect(result.label).toBe(label);
  });

  it('reports each criterion', () => {
    expect(passwordStrength('Abcdef1!').criteria).toEqual({ length: true, uppercase: true, lowercase: true, digit: true, special: true });
    expect(passwordStrength('abc').criteria).toEqual({ length: false, uppercase: false, lowercase: true, digit: false, special: false });
  });

  it.each([...PASSWORD_SPECIAL_CHARACTERS])('counts %j as special', (c) => {
    expect(passwordStrength(`a${c}`).criteria.special).toBe(true);
  });

  it.each(['-', '_', '+', '=', '~', '`', '[', ']', "'", ';', '/', ' ', '€'])('does not count %j as special', (c) => {
    expect(passwordStrength(`a${c}`).criteria.special).toBe(false);
  });

  it('counts characters, not UTF-16 units, for the length', () => {
    expect(passwordStrength('😀😀😀😀😀😀😀').criteria.length).toBe(false); // 7 characters, 14 units
    expect(passwordStrength('😀😀😀😀😀😀😀😀').criteria.length).toBe(true);
  });

  it('scores the number of criteria met, and never drops when a character is added', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme', minLength: 1 }), (pw, more) => {
        const { score, criteria } = passwordStrength(pw);
        expect(score).toBe(Object.values(criteria).filter(Boolean).length);
        expect(passwordStrength(pw + more).score).toBeGreaterThanOrEqual(score);
      }),
    );
  });
});

describe('isAcceptablePassword', () => {
  it.each(['Abcdefgh', 'abcdefg1', 'abcdefg!', 'Abcdef1!', 'şifrə2024'])('accepts %j', (pw) => {
    expect(isAcceptablePassword(pw)).toBe(true);
  });

  it.each(['Abc1!', 'Abcdef1', 'abcdefgh', '12345678', 'ABCDEFGH', '', '        '])('refuses %j', (pw) => {
    expect(isAcceptablePassword(pw)).toBe(false);
  });

  it('is exactly: at least 8 characters and score at least 3', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (pw) => {
        expect(isAcceptablePassword(pw)).toBe([...pw].length >= 8 && passwordStrength(pw).score >= 3);
      }),
    );
  });
});

describe('showStrengthMeter', () => {
  it('shows from 3 characters on', () => {
    expect(showStrengthMeter('')).toBe(false);
    expect(showStrengthMeter('ab')).toBe(false);
    expect(showStrengthMeter('abc')).toBe(true);
    expect(showStrengthMeter('😀😀')).toBe(false);
  });
});

describe('signUpInputSchema', () => {
  /** A well-formed address of `length` characters (labels of at most 63). */
  const longEmail = (length: number) => `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(length - 197)}.com`;
  const valid = { fullName: '  Aysel Məmmədova ', email: '  Aysel@Example.AZ ', password: 'Abcdef1!' };

  it('trims the name and trims and lower-cases the e-mail, keeping the password as typed', () => {
    expect(signUpInputSchema.parse({ ...valid, password: ' Abcdef1! ' })).toEqual({
      fullName: 'Aysel Məmmədova',
      email: 'aysel@example.az',
      password: ' Abcdef1! ',
    });
  });

  it.each([
    ['short name', { fullName: ' ab ' }, 'VALIDATION_FAILED'],
    ['long name', { fullName: 'a'.repeat(101) }, 'VALIDATION_FAILED'],
    ['e-mail without @', { email: 'aysel.example.az' }, 'EMAIL_INVALID'],
    ['e-mail without domain', { email: 'aysel@' }, 'EMAIL_INVALID'],
    ['e-mail with a space', { email: 'ay sel@example.az' }, 'EMAIL_INVALID'],
    ['e-mail too long', { email: longEmail(255) }, 'EMAIL_INVALID'],
    ['weak password', { password: 'abcdefgh' }, 'PASSWORD_WEAK'],
    ['short password', { password: 'Ab1!' }, 'PASSWORD_WEAK'],
    ['overlong password', { password: `Ab1!${'x'.repeat(125)}` }, 'PASSWORD_WEAK'],
  ])('refuses a %s with its error code', (_name, change, code) => {
    const result = signUpInputSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(code);
  });

  it('accepts the limits', () => {
    expect(signUpInputSchema.safeParse({ ...valid, fullName: 'Ali', password: `Ab1!${'x'.repeat(124)}` }).success).toBe(true);
    expect(signUpInputSchema.safeParse({ ...valid, fullName: 'a'.repeat(100) }).success).toBe(true);
    expect(longEmail(254)).toHaveLength(254);
    expect(signUpInputSchema.safeParse({ ...valid, email: longEmail(254) }).success).toBe(true);
  });

  it('refuses missing fields', () => {
    expect(signUpInputSchema.safeParse({ email: valid.email, password: valid.password }).success).toBe(false);
    expect(signUpInputSchema.safeParse({}).success).toBe(false);
  });
});

describe('fullNameSchema', () => {
  /** Bidi controls, direction marks, zero-width and other invisible or control characters. */
  const INVISIBLE = [
    ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c],
    ...[0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x180e, 0x034f, 0x115f, 0x3164, 0xffa0, 0xfe0f, 0x2800],
    ...[0x0000, 0x0009, 0x000a, 0x000d, 0x001b, 0x007f, 0x0085, 0x2028, 0x2029, 0xe000, 0xe0001, 0xe0100],
  ].map((c) => String.fromCodePoint(c));

  it('accepts Azerbaijani, Turkish and other visible names', () => {
    for (const name of ['Aysel Məmmədova', 'İsmail Şahin', 'Gülşən Ağayeva', "O'Brien-Smith", 'José María', 'Ана Іванова', 'علي رضا']) {
      expect(fullNameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it('refuses a name with any invisible or control character anywhere in it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INVISIBLE), fc.string({ minLength: 0, maxLength: 10 }), fc.string({ minLength: 0, maxLength: 10 }), (bad, before, after) => {
        const result = fullNameSchema.safeParse(`Ali${before}${bad}${after}Veli`);
        expect(result.success).toBe(false);
        expect(result.error?.issues.map((i) => i.message)).toContain('VALIDATION_FAILED');
      }),
    );
  });

  it('refuses the classic bidi spoof', () => {
    expect(fullNameSchema.safeParse('\u202Enimda\u202C Support').success).toBe(false);
    expect(signUpInputSchema.safeParse({ fullName: 'Ali \u2067Veli', email: 'a@example.com', password: 'Abcdef1!' }).success).toBe(false);
  });
});
