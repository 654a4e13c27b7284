import type { JobDefinition } from '../jobs/boss';
import { reconcilePayments, type PaymentsDeps } from './service';

/** Every 2 minutes: settle payments that waited for a callback; cancel abandoned ones. */
export function paymentJobs(deps: PaymentsDeps): JobDefinition[] {
  return [{ name: 'payment-reconcile', cron: '*/2 * * * *', handler: async () => void (await reconcilePayments(deps)) }];
}
