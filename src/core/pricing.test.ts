import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PriceTier } from './catalog';
import { isQuantityAllowed, quantityBounds } from './orderRules';
import { baseFeeMicros, costOfOrderMicros, displayQuantity, markedUpTiers, priceOrder, pricePerUnitDisplay, ratePer1000Micros } from './pricing';

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
    ['0.35 per 1000 × 1000', [tier('0.35')], 1000, NO_FEES, 350_000],
    ['0.35 per 1000 × 1', [tier('0.35')], 1, NO_FEES, 350], // 0.00035 USD, to the micro
    ['1.2 per 1000 × 2500', [tier('1.2')], 2500, NO_FEES, 3_000_000],
    ['fees as numbers', [tier('0.35')], 1000, { serviceFeePercent: 10, baseFee: 0.5 }, 935_000], // 0.385 + 0.55
    ['fees as strings', [tier('0.35')], 1000, { serviceFeePercent: '10', baseFee: '0.5' }, 935_000],
    ['per 1', [tier('0.01', 1)], 7, NO_FEES, 70_000],
    ['per 3, a third', [tier('1', 3)], 1, NO_FEES, 333_334], // rate 333.33334 per 1000
    ['tiny price', [tier('0.00000001')], 1, NO_FEES, 1], // at least one micro
    ['free service with a base fee', [tier('0')], 100, { serviceFeePercent: 0, baseFee: '0.25' }, 250_000],
    ['free service, no fees', [tier('0')], 100, NO_FEES, 0],
    ['a fee that does not fall on a cent', [tier('1', 100)], 100, { serviceFeePercent: '2.5', baseFee: 0 }, 1_025_000],
    ['non-numeric fees count as 0', [tier('1', 100)], 100, { serviceFeePercent: 'abc', baseFee: '' }, 1_000_000],
    ['negative fees count as 0', [tier('1', 100)], 100, { serviceFeePercent: -50, baseFee: '-1' }, 1_000_000],
    ['fee text with spaces', [tier('1', 100)], 100, { serviceFeePercent: ' 10 ', baseFee: ' 0 ' }, 1_100_000],
  ] as const)('%s', (_name, tiers, quantity, fees, micros) => {
    expect(priceOrder(tiers, quantity, fees)).toEqual({ micros });
  });

  it('charges a rate of 0.21272 per 1000 × 1000 exactly 212 720 micros, not a rounded-up 0.22', () => {
    // 0.2 per 1000 with a 6.36 % service fee is 0.21272 per 1000.
    expect(priceOrder([tier('0.2')], 1000, { serviceFeePercent: '6.36', baseFee: 0 })).toEqual({ micros: 212_720 });
    expect(priceOrder([tier('0.21272')], 1000, NO_FEES)).toEqual({ micros: 212_720 });
    // 4.55 per 1000 × 1 is 0.00455, not a whole cent.
    expect(priceOrder([tier('4.55')], 1, NO_FEES)).toEqual({ micros: 4_550 });
  });

  it('rounds the rate up to 5 decimals, then the charge up to the micro', () => {
    // 1/3 per 1000 → rate 0.33334; × 7 / 1000 = 0.00233338 → 0.002334.
    expect(priceOrder([tier('1', 3000)], 7, NO_FEES)).toEqual({ micros: 2_334 });
    // With a 10 % fee: rate 0.36667; 0.00256669 → 0.002567, and the base fee with the fee on it,
    // 0.333333 × 1.1 = 0.3666663 → 0.366667.
    expect(priceOrder([tier('1', 3000)], 7, { serviceFeePercent: 10, baseFee: '0.333333' })).toEqual({ micros: 2_567 + 366_667 });
    expect(priceOrder([tier('0')], 1, { serviceFeePercent: 10, baseFee: '0.333333' })).toEqual({ micros: 366_667 });
  });

  it('picks the tier containing the quantity', () => {
    const tiers = [tier('2', 1000, 10, 999), tier('1', 1000, 1000, 5000)];
    expect(priceOrder(tiers, 500, NO_FEES).micros).toBe(1_000_000);
    expect(priceOrder(tiers, 1000, NO_FEES).micros).toBe(1_000_000);
    expect(priceOrder(tiers, 999, NO_FEES).micros).toBe(1_998_000);
    expect(priceOrder(tiers, 5000, NO_FEES).micros).toBe(5_000_000);
  });

  it('uses the first matching tier when tiers overlap', () => {
    expect(priceOrder([tier('3'), tier('1')], 1000, NO_FEES).micros).toBe(3_000_000);
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
    expect(priceOrder(tiers, quantity, { serviceFeePercent: 10, baseFee: 5 })).toEqual({ micros: 0 });
  });

  it('refuses a price beyond the safe integer range', () => {
    expect(() => priceOrder([tier('99999999', 1, 1, 2 ** 40)], 2 ** 40, NO_FEES)).toThrow(RangeError);
    expect(() => priceOrder([tier('9999', 1, 1, 2 ** 40)], 2 ** 40, NO_FEES)).toThrow(RangeError);
  });
});

