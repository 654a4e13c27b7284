import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders } from '../db/schema';
import type { PlaceOrderInput } from '../../core/contracts/orderInput';
import type { RateCounter } from '../http/rateLimit';
import { placeOrderWithApiId, type CountedCall, type OrderRow, type OrdersDeps } from '../orders';
import type { KeyOwner } from './keys';

/**
 * Orders through the reseller API go through the site's own `placeOrder` (same pricing, ledger,
 * pipeline and live updates), counted on the customer's one order counter (`counter`, the same
 * as the site's). Their idempotency key starts with `api_`, which marks the row as placed
 * through the API (`orders.via_api`, a column the database derives from the key); a customer's
 * own key never starts so (`customerIdempotencyKeySchema`).
 */
export async function placeApiOrder(
  deps: OrdersDeps,
  owner: KeyOwner,
  input: PlaceOrderInput & { idempotencyKey: `api_${string}` },
  counter: RateCounter,
  /** The API call, counted in the order's statement (see `CountedCall`). */
  call?: CountedCall,
): Promise<{ apiId: number }> {
  return { apiId: (await placeOrderWithApiId(deps, owner.userId, input, counter, call)).apiId };
}

/** The customer's own orders among the API ids given; other customers' ids are simply absent. */
export async function ordersForApi(db: Db, userId: string, apiIds: number[]): Promise<OrderRow[]> {
  if (!apiIds.length) return [];
  return db.select().from(orders).where(and(eq(orders.userId, userId), inArray(orders.apiId, apiIds)));
}
