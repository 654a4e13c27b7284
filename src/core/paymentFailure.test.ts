import { describe, expect, it } from 'vitest';
import { paymentFailureReason } from './paymentFailure';

describe('paymentFailureReason', () => {
  it.each([
    ['005', 'Declined by the issuer', 'declined'],
    ['05', null, 'declined'],
    ['051', null, 'insufficient_funds'],
    ['51', 'whatever', 'insufficient_funds'],
    ['54', null, 'expired_card'],
    ['14', null, 'invalid_card'],
    ['65', null, 'limit_exceeded'],
    ['82', null, 'authentication_failed'],
    [null, 'Insufficient funds on the card', 'insufficient_funds'],
    [null, 'Card expired', 'expired_card'],
    ['100', 'Cancelled by the customer', 'cancelled'],
    [null, '3D Secure authentication failed', 'authentication_failed'],
    [null, 'Transaction refused', 'declined'],
    [null, 'Server is busy', 'other'],
    [null, null, 'other'],
    ['abc', '', 'other'],
  ] as const)('%s / %s → %s', (code, message, reason) => {
    expect(paymentFailureReason(code, message)).toBe(reason);
  });
});