// Generators: decimal prices with up to 8 decimals, fees with up to 4, realistic tiers.
const priceUnits = fc.bigInt({ min: 0n, max: 10n ** 12n }); // price × 10^8 (≤ 10 000 USD)
const feeUnits = fc.bigInt({ min: 0n, max: 10n ** 6n }); // fee × 10^4 (≤ 100)
const perArb = fc.constantFrom(1, 10, 100, 1000, 3, 7);
const tierArb = fc
  .record({ p: priceUnits, per: perArb, minimum: fc.integer({ min: 1, max: 1000 }), span: fc.integer({ min: 0, max: 100_000 }) })
  .map(({ p, per, minimum, span }) => ({ p, tier: tier(decimalText(p, 8), per, minimum, minimum + span) }));

/** The rule, in integers: the rate in 10^-5 USD per 1000 units, rounded up (P = price × 10^8, F = fee % × 10^4). */
const oracleRate = (p: bigint, per: number, f: bigint) => ceilDiv(p * (10n ** 6n + f), 10n ** 6n * BigInt(per));
/** The base fee with the service fee on it, in micros, rounded up (B = base × 10^4). */
const oracleBase = (b: bigint, f: bigint) => ceilDiv(b * (10n ** 6n + f), 10n ** 4n);

describe('priceOrder: properties', () => {
  it('matches an integer oracle: ceil_micro(rate × q / 1000) + ceil_micro(base × (100 + fee%) / 100), rate rounded up to 5 decimals', () => {
    fc.assert(
      fc.property(tierArb, fc.double({ min: 0, max: 1, noNaN: true }), feeUnits, feeUnits, ({ p, tier: t }, at, f, b) => {
        const q = t.minimum + Math.floor(at * (t.maximum - t.minimum));
        const expected = ceilDiv(oracleRate(p, t.pricingPer, f) * 10n * BigInt(q), 1000n) + oracleBase(b, f);
        const fees = { serviceFeePercent: decimalText(f, 4), baseFee: decimalText(b, 4) };
        expect(priceOrder([t], q, fees).micros).toBe(Number(expected));
      }),
    );
  });

  it('never charges less than the exact price, and at most 10 micros per 1000 units and 2 micros more', () => {
    fc.assert(
      fc.property(tierArb, fc.double({ min: 0, max: 1, noNaN: true }), feeUnits, feeUnits, ({ p, tier: t }, at, f, b) => {
        const q = t.minimum + Math.floor(at * (t.maximum - t.minimum));
        const fees = { serviceFeePercent: decimalText(f, 4), baseFee: decimalText(b, 4) };
        // The exact price in micros, × 10^8 × per: (P/10^8 × q/per + B/10^4) × (10^6 + F).
        const scale = 10n ** 8n * BigInt(t.pricingPer);
        const exact = (p * BigInt(q) + b * BigInt(t.pricingPer) * 10n ** 4n) * (10n ** 6n + f);
        const charged = BigInt(priceOrder([t], q, fees).micros) * scale;
        expect(charged >= exact).toBe(true);
        expect(charged - exact < (10n * BigInt(q) / 1000n + 3n) * scale).toBe(true);
      }),
    );
  });

  it('with no fees equals ceil_micro(rate × quantity / 1000) and costs at least one micro when the price is not 0', () => {
    fc.assert(
      fc.property(tierArb, fc.integer({ min: 0, max: 100_000 }), ({ p, tier: t }, offset) => {
        const q = Math.min(t.minimum + offset, t.maximum);
        const expected = ceilDiv(oracleRate(p, t.pricingPer, 0n) * 10n * BigInt(q), 1000n);
        expect(priceOrder([t], q, NO_FEES).micros).toBe(Number(expected));
        if (p > 0n) expect(priceOrder([t], q, NO_FEES).micros).toBeGreaterThanOrEqual(1);
      }),
    );
  });

  it('is non-decreasing in quantity within a tier', () => {
    fc.assert(
      fc.property(tierArb, fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 100_000 }), feeUnits, feeUnits,
        ({ tier: t }, a, c, f, b) => {
          const [q1, q2] = [t.minimum + a, t.minimum + c].map((q) => Math.min(q, t.maximum)).sort((x, y) => x - y) as [number, number];
          const fees = { serviceFeePercent: decimalText(f, 4), baseFee: decimalText(b, 4) };
          expect(priceOrder([t], q1, fees).micros).toBeLessThanOrEqual(priceOrder([t], q2, fees).micros);
        }),
    );
  });

  it('never lowers the price when a fee is raised', () => {
    fc.assert(
      fc.property(tierArb, feeUnits, feeUnits, feeUnits, feeUnits, ({ tier: t }, f, b, df, db) => {
        const q = t.minimum;
        const low = priceOrder([t], q, { serviceFeePercent: decimalText(f, 4), baseFee: decimalText(b, 4) });
        const high = priceOrder([t], q, { serviceFeePercent: decimalText(f + df, 4), baseFee: decimalText(b + db, 4) });
        expect(high.micros).toBeGreaterThanOrEqual(low.micros);
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
          let micros: number;
          try {
            micros = priceOrder(tiers, q, { serviceFeePercent, baseFee }).micros;
          } catch (error) {
            // Only a price beyond the safe integer range (e.g. a tiny pricingPer) is refused.
            expect(error).toBeInstanceOf(RangeError);
            return;
          }
          expect(Number.isSafeInteger(micros)).toBe(true);
          expect(micros).toBeGreaterThanOrEqual(0);
        }),
    );
  });

  it('is 0 for a quantity outside every tier or not a positive integer', () => {
    fc.assert(
      fc.property(tierArb, fc.oneof(fc.integer({ min: -1000, max: 0 }), fc.double({ noInteger: true }), fc.integer({ min: 200_001, max: 10 ** 9 })),
        ({ tier: t }, q) => {
          expect(priceOrder([t], q, { serviceFeePercent: 5, baseFee: 1 }).micros).toBe(0);
        }),
    );
  });
});

