import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PriceTier } from './catalog';
import { priceOrder, pricePerUnitDisplay } from './pricing';

const NO_FEES = { serviceFeePercent: 0, baseFee: 0 };
const tier = (price: string, pricingPer = 1000, minimum = 1, maximum = 10_000): PriceTier => ({
  minimum,
  maximum,
  price,
  pricingPer,
});

/** "P / 10^scale" as plain decimal text. */
const decimalText = (units: bigint, scale: number) => {
  const digits = units.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
};
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

describe('priceOrder: examples', () => {
  it.each([
    ['0.35 per 1000 × 1000', [tier('0.35')], 1000, NO_FEES, 35],
    ['0.35 per 1000 × 1', [tier('0.35')], 1, NO_FEES, 1], // 0.035 cents → at least 1 cent
    ['1.2 per 1000 × 2500', [tier('1.2')], 2500, NO_FEES, 300],
    ['fees as numbers', [tier('0.35')], 1000, { serviceFeePercent: 10, baseFee: 0.5 }, 94], // 0.935
    ['fees as strings', [tier('0.35')], 1000, { serviceFeePercent: '10', baseFee: '0.5' }, 94],
    ['per 1', [tier('0.01', 1)], 7, NO_FEES, 7],
    ['per 3, exact third', [tier('1', 3)], 1, NO_FEES, 34], // 33.33… → 34
    ['tiny price', [tier('0.00000001')], 1, NO_FEES, 1],
    ['free service with a base fee', [tier('0')], 100, { serviceFeePercent: 0, baseFee: '0.25' }, 25],
    ['free service, no fees', [tier('0')], 100, NO_FEES, 0],
    ['fee rounds up', [tier('1', 100)], 100, { serviceFeePercent: '2.5', baseFee: 0 }, 103], // 102.5
    ['non-numeric fees count as 0', [tier('1', 100)], 100, { serviceFeePercent: 'abc', baseFee: '' }, 100],
    ['negative fees count as 0', [tier('1', 100)], 100, { serviceFeePercent: -50, baseFee: '-1' }, 100],
    ['fee text with spaces', [tier('1', 100)], 100, { serviceFeePercent: ' 10 ', baseFee: ' 0 ' }, 110],
  ] as const)('%s', (_name, tiers, quantity, fees, cents) => {
    expect(priceOrder(tiers, quantity, fees)).toEqual({ cents });
  });

  it('picks the tier containing the quantity', () => {
    const tiers = [tier('2', 1000, 10, 999), tier('1', 1000, 1000, 5000)];
    expect(priceOrder(tiers, 500, NO_FEES).cents).toBe(100);
    expect(priceOrder(tiers, 1000, NO_FEES).cents).toBe(100);
    expect(priceOrder(tiers, 999, NO_FEES).cents).toBe(200); // 199.8 → 200
    expect(priceOrder(tiers, 5000, NO_FEES).cents).toBe(500);
  });

  it('uses the first matching tier when tiers overlap', () => {
    expect(priceOrder([tier('3'), tier('1')], 1000, NO_FEES).cents).toBe(300);
  });
});

describe('priceOrder: zero cases', () => {
  it.each([
    ['no tiers', [], 100],
    ['quantity 0', [tier('1')], 0],
    ['negative quantity', [tier('1')], -5],
    ['fractional quantity', [tier('1')], 10.5],
    ['NaN quantity', [tier('1')], NaN],
    ['infinite quantity', [tier('1', 1000, 1, Infinity)], Infinity],
    ['below every tier', [tier('1', 1000, 100, 200)], 99],
    ['above every tier', [tier('1', 1000, 100, 200)], 201],
    ['pricingPer 0', [tier('1', 0)], 100],
    ['pricingPer negative', [tier('1', -1000)], 100],
    ['pricingPer NaN', [tier('1', NaN)], 100],
    ['pricingPer not a number', [{ ...tier('1'), pricingPer: '1000' as unknown as number }], 100],
    ['negative price', [tier('-1')], 100],
    ['price not a number', [tier('abc')], 100],
    ['price blank', [tier('')], 100],
    ['price exponent form', [tier('1e3')], 100],
  ] as const)('%s → 0', (_name, tiers, quantity) => {
    expect(priceOrder(tiers, quantity, { serviceFeePercent: 10, baseFee: 5 })).toEqual({ cents: 0 });
  });

  it('refuses a price beyond the safe integer range', () => {
    expect(() => priceOrder([tier('99999999', 1, 1, 2 ** 40)], 2 ** 40, NO_FEES)).toThrow(RangeError);
  });
});

