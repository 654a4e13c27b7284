import type { JobDefinition } from '../jobs/boss';
import type { Mailer } from '../mail';
import { checkProviderFunds } from './funds';
import { sendWaitingCancels } from './cancels';
import { type OrdersDeps } from './service';
import { checkDelayedOrders } from './stuck';
import { reconcileOrders, syncOrderStatuses } from './sync';

/**
 * Every minute: pull statuses of active orders; settle orders whose submission is uncertain, then
 * the cancels still waiting for an order that has since been sent (or left by a process that died).
 * Every five minutes: flag the orders delayed at the provider, and cancel those past the team's
 * limit (./stuck.ts). Every minute: orders waiting for a provider with money (./funds.ts).
 */
export function orderJobs(deps: OrdersDeps & { mailer?: Mailer }): JobDefinition[] {
  return [
    {
      name: 'order-status-sync',
      cron: '* * * * *',
      handler: async () => {
        // Several passes a minute keep live status changes quick without hammering the provider.
        for (let i = 0; i < 4; i++) {
          await syncOrderStatuses(deps, { olderThanMs: 10_000 });
          if (i < 3) await new Promise((r) => setTimeout(r, 14_000));
        }
      },
    },
    {
      name: 'order-reconcile',
      cron: '* * * * *',
      handler: async () => {
        await reconcileOrders(deps);
        await sendWaitingCancels(deps);
      },
    },
    {
      name: 'provider-funds',
      cron: '* * * * *',
      handler: async () => {
        await checkProviderFunds(deps);
      },
    },
    {
      name: 'order-delay-check',
      cron: '*/5 * * * *',
      handler: async () => {
        await checkDelayedOrders(deps);
      },
    },
  ];
}
