import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ME_QUERY_KEY, type Me } from '../auth';
import { paymentKeys } from '../payments';
import { dashboardKeys } from './keys';

/**
 * What the dashboard and its tabs say when their data changed, in one place: the app's page
 * refreshes its query cache; a page of islands builds ./cache.islands.ts, which refreshes what the
 * page holds (docs/decisions/0032-the-dashboard-as-an-island.md).
 */
export interface DashboardCache {
  /** Everything read again: after an order or a top-up is sent, after the stream was down. */
  reload: () => void;
  /** An order changed: the counters, the active orders and the history. */
  ordersChanged: () => void;
  /** The balance the server announced. */
  balance: (balanceMicros: number) => void;
  /** A payment changed: the payment history. */
  paymentsChanged: () => void;
}

export function useDashboardCache(): DashboardCache {
  const queryClient = useQueryClient();
  return useMemo(() => {
    const invalidate = (queryKey: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey });
    return {
      reload: () => {
        invalidate(dashboardKeys.all);
        invalidate(paymentKeys.list());
        invalidate(ME_QUERY_KEY);
      },
      ordersChanged: () => invalidate(dashboardKeys.orders()),
      balance: (balanceMicros) => {
        queryClient.setQueryData(dashboardKeys.wallet(), balanceMicros);
        queryClient.setQueryData<Me | null>(ME_QUERY_KEY, (old) => (old ? { ...old, balanceMicros } : old));
      },
      paymentsChanged: () => invalidate(paymentKeys.list()),
    };
  }, [queryClient]);
}
