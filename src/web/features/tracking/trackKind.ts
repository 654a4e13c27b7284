import { COUNTER_OF, type OrderStatus } from '../../../core/orderStatus';

/**
 * Tracked status kinds: success (green), partly delivered (amber), in progress (blue), anything
 * else (red). An order still being verified with the provider is not final: it shows as in progress.
 */
export type TrackKind = 'success' | 'partial' | 'progress' | 'failed';
export function trackKind(status: OrderStatus): TrackKind {
  if (status === 'completed') return 'success';
  // Delivered in part, the rest refunded: neither a success nor a failure.
  if (status === 'partial') return 'partial';
  return COUNTER_OF[status] === 'active' ? 'progress' : 'failed';
}

