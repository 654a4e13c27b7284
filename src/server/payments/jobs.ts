import type { JobDefinition } from '../jobs/boss';
import { resolvePendingRefunds } from './refund';
import { reconcilePayments, type PaymentsDeps } from './service';

/**
 * Every 2 minutes: settle payments that waited for a callback; cancel abandoned ones. Every 5:
 * refunds to the card whose gateway did not answer are asked about again.
 */
export function paymentJobs(deps: PaymentsDeps): JobDefinition[] {
  return [
    { name: 'payment-reconcile', cron: '*/2 * * * *', handler: async () => void (await reconcilePayments(deps)) },
    { name: 'payment-refunds', cron: '*/5 * * * *', handler: async () => void (await resolvePendingRefunds(deps)) },
  ];
}
