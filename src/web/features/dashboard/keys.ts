import type { HistoryQuery } from '../../../core/contracts/orders';

/** The customer's orders, counters and balance (GET /api/orders/overview, /api/orders/history, /api/wallet). */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  orders: () => ['dashboard', 'orders'] as const,
  /** Under `orders()`, so that whatever reloads the orders reloads the counters and the history too. */
  overview: () => ['dashboard', 'orders', 'overview'] as const,
  history: (q: HistoryQuery) => ['dashboard', 'orders', 'history', q] as const,
  wallet: () => ['dashboard', 'wallet'] as const,
};

/** Where the dashboard's first data comes from (./api.ts, ./api.islands.ts). */
export const OVERVIEW_PATH = '/api/orders/overview';

/** A key for one submission attempt: the same key on a retry places at most one order. */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
