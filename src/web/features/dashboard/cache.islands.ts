import { useMemo } from 'react';
import { meStore } from '../../islands/me';
import { useRefreshMe } from '../auth';
import { paymentKeys } from '../payments';
import type { DashboardCache } from './cache';
import { dashboardKeys } from './keys';
import { reloadOverview } from './overviewAnswer';
import { tabsQueries } from './tabsQueries';

/**
 * ./cache.ts as a page of islands builds it (docs/decisions/0032-the-dashboard-as-an-island.md):
 * the overview the page holds is asked for again, the balance is the signed-in state's, and the
 * tabs opened so far (under the query client ./queryHost.islands.tsx made when the first opened)
 * read theirs again.
 */
export type { DashboardCache } from './cache';

const { invalidate } = tabsQueries;

export function useDashboardCache(): DashboardCache {
  const refreshMe = useRefreshMe();
  return useMemo(
    () => ({
      reload: () => {
        void reloadOverview();
        void refreshMe().catch(() => {});
        invalidate(dashboardKeys.all);
        invalidate(paymentKeys.list());
      },
      ordersChanged: () => {
        void reloadOverview();
        invalidate(dashboardKeys.orders());
      },
      balance: (balanceMicros) => {
        const me = meStore.get();
        if (me) meStore.set({ ...me, balanceMicros });
      },
      paymentsChanged: () => invalidate(paymentKeys.list()),
    }),
    [refreshMe],
  );
}
