import type { PlaceOrderInput } from '../../../core/contracts/orderInput';
import { api, timed } from '../../lib/api';

/**
 * What sending an order needs besides the form: the API client, its error codes and their words.
 * The order form loads it with the first order it sends (./OrdersTab.tsx), so that the dashboard's
 * first scripts do not carry it (docs/decisions/0032-the-dashboard-as-an-island.md).
 */
export { ApiError } from '../../lib/api';
export { errorText } from '../../lib/errorText';
export { attemptFor, isRetryable } from './orderAttempt';

/** POST /api/orders: the order as the server accepted it (or refused it with its note). */
export const placeOrder = (input: PlaceOrderInput) => timed((o) => api.orders.$post({ json: input }, o));
