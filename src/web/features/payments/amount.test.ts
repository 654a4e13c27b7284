import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOPUP_MAX_MICROS, TOPUP_MIN_MICROS } from '../../../core/contracts/payments';
import { parseTopUpAmount, topUpAmountIssue } from './amount';

describe('top-up amount', () => {
  it('reads amounts exactly, with a decimal point or comma', () => {
    expect(parseTopUpAmount('10')).toBe(10_000_000);
    expect(parseTopUpAmount(' 12.5 ')).toBe(12_500_000);
    expect(parseTopUpAmount('0.29')).toBe(290_000);
    expect(parseTopUpAmount('12,34')).toBe(12_340_000);
    expect(parseTopUpAmount('25.00')).toBe(25_000_000);
    for (const bad of ['', '1e3', '10.005', '0.000001', '-5', '1,2,3', '1.234,5', 'abc', '10 USD', 'NaN']) expect(parseTopUpAmount(bad), bad).toBeNull();
  });

  it('needs at least 1 USD and at most the server limit', () => {
    expect(topUpAmountIssue('  ')).toBe('required');
    expect(topUpAmountIssue('12.345')).toBe('invalid');
    expect(topUpAmountIssue('0.99')).toBe('min');
    expect(topUpAmountIssue('1')).toBeNull();
    expect(topUpAmountIssue(String(TOPUP_MAX_MICROS / 1_000_000))).toBeNull();
    expect(topUpAmountIssue(`${TOPUP_MAX_MICROS / 1_000_000}.01`)).toBe('max');
  });

  it('round-trips every whole-cent amount typed with two decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (cents) => {
        const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        expect(parseTopUpAmount(text)).toBe(cents * 10_000);
        expect(parseTopUpAmount(text.replace('.', ','))).toBe(cents * 10_000);
        expect(topUpAmountIssue(text) === null).toBe(cents * 10_000 >= TOPUP_MIN_MICROS && cents * 10_000 <= TOPUP_MAX_MICROS);
      }),
    );
  });
});
