import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  microsToDecimal,
  minorToDecimal,
  usdMicrosToMinor,
  withFeeMinor,
  parseMinor,
  parseUsdToMicros,
  qepikToAznString,
  shareOfMicros,
  usdMicrosToAznQepik,
} from './money';

describe('parseUsdToMicros', () => {
  it.each([
    ['10', 10_000_000],
    ['10.1', 10_100_000],
    ['10.10', 10_100_000],
    ['0.01', 10_000],
    ['0', 0],
    ['0.5', 500_000],
    ['  25.99 ', 25_990_000],
    ['007', 7_000_000],
    ['0.021272', 21_272],
    ['0.000001', 1],
    ['100.84292', 100_842_920],
    ['9007199254.740991', 9_007_199_254_740_991],
  ])('accepts %j → %i', (input, micros) => {
    expect(parseUsdToMicros(input)).toBe(micros);
  });

  it.each([
    '0.0000001', '-1', '-0.01', '1e3', '1E3', 'NaN', 'Infinity', '', '  ', '.5', '10.', '1,5',
    '+1', '0x10', '1 000', '$10', '10.1.1', '9007199254.740992',
  ])('refuses %j', (input) => {
    expect(parseUsdToMicros(input)).toBeNull();
  });

  it('takes at most the decimals it is given: whole cents for amounts people pay', () => {
    expect(parseUsdToMicros('25.00', 2)).toBe(25_000_000);
    expect(parseUsdToMicros('25.5', 2)).toBe(25_500_000);
    expect(parseUsdToMicros('25.001', 2)).toBeNull();
    expect(parseUsdToMicros('25.001', 3)).toBe(25_001_000);
    expect(parseUsdToMicros('0.0000001', 9)).toBeNull();
  });

  it.each([
    [10, 10_000_000],
    [10.1, 10_100_000],
    [0.07, 70_000],
    [19.99, 19_990_000],
    [1.5, 1_500_000],
    [0.000001, 1],
    [0, 0],
  ])('accepts the number %d → %i', (input, micros) => {
    expect(parseUsdToMicros(input)).toBe(micros);
  });

  it.each([NaN, Infinity, -Infinity, -1, 1e21, 0.1 + 0.2, 1.0000005, 1e-7])('refuses the number %d', (input) => {
    expect(parseUsdToMicros(input)).toBeNull();
  });

  it('round-trips with microsToDecimal for every safe amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (micros) => {
        expect(parseUsdToMicros(microsToDecimal(micros))).toBe(micros);
      }),
    );
  });
});

describe('parseMinor', () => {
  it('reads two decimals into the minor unit, exactly', () => {
    expect(parseMinor('17.17')).toBe(1717);
    expect(parseMinor('4.35')).toBe(435);
    expect(parseMinor('12')).toBe(1200);
    expect(parseMinor('0.001')).toBeNull();
    expect(parseMinor('-1')).toBeNull();
  });

  it('round-trips with minorToDecimal for every safe amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (minor) => {
        expect(parseMinor(minorToDecimal(minor))).toBe(minor);
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
  ])('%i → %s', (minor, text) => {
    expect(minorToDecimal(minor)).toBe(text);
  });

  it('keeps large amounts exact', () => {
    expect(minorToDecimal(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });

  it('refuses fractions of the minor unit', () => {
    expect(() => minorToDecimal(10.5)).toThrow(RangeError);
    expect(() => minorToDecimal(NaN)).toThrow(RangeError);
  });
});

describe('microsToDecimal', () => {
  it.each([
    [1_230_000, '1.23'],
    [10_100_000, '10.10'],
    [21_272, '0.021272'],
    [212_720, '0.21272'],
    [1, '0.000001'],
    [0, '0.00'],
    [25_000_000, '25.00'],
    [-50_000, '-0.05'],
    [-1_500_001, '-1.500001'],
    [Number.MAX_SAFE_INTEGER, '9007199254.740991'],
  ])('%i → %s', (micros, text) => {
    expect(microsToDecimal(micros)).toBe(text);
  });

  it('refuses fractions of a micro', () => {
    expect(() => microsToDecimal(0.5)).toThrow(RangeError);
  });
});

describe('usdMicrosToAznQepik', () => {
  it.each([
    [10_100_000, '1.7', 1717],
    [1_000_000, '1.7', 170],
    [25_000_000, '1.7', 4250],
    [10_000, '1.7', 2], // 1.7 → 2
    [30_000, '1.7', 6], // 5.1 → 6
    [1, '1.7', 1], // 0.00017 → 1
    [0, '1.7', 0],
    [10_000_000, '1', 1000],
    [3_330_000, '1.7025', 567], // 566.9325 → 567
    [100_000, '0.1', 1],
  ])('%i micros at %s → %i qəpik', (micros, rate, qepik) => {
    expect(usdMicrosToAznQepik(micros, rate)).toBe(qepik);
  });

  it('is the exact ceiling of micros × rate / 10 000', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000_000 }),
        fc.integer({ min: 1, max: 99_999 }),
        (micros, rateTenThousandths) => {
          const rate = (rateTenThousandths / 10_000).toFixed(4);
          const exact = BigInt(micros) * BigInt(rateTenThousandths); // qəpik × 10^8
          const expected = (exact + 99_999_999n) / 100_000_000n;
          expect(usdMicrosToAznQepik(micros, rate)).toBe(Number(expected));
        },
      ),
    );
  });

  it.each(['', '0', '0.000', '-1.7', '1,7', '1e0', 'abc', ' 1.7'])('refuses rate %j', (rate) => {
    expect(() => usdMicrosToAznQepik(1_000_000, rate)).toThrow(RangeError);
  });

  it('refuses negative or fractional micros', () => {
    expect(() => usdMicrosToAznQepik(-1, '1.7')).toThrow(RangeError);
    expect(() => usdMicrosToAznQepik(1.5, '1.7')).toThrow(RangeError);
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

describe('usdMicrosToMinor and withFeeMinor', () => {
  it('converts to any two-decimal currency exactly, rounding up', () => {
    expect(usdMicrosToMinor(10_000_000, '42')).toBe(42_000);
    expect(usdMicrosToMinor(10_010_000, '41.9873')).toBe(42_030);
    expect(usdMicrosToMinor(1, '1.7')).toBe(1);
  });
  it('adds a fee in hundredths of a percent, rounded up to the minor unit', () => {
    expect(withFeeMinor(1000, 0)).toBe(1000);
    expect(withFeeMinor(1000, 250)).toBe(1025);
    expect(withFeeMinor(1001, 250)).toBe(1027);
    expect(withFeeMinor(1702, 250)).toBe(1745);
    expect(() => withFeeMinor(1000, -1)).toThrow(RangeError);
    expect(() => withFeeMinor(10.5, 0)).toThrow(RangeError);
  });
  it('is the exact ceiling of minor × (10 000 + fee) / 10 000, and a share the exact floor of micros × bp / 10 000', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), fc.integer({ min: 0, max: 100_000 }), (amount, bp) => {
        const withFee = BigInt(amount) * BigInt(10_000 + bp);
        expect(withFeeMinor(amount, bp)).toBe(Number((withFee + 9_999n) / 10_000n));
        expect(shareOfMicros(amount, bp)).toBe(Number((BigInt(amount) * BigInt(bp)) / 10_000n));
      }),
    );
    expect(shareOfMicros(333, 5000)).toBe(166);
    expect(() => shareOfMicros(-1, 10)).toThrow(RangeError);
  });
});
