import { placeOrderInputSchema } from '../../core/orderRules';
import { placeOrder, type OrderRateLimit, type OrdersDeps } from '../orders';

/** Places an order from a request body, checked with the order contract first as the route checks it. */
export const placeOrderBody = async (deps: OrdersDeps, userId: string, body: unknown, rate?: OrderRateLimit) =>
  placeOrder(deps, userId, placeOrderInputSchema.parse(body), rate);