describe('pricePerUnitDisplay', () => {
  const service = (type: string, tiers: PriceTier[], name = 'Service') => ({ type, name, tiers });

  it('shows the price per 1000 with the service fee and without the base fee', () => {
    expect(pricePerUnitDisplay(service('Followers', [tier('0.35')]), { serviceFeePercent: 10, baseFee: 5 }))
      .toEqual({ per: 1000, micros: 385_000, usd: '0.385' });
    expect(pricePerUnitDisplay(service('Likes', [tier('2', 100)]), NO_FEES)).toEqual({ per: 1000, micros: 20_000_000, usd: '20.00' });
  });

  it('shows comment services per 10', () => {
    expect(pricePerUnitDisplay(service('Custom Comments', [tier('12.5')]), NO_FEES)).toEqual({ per: 10, micros: 125_000, usd: '0.125' });
    expect(pricePerUnitDisplay(service('Default', [tier('12')], 'Random Comments'), NO_FEES)).toEqual({ per: 10, micros: 120_000, usd: '0.12' });
    // A rate of 0.00001 per 1000 is 0.0000001 per 10: shown as the micro 10 comments cost.
    expect(pricePerUnitDisplay(service('Custom Comments', [tier('0.00001')]), NO_FEES)?.usd).toBe('0.000001');
  });

  it('keeps the rate\'s fractions of a cent, up to 5 decimals, rounded up', () => {
    expect(pricePerUnitDisplay(service('Views', [tier('0.0035')]), NO_FEES)?.usd).toBe('0.0035');
    expect(pricePerUnitDisplay(service('Views', [tier('0.21272')]), NO_FEES)?.usd).toBe('0.21272');
    expect(pricePerUnitDisplay(service('Views', [tier('0.00001')]), NO_FEES)?.usd).toBe('0.00001');
    expect(pricePerUnitDisplay(service('Views', [tier('0.000001')]), NO_FEES)?.usd).toBe('0.00001');
    expect(pricePerUnitDisplay(service('Views', [tier('1', 3)]), NO_FEES)?.usd).toBe('333.33334');
    expect(pricePerUnitDisplay(service('Views', [tier('0')]), NO_FEES)?.usd).toBe('0.00');
  });

  it('uses the tier of the quantity a customer can order nearest the display quantity, else the first tier', () => {
    // Orderable up to the first tier's maximum (src/core/orderRules.ts): 1000 cannot be ordered,
    // 999 can, and is charged at 5 per 1000; the tier from 1000 is never charged.
    expect(pricePerUnitDisplay(service('Views', [tier('5', 1000, 1, 999), tier('4', 1000, 1000, 9999)]), NO_FEES)?.usd).toBe('5.00');
    expect(pricePerUnitDisplay(service('Views', [tier('5', 1000, 50, 500), tier('4', 1000, 501, 900)]), NO_FEES)?.usd).toBe('5.00');
    // Two tiers as a provider lists them (100–400 at 0.9834, 500–5000 at 0.8556), steps of 100.
    const twoTiers = { ...service('Followers', [tier('0.9834', 1000, 100, 400), tier('0.8556', 1000, 500, 5000)]), amountMinimum: 100, amountIncrement: 100 };
    expect(pricePerUnitDisplay(twoTiers, { serviceFeePercent: 10, baseFee: 0 })?.usd).toBe('1.08174');
    expect(ratePer1000Micros(twoTiers, NO_FEES)).toBe(983_400);
    // 1000 orderable: its own tier, even when it is not the first.
    expect(pricePerUnitDisplay(service('Views', [tier('4', 1000, 1000, 9999), tier('5', 1000, 1, 999)]), NO_FEES)?.usd).toBe('4.00');
    // A minimum above 1000 (or 10 for comments): the tier holding the minimum.
    expect(pricePerUnitDisplay({ ...service('Custom Comments', [tier('9', 1000, 100, 5000), tier('12', 1000, 20, 99)]), amountMinimum: 20 }, NO_FEES)?.usd).toBe('0.12');
  });

  it('shows a rate an order can be charged by: the lines of an order of the display quantity add up to its price', () => {
    // 1–3 contiguous tiers, a minimum and a step; the quantity the rate is for is one the order form
    // accepts, and rate × quantity / 1000 + base fee is what priceOrder charges for it.
    const arb = fc.record({
      min: fc.integer({ min: 1, max: 3000 }),
      step: fc.constantFrom(1, 5, 10, 100, 1000),
      widths: fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 3 }),
      prices: fc.array(fc.integer({ min: 0, max: 10 ** 7 }), { minLength: 3, maxLength: 3 }),
      comments: fc.boolean(),
      fee: fc.integer({ min: 0, max: 100_000 }),
      base: fc.integer({ min: 0, max: 10_000 }),
    });
    fc.assert(
      fc.property(arb, ({ min, step, widths, prices, comments, fee, base }) => {
        let from = min;
        const tiers = widths.map((w, i) => {
          const t = tier(decimalText(BigInt(prices[i]!), 4), 1000, from, from + w);
          from += w + 1;
          return t;
        });
        const s = { ...service(comments ? 'Custom Comments' : 'Followers', tiers), amountMinimum: min, amountIncrement: step };
        const fees = { serviceFeePercent: decimalText(BigInt(fee), 4), baseFee: decimalText(BigInt(base), 4) };
        const shown = pricePerUnitDisplay(s, fees)!;
        const q = displayQuantity(s, shown.per);
        expect(isQuantityAllowed(q, quantityBounds(s))).toBe(true);
        const rate = ratePer1000Micros(s, fees, shown.per)!;
        expect(priceOrder(tiers, q, fees).micros).toBe(Math.ceil((rate * q) / 1000) + baseFeeMicros(fees));
      }),
    );
  });

  it('is null without a usable tier', () => {
    expect(pricePerUnitDisplay(service('Views', []), NO_FEES)).toBeNull();
    expect(pricePerUnitDisplay(service('Views', [tier('-1')]), NO_FEES)).toBeNull();
    expect(pricePerUnitDisplay(service('Views', [tier('1', 0)]), NO_FEES)).toBeNull();
  });

  it('is the rate rounded up to 5 decimals, never below the exact price', () => {
    fc.assert(
      fc.property(priceUnits, perArb, feeUnits, (p, per, f) => {
        const shown = pricePerUnitDisplay(service('Views', [tier(decimalText(p, 8), per)]), { serviceFeePercent: decimalText(f, 4), baseFee: 0 });
        expect(shown).not.toBeNull();
        const [whole, frac = ''] = shown!.usd.split('.');
        expect(frac.length).toBeGreaterThanOrEqual(2);
        expect(frac.length).toBeLessThanOrEqual(5);
        expect(BigInt(whole! + frac.padEnd(5, '0'))).toBe(oracleRate(p, per, f));
      }),
    );
  });

  it('is what the shown quantity costs, by the very function orders are charged by', () => {
    fc.assert(
      fc.property(priceUnits, perArb, feeUnits, fc.constantFrom('Views', 'Custom Comments'), (p, per, f, type) => {
        const tiers = [tier(decimalText(p, 8), per, 1, 100_000)];
        const fees = { serviceFeePercent: decimalText(f, 4), baseFee: 0 };
        const shown = pricePerUnitDisplay(service(type, tiers), fees)!;
        expect(shown.micros).toBe(priceOrder(tiers, shown.per, fees).micros);
      }),
    );
  });
});

