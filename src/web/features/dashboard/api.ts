import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { HistoryQuery } from '../../../core/contracts/orders';
import type { PlaceOrderInput } from '../../../core/contracts/orderInput';
import { api, timed } from '../../lib/api';

/** The customer's orders, counters and balance (GET /api/orders, /api/orders/stats, /api/wallet). */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  orders: () => ['dashboard', 'orders'] as const,
  /** Under `orders()`, so that whatever reloads the orders reloads the history too. */
  history: (q: HistoryQuery) => ['dashboard', 'orders', 'history', q] as const,
  stats: () => ['dashboard', 'stats'] as const,
  wallet: () => ['dashboard', 'wallet'] as const,
};

export const fetchOrders = async () => (await timed((o) => api.orders.$get({}, o))).orders;
export const fetchStats = () => timed((o) => api.orders.stats.$get({}, o));
export const fetchWallet = async () => (await timed((o) => api.wallet.$get({}, o))).balanceMicros;

export function useOrders() {
  return useQuery({ queryKey: dashboardKeys.orders(), queryFn: fetchOrders, staleTime: 30_000 });
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

export function useOrderStats() {
  return useQuery({ queryKey: dashboardKeys.stats(), queryFn: fetchStats, staleTime: 30_000 });
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