// Generators: decimal prices with up to 8 decimals, fees with up to 4, realistic tiers.
const priceUnits = fc.bigInt({ min: 0n, max: 10n ** 12n }); // price × 10^8 (≤ 10 000 USD)
const feeUnits = fc.bigInt({ min: 0n, max: 10n ** 6n }); // fee × 10^4 (≤ 100)
const perArb = fc.constantFrom(1, 10, 100, 1000, 3, 7);
const tierArb = fc
  .record({ p: priceUnits, per: perArb, minimum: fc.integer({ min: 1, max: 1000 }), span: fc.integer({ min: 0, max: 100_000 }) })
  .map(({ p, per, minimum, span }) => ({ p, tier: tier(decimalText(p, 8), per, minimum, minimum + span) }));

describe('priceOrder: properties', () => {
  it('matches an integer oracle: ceil((price × q / per + base) × (100 + fee%)) cents', () => {
    fc.assert(
      fc.property(tierArb, fc.double({ min: 0, max: 1, noNaN: true }), feeUnits, feeUnits, ({ p, tier: t }, at, f, b) => {
        const q = t.minimum + Math.floor(at * (t.maximum - t.minimum));
        const per = BigInt(t.pricingPer);
        // (P/1e8 × q / per + B/1e4) × (1e6 + F)/1e4 × … all over one common denominator.
        const numerator = (p * BigInt(q) * 10n ** 4n + b * per * 10n ** 8n) * (10n ** 6n + f);
        const expected = ceilDiv(numerator, 10n ** 16n * per);
        const fees = { serviceFeePercent: decimalText(f, 4), baseFee: decimalText(b, 4) };
        expect(priceOrder([t], q, fees).cents).toBe(Number(expected));
      }),
    );
  });

  it('with no fees equals ceil(price / per × quantity × 100)', () => {
    fc.assert(
      fc.property(tierArb, fc.integer({ min: 0, max: 100_000 }), ({ p, tier: t }, offset) => {
        const q = Math.min(t.minimum + offset, t.maximum);
        const expected = ceilDiv(p * BigInt(q) * 100n, BigInt(t.pricingPer) * 10n ** 8n);
        expect(priceOrder([t], q, NO_FEES).cents).toBe(Number(expected));
        if (p > 0n) expect(priceOrder([t], q, NO_FEES).cents).toBeGreaterThanOrEqual(1);
      }),
    );
  });

  it('is non-decreasing in quantity within a tier', () => {
    fc.assert(
      fc.property(tierArb, fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 100_000 }), feeUnits, feeUnits,
        ({ tier: t }, a, c, f, b) => {
          const [q1, q2] = [t.minimum + a, t.minimum + c].map((q) => Math.min(q, t.maximum)).sort((x, y) => x - y) as [number, number];
          const fees = { serviceFeePercent: decimalText(f, 4), baseFee: decimalText(b, 4) };
          expect(priceOrder([t], q1, fees).cents).toBeLessThanOrEqual(priceOrder([t], q2, fees).cents);
        }),
    );
  });

  it('never lowers the price when a fee is raised', () => {
    fc.assert(
      fc.property(tierArb, feeUnits, feeUnits, feeUnits, feeUnits, ({ tier: t }, f, b, df, db) => {
        const q = t.minimum;
        const low = priceOrder([t], q, { serviceFeePercent: decimalText(f, 4), baseFee: decimalText(b, 4) });
        const high = priceOrder([t], q, { serviceFeePercent: decimalText(f + df, 4), baseFee: decimalText(b + db, 4) });
        expect(high.cents).toBeGreaterThanOrEqual(low.cents);
      }),
    );
  });

  it('returns a non-negative safe integer or refuses with RangeError, whatever the input', () => {
    const anyTier = fc.record({
      minimum: fc.integer({ min: -10, max: 1000 }),
      maximum: fc.integer({ min: -10, max: 100_000 }),
      price: fc.oneof(fc.string(), fc.double().map(String), priceUnits.map((p) => decimalText(p, 8))),
      pricingPer: fc.oneof(fc.double(), fc.integer({ min: -5, max: 1000 })),
    });
    const anyFee = fc.oneof(fc.string(), fc.double({ min: -1e6, max: 1e6 }), fc.constantFrom(NaN, Infinity, -Infinity));
    fc.assert(
      fc.property(fc.array(anyTier, { maxLength: 4 }), fc.oneof(fc.integer({ min: -100, max: 100_000 }), fc.double()), anyFee, anyFee,
        (tiers, q, serviceFeePercent, baseFee) => {
          let cents: number;
          try {
            cents = priceOrder(tiers, q, { serviceFeePercent, baseFee }).cents;
          } catch (error) {
            // Only a price beyond the safe integer range (e.g. a tiny pricingPer) is refused.
            expect(error).toBeInstanceOf(RangeError);
            return;
          }
          expect(Number.isSafeInteger(cents)).toBe(true);
          expect(cents).toBeGreaterThanOrEqual(0);
        }),
    );
  });

  it('is 0 for a quantity outside every tier or not a positive integer', () => {
    fc.assert(
      fc.property(tierArb, fc.oneof(fc.integer({ min: -1000, max: 0 }), fc.double({ noInteger: true }), fc.integer({ min: 200_001, max: 10 ** 9 })),
        ({ tier: t }, q) => {
          expect(priceOrder([t], q, { serviceFeePercent: 5, baseFee: 1 }).cents).toBe(0);
        }),
    );
  });
});

