import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { HistoryQuery } from '../../../core/contracts/orders';
import { api, timed } from '../../lib/api';
import { dashboardKeys } from './keys';

/** One page of the order history (GET /api/orders/history); the page shown stays while the next loads. */
export function useOrderHistory(q: HistoryQuery) {
  return useQuery({
    queryKey: dashboardKeys.history(q),
    queryFn: () =>
      timed((o) => api.orders.history.$get({ query: { status: q.status, page: String(q.page), ...(q.q ? { q: q.q } : {}) } }, o)),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
