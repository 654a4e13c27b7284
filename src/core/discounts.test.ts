import { describe, expect, it } from 'vitest';
import { customerGroupInputSchema, customerPricingInputSchema, myDiscountSchema } from './contracts/discounts';
import { bpToPercent, discountPercentSchema, effectiveDiscount, percentToBp } from './discounts';

describe('a discount as typed and as stored', () => {
  it('takes 0 to 90 with at most 2 decimals, as text', () => {
    for (const ok of ['0', '5', '10', '12.5', '0.01', '33.33', '89.99', '90', '90.0', '90.00', '07']) expect(discountPercentSchema.safeParse(ok).success, ok).toBe(true);
    // The decimal comma of az and tr reads as a point.
    expect(discountPercentSchema.parse('12,5')).toBe('12.5');
    expect(discountPercentSchema.parse('0,25')).toBe('0.25');
    for (const bad of ['', ' ', '90.01', '91', '100', '-1', '10.125', '1e1', '.5', '5.', '10%', '１０', '90,01', '1,2,3', ',5', '5,', '12,5.1', 10, null]) expect(discountPercentSchema.safeParse(bad).success, String(bad)).toBe(false);
  });

  it('is stored in hundredths of a percent, exactly, and written back without trailing zeros', () => {
    expect(['0', '12.5', '0.01', '33.33', '90', '90.00', '07'].map(percentToBp)).toEqual([0, 1250, 1, 3333, 9000, 9000, 700]);
    expect([0, 1250, 1, 3333, 9000, 5, 1010].map(bpToPercent)).toEqual(['0', '12.5', '0.01', '33.33', '90', '0.05', '10.1']);
    for (let bp = 0; bp <= 9000; bp += 7) expect(percentToBp(bpToPercent(bp))).toBe(bp);
  });
});

describe('which discount counts', () => {
  it('is the customer’s own when set (0 too), else the group’s, else none', () => {
    expect(effectiveDiscount(1000, 1250)).toEqual({ bp: 1000, source: 'customer' });
    expect(effectiveDiscount(0, 1250)).toEqual({ bp: 0, source: null });
    expect(effectiveDiscount(null, 1250)).toEqual({ bp: 1250, source: 'group' });
    expect(effectiveDiscount(null, 0)).toEqual({ bp: 0, source: null });
    expect(effectiveDiscount(null, null)).toEqual({ bp: 0, source: null });
    expect(effectiveDiscount(500, null)).toEqual({ bp: 500, source: 'customer' });
  });
});

describe('contracts', () => {
  it('a group: a trimmed name of 1 to 60 characters and a discount; nothing else', () => {
    expect(customerGroupInputSchema.parse({ name: '  Resellers ', discountPercent: '10' })).toEqual({ name: 'Resellers', discountPercent: '10' });
    expect(customerGroupInputSchema.safeParse({ name: 'x'.repeat(61), discountPercent: '10' }).success).toBe(false);
    expect(customerGroupInputSchema.safeParse({ name: 'A', discountPercent: '10', customers: 3 }).success).toBe(false);
    expect(customerGroupInputSchema.safeParse({ name: 'A' }).success).toBe(false);
  });

  it('a customer’s pricing: both fields, each may be null; a group is a uuid', () => {
    const id = '0b7c6a51-2f1e-4d3a-9c4b-5e6f7a8b9c0d';
    expect(customerPricingInputSchema.parse({ discountPercent: null, groupId: id })).toEqual({ discountPercent: null, groupId: id });
    expect(customerPricingInputSchema.parse({ discountPercent: '0', groupId: null })).toEqual({ discountPercent: '0', groupId: null });
    expect(customerPricingInputSchema.safeParse({ discountPercent: '5' }).success).toBe(false);
    expect(customerPricingInputSchema.safeParse({ discountPercent: '5', groupId: 'resellers' }).success).toBe(false);
    expect(customerPricingInputSchema.safeParse({ discountPercent: '5', groupId: null, userId: 'x' }).success).toBe(false);
  });

  it('what /api/me tells: a percent with its source, or null', () => {
    expect(myDiscountSchema.parse(null)).toBeNull();
    expect(myDiscountSchema.parse({ percent: '12.5', source: 'group', groupName: 'Resellers' })).toEqual({ percent: '12.5', source: 'group', groupName: 'Resellers' });
    expect(myDiscountSchema.safeParse({ percent: '12.5', source: 'admin', groupName: null }).success).toBe(false);
  });
});
