import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHARGE_STEP_MICROS, costDifference, marginMicros, netCostMicros, reportedChargeMicros } from './margin';
import { costOfOrderMicros } from './pricing';

const order = (o: Partial<Parameters<typeof marginMicros>[0] & Parameters<typeof costDifference>[0]> = {}) => ({
  chargeMicros: 1_500_000,
  refundedMicros: 0,
  costMicros: 1_000_000 as number | null,
  costRefundedMicros: 0,
  providerChargeMicros: 1_000_000 as number | null,
  ...o,
});

describe('costDifference', () => {
  it.each([
    [1_000_000, 0, false],
    [1_000_010, 10, false],
    [999_990, -10, false],
    [1_000_011, 11, true],
    [999_989, -11, true],
    [0, -1_000_000, true],
  ])('reported %i against a cost of 1 000 000 → %i, flagged %s', (reported, difference, flagged) => {
    expect(costDifference(order({ providerChargeMicros: reported }))).toEqual({ differenceMicros: difference, flagged });
  });

  it('compares with the cost less what the provider gave back, as providers report their charge after refunds', () => {
    // A partial order: the provider gave back 400 000 of a 1 000 000 cost and reports 600 000.
    expect(costDifference(order({ costRefundedMicros: 400_000, providerChargeMicros: 600_000 }))).toEqual({ differenceMicros: 0, flagged: false });
    // A cancelled one reports nothing charged.
    expect(costDifference(order({ costRefundedMicros: 1_000_000, providerChargeMicros: 0 }))).toEqual({ differenceMicros: 0, flagged: false });
    expect(costDifference(order({ costRefundedMicros: 1_000_000, providerChargeMicros: 11 }))).toEqual({ differenceMicros: 11, flagged: true });
  });

  it('allows two steps for an order the provider gave part of back: its charge and its refund are each rounded', () => {
    const partial = { costRefundedMicros: 400_000 };
    expect(costDifference(order({ ...partial, providerChargeMicros: 600_020 }))).toEqual({ differenceMicros: 20, flagged: false });
    expect(costDifference(order({ ...partial, providerChargeMicros: 599_980 }))).toEqual({ differenceMicros: -20, flagged: false });
    expect(costDifference(order({ ...partial, providerChargeMicros: 600_021 }))).toEqual({ differenceMicros: 21, flagged: true });
    expect(costDifference(order({ ...partial, providerChargeMicros: 599_979 }))).toEqual({ differenceMicros: -21, flagged: true });
  });

  it('is null when the cost or the reported charge is not known', () => {
    expect(costDifference(order({ costMicros: null }))).toBeNull();
    expect(costDifference(order({ providerChargeMicros: null }))).toBeNull();
  });

  it("never flags a v2 panel's 5-decimal charge (half up) of the price the shop's cost is rounded up to the micro from", () => {
    // rate per 1000 with up to 8 decimals, as v2 catalogues are read; any quantity.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999_999 }), fc.integer({ min: 1, max: 1_000_000 }), (rateUnits, quantity) => {
        const rate = new Big(rateUnits).div(1e8).toFixed();
        const cost = costOfOrderMicros([{ minimum: 1, maximum: 1_000_000, price: rate, pricingPer: 1000 }], quantity);
        const panel = new Big(rate).times(quantity).div(1000).round(5, Big.roundHalfUp).toFixed(5);
        const reported = reportedChargeMicros({ charge: panel, currency: 'USD' }) as number;
        const d = costDifference({ costMicros: cost, costRefundedMicros: 0, providerChargeMicros: reported })!;
        expect(Math.abs(d.differenceMicros)).toBeLessThanOrEqual(CHARGE_STEP_MICROS);
        expect(d.flagged).toBe(false);
      }),
    );
  });

  it('allows a micro per run beyond the first for a drip-feed sent whole, whose cost was rounded up run by run', () => {
    const drip = { upstreamDrip: true, runs: 20 };
    expect(costDifference(order({ ...drip, providerChargeMicros: 999_971 }))).toEqual({ differenceMicros: -29, flagged: false });
    expect(costDifference(order({ ...drip, providerChargeMicros: 999_970 }))).toEqual({ differenceMicros: -30, flagged: true });
    // Only for one sent whole: a drip-feed sent run by run is compared run by run.
    expect(costDifference(order({ upstreamDrip: false, runs: 20, providerChargeMicros: 999_971 }))!.flagged).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999_999 }), fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 2, max: 200 }), (rateUnits, perRun, runs) => {
        const rate = new Big(rateUnits).div(1e8).toFixed();
        const cost = costOfOrderMicros([{ minimum: 1, maximum: 100_000, price: rate, pricingPer: 1000 }], perRun) * runs;
        const panel = new Big(rate).times(perRun * runs).div(1000).round(5, Big.roundHalfUp).toFixed(5);
        const reported = reportedChargeMicros({ charge: panel, currency: 'USD' }) as number;
        expect(costDifference({ costMicros: cost, costRefundedMicros: 0, providerChargeMicros: reported, upstreamDrip: true, runs })!.flagged).toBe(false);
      }),
    );
  });

  it('takes one step of 4 decimals (100 micros) for a QQTube-style provider, which charges its cost rounded up to 4 decimals', () => {
    const qq = { protocol: 'qqtube' };
    expect(costDifference(order({ ...qq, providerChargeMicros: 1_000_100 }))).toEqual({ differenceMicros: 100, flagged: false });
    expect(costDifference(order({ ...qq, providerChargeMicros: 1_000_101 }))).toEqual({ differenceMicros: 101, flagged: true });
    expect(costDifference(order({ ...qq, costRefundedMicros: 400_000, providerChargeMicros: 600_200 }))!.flagged).toBe(false);
    expect(costDifference(order({ ...qq, costRefundedMicros: 400_000, providerChargeMicros: 600_201 }))!.flagged).toBe(true);
    expect(costDifference(order({ protocol: 'smm-v2', providerChargeMicros: 1_000_011 }))!.flagged).toBe(true);
    expect(costDifference(order({ protocol: null, providerChargeMicros: 1_000_011 }))!.flagged).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999_999 }), fc.constantFrom(1, 10, 100, 1000), fc.integer({ min: 1, max: 1_000_000 }), (priceUnits, per, quantity) => {
        const price = new Big(priceUnits).div(1e8).toFixed();
        const cost = costOfOrderMicros([{ minimum: 1, maximum: 1_000_000, price, pricingPer: per }], quantity);
        const charged = new Big(price).div(per).times(quantity).round(4, Big.roundUp).toFixed(4);
        const reported = reportedChargeMicros({ charge: charged, currency: null }) as number;
        expect(costDifference({ costMicros: cost, costRefundedMicros: 0, providerChargeMicros: reported, protocol: 'qqtube' })!.flagged).toBe(false);
      }),
    );
  });
});

