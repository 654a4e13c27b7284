import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  minorToDecimal,
  parseUsdToCents,
  qepikToAznString,
  usdCentsToAznQepik,
} from './money';

describe('parseUsdToCents', () => {
  it.each([
    ['10', 1000],
    ['10.1', 1010],
    ['10.10', 1010],
    ['0.01', 1],
    ['0', 0],
    ['0.5', 50],
    ['  25.99 ', 2599],
    ['007', 700],
    ['90071992547409.91', 9007199254740991],
  ])('accepts %j → %i', (input, cents) => {
    expect(parseUsdToCents(input)).toBe(cents);
  });

  it.each([
    '10.101', '-1', '-0.01', '1e3', '1E3', 'NaN', 'Infinity', '', '  ', '.5', '10.', '1,5',
    '+1', '0x10', '1 000', '$10', '10.1.1', '90071992547409.92',
  ])('refuses %j', (input) => {
    expect(parseUsdToCents(input)).toBeNull();
  });

  it.each([
    [10, 1000],
    [10.1, 1010],
    [0.07, 7],
    [19.99, 1999],
    [0, 0],
  ])('accepts the number %d → %i', (input, cents) => {
    expect(parseUsdToCents(input)).toBe(cents);
  });

  it.each([NaN, Infinity, -Infinity, -1, 1e21, 0.1 + 0.2, 1.005, 1e-7])('refuses the number %d', (input) => {
    expect(parseUsdToCents(input)).toBeNull();
  });

  it('round-trips with minorToDecimal for every safe amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        expect(parseUsdToCents(minorToDecimal(cents))).toBe(cents);
      }),
    );
  });
});

describe('minorToDecimal', () => {
  it.each([
    [1010, '10.10'],
    [5, '0.05'],
    [0, '0.00'],
    [100, '1.00'],
    [123456789, '1234567.89'],
    [-5, '-0.05'],
    [-150, '-1.50'],
  ])('%i → %s', (cents, text) => {
    expect(minorToDecimal(cents)).toBe(text);
  });

  it('keeps large amounts exact', () => {
    expect(minorToDecimal(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });

  it('refuses fractional cents', () => {
    expect(() => minorToDecimal(10.5)).toThrow(RangeError);
    expect(() => minorToDecimal(NaN)).toThrow(RangeError);
  });
});

describe('usdCentsToAznQepik', () => {
  it.each([
    [1010, '1.7', 1717],
    [100, '1.7', 170],
    [1, '1.7', 2],
    [3, '1.7', 6], // 5.1 → 6
    [0, '1.7', 0],
    [1000, '1', 1000],
    [333, '1.7025', 567], // 566.9325 → 567
    [10, '0.1', 1],
  ])('%i cents at %s → %i qəpik', (cents, rate, qepik) => {
    expect(usdCentsToAznQepik(cents, rate)).toBe(qepik);
  });

  it('is the exact ceiling of cents × rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 99_999 }),
        (cents, rateTenThousandths) => {
          const rate = (rateTenThousandths / 10_000).toFixed(4);
          const exact = BigInt(cents) * BigInt(rateTenThousandths);
          const expected = (exact + 9_999n) / 10_000n;
          expect(usdCentsToAznQepik(cents, rate)).toBe(Number(expected));
        },
      ),
    );
  });

  it.each(['', '0', '0.000', '-1.7', '1,7', '1e0', 'abc', ' 1.7'])('refuses rate %j', (rate) => {
    expect(() => usdCentsToAznQepik(100, rate)).toThrow(RangeError);
  });

  it('refuses negative or fractional cents', () => {
    expect(() => usdCentsToAznQepik(-1, '1.7')).toThrow(RangeError);
    expect(() => usdCentsToAznQepik(1.5, '1.7')).toThrow(RangeError);
  });
});

describe('qepikToAznString', () => {
  it.each([
    [1717, '17.17'],
    [5, '0.05'],
    [170, '1.70'],
    [0, '0.00'],
  ])('%i → %s', (q, text) => {
    expect(qepikToAznString(q)).toBe(text);
  });

  it('refuses negative or fractional qəpik', () => {
    expect(() => qepikToAznString(-1)).toThrow(RangeError);
    expect(() => qepikToAznString(0.5)).toThrow(RangeError);
  });
});
