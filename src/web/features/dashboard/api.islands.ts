import { useMe } from '../auth';
import { useOverviewAnswer } from './overviewAnswer';

/**
 * ./api.ts as a page of islands builds it (docs/decisions/0032-the-dashboard-as-an-island.md): the
 * overview held by the page (./overviewAnswer.ts) with a plain fetch, and the balance the one the
 * signed-in state carries (islands/me.ts), which the live events keep current (./cache.islands.ts).
 */
export { dashboardKeys, newIdempotencyKey } from './keys';

export const useOrderOverview = useOverviewAnswer;

export function useWallet(initial?: number): { data: number | undefined } {
  return { data: useMe().data?.balanceMicros ?? initial };
}
