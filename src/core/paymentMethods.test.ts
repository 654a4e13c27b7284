import { describe, expect, it } from 'vitest';
import { CALLBACK_PATHS, KIND_CURRENCIES, PAYMENT_METHOD_KINDS, quoteTopUp } from './paymentMethods';

describe('quoteTopUp', () => {
  it('charges the amount at the rate, then the fee, each rounded up to the minor unit', () => {
    expect(quoteTopUp(10_000_000, '1.7', 0)).toEqual({ amountMinor: 1700, feeMinor: 0 });
    expect(quoteTopUp(10_010_000, '1.7', 250)).toEqual({ amountMinor: 1745, feeMinor: 43 });
    // Lira: 25 USD at 41.5 TRY = 1037.50 TRY; 1.99 % fee = 20.64625 → 1058.15 TRY.
    expect(quoteTopUp(25_000_000, '41.5', 199)).toEqual({ amountMinor: 105_815, feeMinor: 2_065 });
  });
});

describe('method kinds', () => {
  it('each kind charges in at least one currency, and every gateway has its own notification path', () => {
    for (const kind of PAYMENT_METHOD_KINDS) expect(KIND_CURRENCIES[kind].length).toBeGreaterThan(0);
    expect(CALLBACK_PATHS).toEqual(['/api/payments/callback', '/api/payments/callback/payriff', '/api/payments/callback/paytr']);
  });
});