describe('costOfOrderMicros: what an order costs at a provider’s price', () => {
  const tiers: PriceTier[] = [
    { minimum: 100, maximum: 999, price: '0.3333', pricingPer: 1000 },
    { minimum: 1000, maximum: 5000, price: '0.25', pricingPer: 1000 },
  ];
  it('is price × quantity / pricingPer by the tier holding the quantity, rounded up to the micro', () => {
    expect(costOfOrderMicros(tiers, 100)).toBe(33_330);
    expect(costOfOrderMicros(tiers, 101)).toBe(33_664); // 0.0336633 → up
    expect(costOfOrderMicros(tiers, 1000)).toBe(250_000);
    expect(costOfOrderMicros([{ minimum: 1, maximum: 10, price: '0.01', pricingPer: 3 }], 1)).toBe(3_334);
  });
  it('is 0 outside every tier, for a quantity that is not a positive integer, and for unusable tiers', () => {
    expect(costOfOrderMicros(tiers, 99)).toBe(0);
    expect(costOfOrderMicros(tiers, 5001)).toBe(0);
    expect(costOfOrderMicros(tiers, 1.5)).toBe(0);
    expect(costOfOrderMicros([{ minimum: 1, maximum: 10, price: 'x', pricingPer: 1000 }], 5)).toBe(0);
  });
  it('never counts less than the exact cost, by less than a micro-dollar', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 1_000_000 }), (priceMicros, per, quantity) => {
        const price = (priceMicros / 1e6).toFixed(6);
        const cost = costOfOrderMicros([{ minimum: 1, maximum: 1_000_000, price, pricingPer: per }], quantity);
        const exact = BigInt(priceMicros) * BigInt(quantity); // × 10^-6 / per, in micros: exact / per
        expect(BigInt(cost) * BigInt(per) >= exact).toBe(true);
        expect((BigInt(cost) - 1n) * BigInt(per) < exact).toBe(true);
      }),
    );
  });
});

