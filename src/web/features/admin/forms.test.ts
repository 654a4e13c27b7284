import { describe, expect, it } from 'vitest';
import { numericSetting, parseAznToQepik, parseOrderIndex, parseSignedMicros, pricePer1000, qepikToInput, slugify } from './forms';
import { dashboardStatus } from './format';
import { sortByPrice } from './LocalServicesTab';

describe('admin form conversions', () => {
  it('reads signed dollar amounts, to the micro, as micro-dollars without float arithmetic', () => {
    expect(parseSignedMicros('10')).toBe(10_000_000);
    expect(parseSignedMicros('+0.29')).toBe(290_000);
    expect(parseSignedMicros('-2.50')).toBe(-2_500_000);
    expect(parseSignedMicros(' 19.99 ')).toBe(19_990_000);
    expect(parseSignedMicros('1.234')).toBe(1_234_000);
    expect(parseSignedMicros('-0.021272')).toBe(-21_272);
    expect(parseSignedMicros('0')).toBeNull();
    expect(parseSignedMicros('0.000000')).toBeNull();
    expect(parseSignedMicros('0.0000001')).toBeNull();
    expect(parseSignedMicros('1e3')).toBeNull();
    expect(parseSignedMicros('--1')).toBeNull();
    expect(parseSignedMicros('')).toBeNull();
  });

  it('turns an AZN price into qəpik exactly, blank into no price, and refuses anything else', () => {
    expect(parseAznToQepik('12')).toBe(1200);
    expect(parseAznToQepik('0.1')).toBe(10);
    expect(parseAznToQepik('4.35')).toBe(435); // 4.35 * 100 is 434.99999999999994 in floats
    expect(parseAznToQepik('12,50')).toBe(1250);
    expect(parseAznToQepik('  ')).toBeNull();
    expect(parseAznToQepik('1.005')).toBeUndefined();
    expect(parseAznToQepik('-1')).toBeUndefined();
    expect(parseAznToQepik('abc')).toBeUndefined();
    expect(qepikToInput(435)).toBe('4.35');
    expect(qepikToInput(5)).toBe('0.05');
    expect(qepikToInput(null)).toBe('');
  });

  it('makes non-numeric setting values 0 and keeps decimals as typed', () => {
    expect(numericSetting('abc')).toBe(0);
    expect(numericSetting('')).toBe(0);
    expect(numericSetting('12.5')).toBe(12.5);
    expect(numericSetting('0,1')).toBe(0.1);
    expect(numericSetting('-3')).toBe(-3);
  });

  it('reads a list position as a whole number, blank as 0, and refuses anything else', () => {
    expect(parseOrderIndex('')).toBe(0);
    expect(parseOrderIndex('  ')).toBe(0);
    expect(parseOrderIndex(' 7 ')).toBe(7);
    expect(parseOrderIndex('-3')).toBe(-3);
    expect(parseOrderIndex('1.5')).toBeUndefined();
    expect(parseOrderIndex('1e3')).toBeUndefined();
    expect(parseOrderIndex('abc')).toBeUndefined();
    expect(parseOrderIndex('99999999999999999999')).toBeUndefined();
  });

  it('prices 1000 units from the tier an order of 1000 (or the orderable quantity nearest it) is charged by', () => {
    const tiers = [
      { minimum: 1000, maximum: 100_000, price: '0.35', pricingPer: 1000 },
      { minimum: 10, maximum: 999, price: '2', pricingPer: 1000 },
    ];
    expect(pricePer1000({ tiers })).toBe('0.35');
    // Orderable up to the first tier's maximum (999): the tier from 1000 is never charged.
    expect(pricePer1000({ tiers: [tiers[1]!, tiers[0]!] })).toBe('2.00');
    expect(pricePer1000({ tiers: [{ minimum: 10, maximum: 500, price: '0.07', pricingPer: 100 }] })).toBe('0.70');
    expect(pricePer1000({ tiers: [{ minimum: 1, maximum: 5000, price: '0.0001', pricingPer: 7 }] })).toBe('0.01429');
    expect(pricePer1000({ tiers: [] })).toBeNull();
  });

  it('makes slugs from Azerbaijani and Turkish titles', () => {
    expect(slugify('Instagram-da böyümə üçün 5 məsləhət')).toBe('instagram-da-boyume-ucun-5-meslehet');
    expect(slugify('Şirkət İçin Ğ — ı')).toBe('sirket-icin-g-i');
    expect(slugify('  --  ')).toBe('');
  });
});

describe('admin status labels and sorting', () => {
  it('labels dashboard statuses completed, pending (still on its way), or error for the rest', () => {
    expect(dashboardStatus('completed').key).toBe('completed');
    for (const s of ['pending', 'processing', 'in_progress', 'active', 'running', 'unknown'] as const) expect(dashboardStatus(s).key).toBe('pending');
    for (const s of ['partial', 'cancelled', 'refunded', 'stopped', 'error'] as const) expect(dashboardStatus(s).key).toBe('error');
  });

  it('sorts local services by price both ways with unpriced ones last', () => {
    const rows = [{ priceQepik: 500 }, { priceQepik: null }, { priceQepik: 100 }, { priceQepik: 900 }];
    expect(sortByPrice(rows, 'asc').map((r) => r.priceQepik)).toEqual([100, 500, 900, null]);
    expect(sortByPrice(rows, 'desc').map((r) => r.priceQepik)).toEqual([900, 500, 100, null]);
  });
});