describe('pricePerUnitDisplay', () => {
  const service = (type: string, tiers: PriceTier[], name = 'Service') => ({ type, name, tiers });

  it('shows the price per 1000 with the service fee and without the base fee', () => {
    expect(pricePerUnitDisplay(service('Followers', [tier('0.35')]), { serviceFeePercent: 10, baseFee: 5 }))
      .toEqual({ per: 1000, usd: '0.385' });
    expect(pricePerUnitDisplay(service('Likes', [tier('2', 100)]), NO_FEES)).toEqual({ per: 1000, usd: '20.00' });
  });

  it('shows comment services per 10', () => {
    expect(pricePerUnitDisplay(service('Custom Comments', [tier('12.5')]), NO_FEES)).toEqual({ per: 10, usd: '0.125' });
    expect(pricePerUnitDisplay(service('Default', [tier('12')], 'Random Comments'), NO_FEES)).toEqual({ per: 10, usd: '0.12' });
  });

  it('keeps cent fractions up to 4 decimals, rounded up', () => {
    expect(pricePerUnitDisplay(service('Views', [tier('0.0035')]), NO_FEES)?.usd).toBe('0.0035');
    expect(pricePerUnitDisplay(service('Views', [tier('0.00001')]), NO_FEES)?.usd).toBe('0.0001');
    expect(pricePerUnitDisplay(service('Views', [tier('1', 3)]), NO_FEES)?.usd).toBe('333.3334');
    expect(pricePerUnitDisplay(service('Views', [tier('0')]), NO_FEES)?.usd).toBe('0.00');
  });

  it('uses the tier containing the display quantity, else the first tier', () => {
    const tiers = [tier('5', 1000, 1, 999), tier('4', 1000, 1000, 9999)];
    expect(pricePerUnitDisplay(service('Views', tiers), NO_FEES)?.usd).toBe('4.00');
    expect(pricePerUnitDisplay(service('Views', [tier('5', 1000, 50, 500), tier('4', 1000, 501, 900)]), NO_FEES)?.usd).toBe('5.00');
  });

  it('is null without a usable tier', () => {
    expect(pricePerUnitDisplay(service('Views', []), NO_FEES)).toBeNull();
    expect(pricePerUnitDisplay(service('Views', [tier('-1')]), NO_FEES)).toBeNull();
    expect(pricePerUnitDisplay(service('Views', [tier('1', 0)]), NO_FEES)).toBeNull();
  });

  it('is never below the exact per-unit price', () => {
    fc.assert(
      fc.property(priceUnits, perArb, feeUnits, (p, per, f) => {
        const shown = pricePerUnitDisplay(service('Views', [tier(decimalText(p, 8), per)]), { serviceFeePercent: decimalText(f, 4), baseFee: 0 });
        // exact × 10^4 = p/1e8 × 1000 / per × (1e6 + f)/1e6 × 1e4
        const expected = ceilDiv(p * 1000n * (10n ** 6n + f), 10n ** 10n * BigInt(per));
        expect(shown).not.toBeNull();
        const [whole, frac = ''] = shown!.usd.split('.');
        expect(BigInt(whole! + frac.padEnd(4, '0'))).toBe(expected);
        expect(frac.length).toBeGreaterThanOrEqual(2);
      }),
    );
  });
});
