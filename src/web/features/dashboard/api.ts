import { useQuery } from '@tanstack/react-query';
import { api, timed } from '../../lib/api';
import { dashboardKeys } from './keys';

/**
 * The dashboard's first data through the query cache (the app's page); a page of islands builds
 * ./api.islands.ts instead. The history's page is in ./historyApi.ts, the order's request in
 * ./placing.ts: both load with what uses them.
 */
export { dashboardKeys, newIdempotencyKey } from './keys';

const fetchOverview = () => timed((o) => api.orders.overview.$get({}, o));
const fetchWallet = async () => (await timed((o) => api.wallet.$get({}, o))).balanceMicros;

/** The counters and the active orders, the dashboard's first data in one request. */
export function useOrderOverview() {
  return useQuery({ queryKey: dashboardKeys.overview(), queryFn: fetchOverview, staleTime: 30_000 });
}

/** The balance in USD micro-dollars; `initial` is what the page already knew. */
export function useWallet(initial?: number): { data: number | undefined } {
  return useQuery({ queryKey: dashboardKeys.wallet(), queryFn: fetchWallet, initialData: initial, staleTime: 30_000 });
}
