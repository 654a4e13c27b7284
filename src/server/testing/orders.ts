import { placeOrderInputSchema } from '../../core/contracts/orderInput';
import type { RateCounter } from '../http/rateLimit';
import { placeOrder, type OrdersDeps } from '../orders';

/**
 * Places an order from a request body, checked with the order contract first as the route checks
 * it; counted on `counter` when one is given (the routes always give the customer's).
 */
export const placeOrderBody = async (deps: OrdersDeps, userId: string, body: unknown, counter: RateCounter | null = null) =>
  placeOrder(deps, userId, placeOrderInputSchema.parse(body), counter);