describe('marginMicros', () => {
  it('is charge − refunded − cost + cost given back, exactly', () => {
    expect(marginMicros(order())).toBe(500_000);
    expect(marginMicros(order({ chargeMicros: 21_272, costMicros: 17_017 }))).toBe(4_255);
    // A partial order: the customer got 600 000 back, the provider gave back 400 000 of its cost.
    expect(marginMicros(order({ refundedMicros: 600_000, costRefundedMicros: 400_000 }))).toBe(300_000);
    // Refunded in full on both sides: nothing earned, nothing lost.
    expect(marginMicros(order({ refundedMicros: 1_500_000, costRefundedMicros: 1_000_000 }))).toBe(0);
  });

  it('is negative when the order lost money: a goodwill refund gives back nothing of the cost', () => {
    expect(marginMicros(order({ refundedMicros: 1_500_000 }))).toBe(-1_000_000);
    expect(marginMicros(order({ chargeMicros: 999_999 }))).toBe(-1);
  });

  it('is null when the cost is not known, and whole integers at the largest amounts', () => {
    expect(marginMicros(order({ costMicros: null }))).toBeNull();
    expect(netCostMicros({ costMicros: null, costRefundedMicros: 0 })).toBeNull();
    const big = Number.MAX_SAFE_INTEGER;
    expect(marginMicros(order({ chargeMicros: big, costMicros: big - 1 }))).toBe(1);
  });
});

describe('reportedChargeMicros', () => {
  it.each([
    [{ charge: '0.12345', currency: 'USD' }, 123_450],
    [{ charge: '1.2', currency: 'usd' }, 1_200_000],
    [{ charge: ' 0.000001 ', currency: ' USD ' }, 1],
    [{ charge: '0.1234', currency: null }, 123_400],
    [{ charge: '0.00000', currency: 'USD' }, 0],
  ])('reads %j → %i micro-dollars', (state, micros) => {
    expect(reportedChargeMicros(state)).toBe(micros);
  });

  it('is null when no charge was reported', () => {
    expect(reportedChargeMicros({ charge: null, currency: 'USD' })).toBeNull();
  });

  it.each([
    [{ charge: '1.00', currency: 'EUR' }, 'currency'],
    [{ charge: '1.00', currency: 'RUB' }, 'currency'],
    [{ charge: '0.0000001', currency: 'USD' }, 'unparsable'],
    [{ charge: '-1', currency: 'USD' }, 'unparsable'],
    [{ charge: '1e3', currency: 'USD' }, 'unparsable'],
    [{ charge: 'n/a', currency: 'USD' }, 'unparsable'],
    [{ charge: '', currency: 'USD' }, 'unparsable'],
  ])('does not read %j (%s)', (state, unread) => {
    expect(reportedChargeMicros(state)).toEqual({ unread });
  });
});
