import { statusGroup, type OrderStatus } from '../../../core/orderStatus';

/**
 * Tracked status kinds (spec 02 §2, §4): success (green), in progress (blue), anything else
 * (red). An order still being verified with the provider is not final: it shows as in progress.
 */
export type TrackKind = 'success' | 'progress' | 'failed';
export function trackKind(status: OrderStatus): TrackKind {
  if (status === 'completed') return 'success';
  const group = statusGroup(status);
  return group === 'active' || group === 'unknown' ? 'progress' : 'failed';
}