describe('markedUpTiers: a service’s selling price from its provider’s', () => {
  const tiers: PriceTier[] = [{ minimum: 100, maximum: 5000, price: '3.2266', pricingPer: 1000 }];
  it('keeps the price with no markup, and adds the percent and the fixed amount per 1000 units', () => {
    expect(markedUpTiers(tiers, { percent: '0', fixedPer1000: '0' })).toEqual(tiers);
    expect(markedUpTiers(tiers, { percent: '10', fixedPer1000: '0' })[0]!.price).toBe('3.54926');
    expect(markedUpTiers(tiers, { percent: '0', fixedPer1000: '0.5' })[0]!.price).toBe('3.7266');
    expect(markedUpTiers([{ minimum: 1, maximum: 10, price: '0.2', pricingPer: 100 }], { percent: '50', fixedPer1000: '0.1' })[0]!.price).toBe('0.31');
  });
  it('rounds up to 8 decimals and keeps bounds and pricingPer', () => {
    const [t] = markedUpTiers([{ minimum: 5, maximum: 50, price: '0.00000001', pricingPer: 7 }], { percent: '50', fixedPer1000: '0' });
    expect(t).toEqual({ minimum: 5, maximum: 50, price: '0.00000002', pricingPer: 7 });
  });
});

describe('markedUpTiers: exact figures and a property', () => {
  it('keeps the provider price to the 8th decimal: no markup changes nothing, a markup is exact', () => {
    expect(markedUpTiers([tier('1.5692')], { percent: '0', fixedPer1000: '0' })).toEqual([tier('1.5692')]);
    expect(markedUpTiers([tier('1.5692')], { percent: '25', fixedPer1000: '0' })).toEqual([tier('1.9615')]);
    expect(markedUpTiers([tier('0.738')], { percent: '25', fixedPer1000: '0.5' })).toEqual([tier('1.4225')]);
    // The fixed amount is per 1000 units: a tier priced per 10 takes a hundredth of it.
    expect(markedUpTiers([tier('0.2', 10)], { percent: '0', fixedPer1000: '1' })).toEqual([tier('0.21', 10)]);
    // Rounded up at the 8th decimal, never below the exact figure.
    expect(markedUpTiers([tier('0.00000001')], { percent: '50', fixedPer1000: '0' })).toEqual([tier('0.00000002')]);
  });

  it('is price × (100 + percent) / 100 + fixed × pricingPer / 1000, rounded up to 8 decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10_000n }), fc.bigInt({ min: 0n, max: 10n ** 8n }), fc.constantFrom(1, 10, 100, 1000), (p, pct, fx, per) => {
        const [out] = markedUpTiers([tier(decimalText(p, 8), per)], { percent: decimalText(pct, 2), fixedPer1000: decimalText(fx, 6) });
        // In units of 10^-8 USD: p × (10000 + pct) / 10000 + fx × 100 × per / 1000.
        const exact = ceilDiv(p * (10_000n + pct) * 1000n + fx * 100n * BigInt(per) * 10_000n, 10_000n * 1000n);
        const [whole, frac = ''] = out!.price.split('.');
        expect(BigInt(whole! + frac.padEnd(8, '0'))).toBe(exact);
      }),
    );
  });
});

