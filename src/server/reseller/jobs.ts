import type { JobDefinition } from '../jobs/boss';
import type { OrdersDeps } from '../orders';
import { refreshRefills } from './actions';

/** Every minute: the state of open refill requests, from the provider. */
export function resellerJobs(deps: OrdersDeps): JobDefinition[] {
  return [{ name: 'refill-status-sync', cron: '* * * * *', handler: async () => void (await refreshRefills(deps)) }];
}
