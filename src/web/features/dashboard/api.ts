import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { HistoryQuery } from '../../../core/contracts/orders';
import type { PlaceOrderInput } from '../../../core/contracts/orderInput';
import { api, timed } from '../../lib/api';

/** The customer's orders, counters and balance (GET /api/orders/overview, /api/orders/history, /api/wallet). */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  orders: () => ['dashboard', 'orders'] as const,
  /** Under `orders()`, so that whatever reloads the orders reloads the counters and the history too. */
  overview: () => ['dashboard', 'orders', 'overview'] as const,
  history: (q: HistoryQuery) => ['dashboard', 'orders', 'history', q] as const,
  wallet: () => ['dashboard', 'wallet'] as const,
};

export const fetchOverview = () => timed((o) => api.orders.overview.$get({}, o));
export const fetchWallet = async () => (await timed((o) => api.wallet.$get({}, o))).balanceMicros;

/** The counters and the active orders, the dashboard's first data in one request. */
export function useOrderOverview() {
  return useQuery({ queryKey: dashboardKeys.overview(), queryFn: fetchOverview, staleTime: 30_000 });
}

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

/** The balance in USD micro-dollars; `initial` is what the page loader already knew. */
export function useWallet(initial?: number) {
  return useQuery({ queryKey: dashboardKeys.wallet(), queryFn: fetchWallet, initialData: initial, staleTime: 30_000 });
}

export function usePlaceOrder() {
  return useMutation({ mutationFn: (input: PlaceOrderInput) => timed((o) => api.orders.$post({ json: input }, o)) });
}

/** A key for one submission attempt: the same key on a retry places at most one order. */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
