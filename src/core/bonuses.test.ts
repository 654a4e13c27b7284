import { describe, expect, it } from 'vitest';
import { bestBonusRule, couponBonus, normaliseCouponCode, ruleBonusMicros, type BonusRuleTerms, type CouponTerms } from './bonuses';
import { shareOfMicros } from './money';

const at = new Date('2026-11-27T12:00:00Z');
const terms = (id: number, values: Partial<BonusRuleTerms> = {}): BonusRuleTerms => ({ id, method: null, minMicros: 0, percentBp: 1000, capMicros: null, startsAt: null, endsAt: null, enabled: true, ...values });

describe('what a top-up earns', () => {
  it('a share is rounded down to the micro, exactly for the largest top-up', () => {
    expect(shareOfMicros(25_000_000, 1000)).toBe(2_500_000);
    expect(shareOfMicros(333, 5000)).toBe(166);
    expect(shareOfMicros(10_000_000_000, 9999)).toBe(9_999_000_000);
    expect(shareOfMicros(9_007_199_254_740, 10_000)).toBe(9_007_199_254_740);
    expect(() => shareOfMicros(-1, 100)).toThrow(RangeError);
    expect(ruleBonusMicros({ percentBp: 2000, capMicros: 1_500_000 }, 10_000_000)).toBe(1_500_000);
  });

  it('by the rule that gives most, within its period, method and smallest amount; rules do not add up', () => {
    const rules = [
      terms(1, { percentBp: 1000, capMicros: 3_000_000 }),
      terms(2, { method: 'payriff', percentBp: 1500 }),
      terms(3, { percentBp: 5000, startsAt: new Date('2026-11-28T00:00:00Z') }),
      terms(4, { percentBp: 5000, endsAt: at }),
      terms(5, { percentBp: 9000, enabled: false }),
      terms(6, { percentBp: 3000, minMicros: 100_000_000 }),
    ];
    expect(bestBonusRule(rules, { method: 'bank', amountMicros: 50_000_000, at })).toEqual({ ruleId: 1, bonusMicros: 3_000_000 });
    expect(bestBonusRule(rules, { method: 'payriff', amountMicros: 50_000_000, at })).toEqual({ ruleId: 2, bonusMicros: 7_500_000 });
    expect(bestBonusRule(rules, { method: 'bank', amountMicros: 100_000_000, at })).toEqual({ ruleId: 6, bonusMicros: 30_000_000 });
    // Equal bonuses: the older rule.
    expect(bestBonusRule([terms(9), terms(8)], { method: 'bank', amountMicros: 10_000_000, at })).toEqual({ ruleId: 8, bonusMicros: 1_000_000 });
    expect(bestBonusRule([terms(1, { percentBp: 1 })], { method: 'bank', amountMicros: 99, at })).toBeNull();
    expect(bestBonusRule([], { method: 'bank', amountMicros: 10_000_000, at })).toBeNull();
  });

  it('a coupon: a fixed amount or a capped share, refused when off, expired or below its smallest top-up', () => {
    const base: CouponTerms = { kind: 'amount', amountMicros: 2_000_000, percentBp: null, capMicros: null, minTopUpMicros: 10_000_000, expiresAt: new Date('2026-12-01T00:00:00Z'), enabled: true };
    expect(couponBonus(base, 10_000_000, at)).toEqual({ bonusMicros: 2_000_000 });
    expect(couponBonus(base, 9_990_000, at)).toEqual({ refusal: 'COUPON_BELOW_MINIMUM' });
    expect(couponBonus(base, 10_000_000, new Date('2026-12-01T00:00:00Z'))).toEqual({ refusal: 'COUPON_EXPIRED' });
    expect(couponBonus({ ...base, enabled: false }, 10_000_000, at)).toEqual({ refusal: 'COUPON_NOT_FOUND' });
    const share: CouponTerms = { ...base, kind: 'percent', amountMicros: null, percentBp: 750, capMicros: 5_000_000 };
    expect(couponBonus(share, 40_000_000, at)).toEqual({ bonusMicros: 3_000_000 });
    expect(couponBonus(share, 100_000_000, at)).toEqual({ bonusMicros: 5_000_000 });
    expect(normaliseCouponCode('  spring-25 ')).toBe('SPRING-25');
  });
});
