import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from './orderStatus';
import { priceOrder } from './pricing';
import type { ServiceParam } from './catalog';
import { microsToUsd, ratePer1000, V2_STATUSES, v2Status, v2TypeOf } from './resellerApi';

const tier = (price: string, pricingPer = 1000, minimum = 10, maximum = 100_000) => ({ minimum, maximum, price, pricingPer });
const NO_FEES = { serviceFeePercent: 0, baseFee: 0 };

/** A protocol amount as an integer of 10^-5 USD, read as a client reads it: "0.21272" → 21272n. */
const fifths = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  expect(fraction.length).toBeLessThanOrEqual(5);
  return BigInt(whole! + fraction.padEnd(5, '0'));
};
/** 10^-5 USD as the protocol writes them. */
const fifthsText = (n: bigint) => microsToUsd(Number(n) * 10, 'up');

describe('reseller API figures', () => {
  it('gives the rate per 1000 with the service fee, rounded up to 5 decimals', () => {
    expect(ratePer1000({ tiers: [tier('0.35')] }, NO_FEES)).toBe('0.35');
    expect(ratePer1000({ tiers: [tier('0.35')] }, { serviceFeePercent: 10, baseFee: 0 })).toBe('0.385');
    expect(ratePer1000({ tiers: [tier('0.2')] }, { serviceFeePercent: '6.36', baseFee: 0 })).toBe('0.21272');
    expect(ratePer1000({ tiers: [tier('0.0123', 1)] }, NO_FEES)).toBe('12.30');
    expect(ratePer1000({ tiers: [tier('1', 3)] }, NO_FEES)).toBe('333.33334');
    expect(ratePer1000({ tiers: [tier('0.000001')] }, NO_FEES)).toBe('0.00001');
    expect(ratePer1000({ tiers: [tier('1.5', 1000, 501, 5000), tier('2', 1000, 1, 500)] }, NO_FEES)).toBe('1.50');
    // Orderable up to the first tier's maximum (500): the rate of the tier from 501 is not one an order is charged by.
    expect(ratePer1000({ tiers: [tier('2', 1000, 1, 500), tier('1.5', 1000, 501, 5000)] }, NO_FEES)).toBe('2.00');
    expect(ratePer1000({ tiers: [] }, NO_FEES)).toBeNull();
  });

  it('charges what a client computes from the rate: rate × quantity / 1000, to the fifth decimal', () => {
    // price × 10^8, fee % × 10^4, any pricingPer; quantities of the tier the rate is read from.
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.constantFrom(1, 3, 7, 10, 100, 1000),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        fc.integer({ min: 10, max: 100_000 }),
        (p, per, f, q) => {
          const price = `${p / 10n ** 8n}.${String(p % 10n ** 8n).padStart(8, '0')}`;
          const fee = `${f / 10n ** 4n}.${String(f % 10n ** 4n).padStart(4, '0')}`;
          const tiers = [tier(price, per)];
          const fees = { serviceFeePercent: fee, baseFee: 0 };
          const rate = fifths(ratePer1000({ tiers }, fees)!);
          const micros = priceOrder(tiers, q, fees).micros;
          // Debited: rate × q / 1000 rounded up to the micro.
          expect(BigInt(micros)).toBe((rate * 10n * BigInt(q) + 999n) / 1000n);
          // Answered: rate × q / 1000 rounded up to the fifth decimal.
          expect(microsToUsd(micros, 'up')).toBe(fifthsText((rate * BigInt(q) + 999n) / 1000n));
        },
      ),
    );
  });

  it('writes micro-dollars with 2 to 5 decimals, the sixth up in a charge and down in a balance', () => {
    expect(microsToUsd(0, 'up')).toBe('0.00');
    expect(microsToUsd(70_000, 'up')).toBe('0.07');
    expect(microsToUsd(1_234_560_000, 'down')).toBe('1234.56');
    expect(microsToUsd(100_842_920, 'down')).toBe('100.84292');
    expect(microsToUsd(278_190, 'up')).toBe('0.27819');
    expect(microsToUsd(212_720, 'up')).toBe('0.21272');
    expect(microsToUsd(212_725, 'up')).toBe('0.21273');
    expect(microsToUsd(212_725, 'down')).toBe('0.21272');
    expect(microsToUsd(1, 'up')).toBe('0.00001');
    expect(microsToUsd(1, 'down')).toBe('0.00');
    expect(microsToUsd(9_999_999, 'up')).toBe('10.00');
    expect(microsToUsd(Number.MAX_SAFE_INTEGER, 'up')).toBe('9007199254.741');
    expect(microsToUsd(Number.MAX_SAFE_INTEGER, 'down')).toBe('9007199254.74099');
    expect(() => microsToUsd(0.5, 'up')).toThrow(RangeError);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (micros) => {
        const up = fifths(microsToUsd(micros, 'up')) * 10n;
        const down = fifths(microsToUsd(micros, 'down')) * 10n;
        expect(up >= BigInt(micros) && up - BigInt(micros) < 10n).toBe(true);
        expect(down <= BigInt(micros) && BigInt(micros) - down < 10n).toBe(true);
      }),
    );
  });

  it('spells every status as clients expect', () => {
    const spelled = new Set(ORDER_STATUSES.map(v2Status));
    expect([...spelled].sort()).toEqual(['Canceled', 'Completed', 'In progress', 'Partial', 'Pending', 'Processing']);
    expect([...V2_STATUSES].sort()).toEqual([...spelled].sort());
    expect(v2Status('in_progress')).toBe('In progress');
  });
});

describe('the order-form type of a service', () => {
  const field = (fieldName: string, required = true): ServiceParam => ({ fieldName, fieldLabel: fieldName, fieldType: 'text', placeholder: '', description: '', required, options: [] });

  it('comes from the field the service requires, with the service’s own name for it', () => {
    expect(v2TypeOf([])).toEqual({ type: 'Default', field: null });
    expect(v2TypeOf([field('comments')])).toEqual({ type: 'Custom Comments', field: 'comments' });
    expect(v2TypeOf([field('usernames')])).toEqual({ type: 'Mentions Custom List', field: 'usernames' });
    expect(v2TypeOf([field('hashtags')])).toEqual({ type: 'Mentions Hashtag', field: 'hashtags' });
    expect(v2TypeOf([field('geo-countries'), field('answer_number')])).toEqual({ type: 'Poll', field: 'answer_number' });
    expect(v2TypeOf([field('username'), field('comments')]).type).toBe('Custom Comments');
  });

  it('stays Default for a field the service only may take: clients read a type as fields they must send', () => {
    expect(v2TypeOf([field('hashtag', false)])).toEqual({ type: 'Default', field: null });
    expect(v2TypeOf([field('comments', false), field('media')])).toEqual({ type: 'Mentions Media Likers', field: 'media' });
  });
});