describe('a customer discount (docs/decisions/0020)', () => {
  it('comes off the list rate of 5 decimals, rounded up to 5 decimals again, before the charge is computed', () => {
    const fees = { serviceFeePercent: '6.36', baseFee: 0 };
    // List rate 0.21272; 10 % off: 0.191448 → 0.19145.
    expect(ratePer1000Micros({ tiers: [tier('0.2')] }, fees)).toBe(212_720);
    expect(ratePer1000Micros({ tiers: [tier('0.2')] }, { ...fees, discountPercent: '10' })).toBe(191_450);
    expect(priceOrder([tier('0.2')], 1000, { ...fees, discountPercent: '10' })).toEqual({ micros: 191_450 });
    // 0.19145 × 3333 / 1000 = 0.63810285 → 638 103 micros.
    expect(priceOrder([tier('0.2')], 3333, { ...fees, discountPercent: '10' })).toEqual({ micros: 638_103 });
    // 12.34 % off 1.00000: 0.8766 exactly.
    expect(priceOrder([tier('1')], 1000, { ...NO_FEES, discountPercent: '12.34' })).toEqual({ micros: 876_600 });
  });

  it('comes off the base fee too, rounded up to the micro', () => {
    // Rate 0.385 → 0.3465; base fee 0.55 → 0.495.
    const fees = { serviceFeePercent: 10, baseFee: '0.5', discountPercent: 10 };
    expect(baseFeeMicros(fees)).toBe(495_000);
    expect(priceOrder([tier('0.35')], 1000, fees)).toEqual({ micros: 346_500 + 495_000 });
    // 0.333333 × 1.1 = 0.3666663 → 366 667; 7.5 % off: 339 166.975 → 339 167.
    expect(baseFeeMicros({ serviceFeePercent: 10, baseFee: '0.333333', discountPercent: '7.5' })).toBe(339_167);
  });

  it('never takes a price to 0: the smallest rate stays one step of the fifth decimal', () => {
    expect(ratePer1000Micros({ tiers: [tier('0.00001')] }, { ...NO_FEES, discountPercent: 90 })).toBe(10);
    expect(priceOrder([tier('0.00001')], 1, { ...NO_FEES, discountPercent: 90 })).toEqual({ micros: 1 });
  });

  it('counts 0, missing, not a number or negative as no discount, and more than 90 % as 90 %', () => {
    const list = priceOrder([tier('1.23')], 777, NO_FEES).micros;
    for (const d of [0, '0', '', 'abc', -5, '-10', undefined]) expect(priceOrder([tier('1.23')], 777, { ...NO_FEES, discountPercent: d }).micros).toBe(list);
    expect(ratePer1000Micros({ tiers: [tier('1')] }, { ...NO_FEES, discountPercent: 95 })).toBe(100_000);
  });

  it('shows the price per 1000 (per 10) by the discounted rate', () => {
    const views = { tiers: [tier('0.2')], type: 'Followers', name: 'Followers' };
    expect(pricePerUnitDisplay(views, { serviceFeePercent: '6.36', baseFee: 0, discountPercent: '10' })).toEqual({ per: 1000, micros: 191_450, usd: '0.19145' });
    const comments = { tiers: [tier('12.5')], type: 'Custom Comments', name: 'Comments' };
    // 12.5 → 11.25 per 1000; 10 cost 0.1125.
    expect(pricePerUnitDisplay(comments, { ...NO_FEES, discountPercent: '10' })).toEqual({ per: 10, micros: 112_500, usd: '0.1125' });
  });

  it('keeps charge = rate × quantity / 1000 (to the micro) plus the base fee, for any discount of 0.01 % steps', () => {
    fc.assert(
      fc.property(tierArb, fc.double({ min: 0, max: 1, noNaN: true }), feeUnits, feeUnits, fc.integer({ min: 0, max: 9000 }), ({ p, tier: t }, at, f, b, d) => {
        const q = t.minimum + Math.floor(at * (t.maximum - t.minimum));
        const fees = { serviceFeePercent: decimalText(f, 4), baseFee: decimalText(b, 4), discountPercent: decimalText(BigInt(d), 2) };
        // The list rate in 10^-5 steps, then the discount in integers: ceil(rate × (10000 − d) / 10000).
        const rate = ceilDiv(oracleRate(p, t.pricingPer, f) * (10_000n - BigInt(d)), 10_000n);
        const base = ceilDiv(oracleBase(b, f) * (10_000n - BigInt(d)), 10_000n);
        expect(ratePer1000Micros({ tiers: [t] }, fees, q)).toBe(Number(rate * 10n));
        expect(priceOrder([t], q, fees).micros).toBe(Number(ceilDiv(rate * 10n * BigInt(q), 1000n) + base));
      }),
    );
  });
});

describe('amounts given as numbers', () => {
  it('are read as the decimal text they print as, exponent forms included, like the same text', () => {
    const fees = (serviceFeePercent: string | number, baseFee: string | number) => ({ serviceFeePercent, baseFee });
    expect(priceOrder([tier('0.2')], 1000, fees(6.36, 0.25))).toEqual(priceOrder([tier('0.2')], 1000, fees('6.36', '0.25')));
    // 1e-7 prints as "1e-7": a ten-millionth of a percent still raises the rate by one step.
    expect(ratePer1000Micros({ tiers: [tier('0.2')] }, fees(1e-7, 0))).toBe(200_010);
    expect(ratePer1000Micros({ tiers: [tier('0.2')] }, fees(0, 0))).toBe(200_000);
    // 1e21 prints as "1e+21": far beyond the safe range, refused rather than misread.
    expect(() => baseFeeMicros(fees(0, 1e21))).toThrow(RangeError);
    expect(costOfOrderMicros([{ ...tier('0.5'), pricingPer: 2.5 }], 5)).toBe(1_000_000);
  });
});
