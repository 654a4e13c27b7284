import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costDifference, reportedChargeMicros } from '../../core/margin';
import { costOfOrderMicros } from '../../core/pricing';
import { costBackMicros, partialRefundMicros } from './refunds';

/**
 * What a partial order cost by the shop's reckoning (the customer's refund, the cost given back
 * with it: refunds.ts) against what an SMM v2 panel reports after its own refund
 * (docs/rules.md#what-an-order-cost): rounding alone never flags it.
 */
describe('cost given back against a panel\'s refund', () => {
  it("never flags a partial order whose panel refunded charge × remains / quantity, rounded down to 5 decimals", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9_999_999_999 }),
        fc.integer({ min: 2, max: 1_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 100, max: 300 }),
        (rateUnits, quantity, share, markupPercent) => {
          const rate = new Big(rateUnits).div(1e8).toFixed();
          const remains = Math.min(quantity - 1, Math.max(1, Math.floor(share * quantity)));
          const cost = costOfOrderMicros([{ minimum: 1, maximum: 1_000_000, price: rate, pricingPer: 1000 }], quantity);
          const chargeMicros = Math.ceil((cost * markupPercent) / 100);
          const refunded = partialRefundMicros(chargeMicros, remains, quantity);
          const costRefundedMicros = costBackMicros({ costMicros: cost, costRefundedMicros: 0, chargeMicros, providerOrderId: '1' }, refunded);
          const charged = new Big(rate).times(quantity).div(1000).round(5, Big.roundHalfUp);
          const panel = charged.minus(charged.times(remains).div(quantity).round(5, Big.roundDown)).toFixed(5);
          const reported = reportedChargeMicros({ charge: panel, currency: 'USD' }) as number;
          expect(costDifference({ costMicros: cost, costRefundedMicros, providerChargeMicros: reported })!.flagged).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
