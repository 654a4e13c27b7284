import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from './orderStatus';
import { priceOrder } from './pricing';
import type { ServiceParam } from './catalog';
import { centsToUsd, ratePer1000, V2_STATUSES, v2Status, v2TypeOf } from './resellerApi';

const tier = (price: string, pricingPer = 1000, minimum = 10, maximum = 100_000) => ({ minimum, maximum, price, pricingPer });

describe('reseller API figures', () => {
  it('gives the rate per 1000 with the service fee, rounded up, never below the order price', () => {
    expect(ratePer1000([tier('0.35')], { serviceFeePercent: 0, baseFee: 0 })).toBe('0.35');
    expect(ratePer1000([tier('0.35')], { serviceFeePercent: 10, baseFee: 0 })).toBe('0.385');
    expect(ratePer1000([tier('0.0123', 1)], { serviceFeePercent: 0, baseFee: 0 })).toBe('12.30');
    expect(ratePer1000([tier('1', 3)], { serviceFeePercent: 0, baseFee: 0 })).toBe('333.3334');
    expect(ratePer1000([tier('2', 1000, 1, 500), tier('1.5', 1000, 501, 5000)], { serviceFeePercent: 0, baseFee: 0 })).toBe('1.50');
    expect(ratePer1000([], { serviceFeePercent: 0, baseFee: 0 })).toBeNull();
    // A client computing rate × quantity / 1000 never expects less than it is charged.
    for (const [price, per, fee, q] of [['0.35', 1000, 7.5, 1000], ['1', 3, 0, 3000], ['0.0099', 10, 12.25, 2000]] as const) {
      const fees = { serviceFeePercent: fee, baseFee: 0 };
      const cents = priceOrder([tier(price, per, 1, 1e6)], q, fees).cents;
      expect(Math.ceil((Number(ratePer1000([tier(price, per, 1, 1e6)], fees)) * q) / 10)).toBeGreaterThanOrEqual(cents);
    }
  });

  it('writes cents as USD strings and spells every status as clients expect', () => {
    expect(centsToUsd(0)).toBe('0.00');
    expect(centsToUsd(7)).toBe('0.07');
    expect(centsToUsd(123456)).toBe('1234.56');
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
