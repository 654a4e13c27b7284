import type { Db } from '../db/client';
import type { JobDefinition } from '../jobs/boss';
import type { Logger } from '../logger';
import type { ProviderRegistry } from '../providers';
import type { RealtimeHub } from '../realtime';
import { syncCatalogues } from './sources';

/** Reads every provider's catalogue every `minutes` (catalog/sources.ts); open pages then read the shop's again. */
export function catalogSyncJob(db: Db, providers: ProviderRegistry, logger: Logger, minutes: number, realtime?: RealtimeHub): JobDefinition {
  return {
    name: 'catalog-sync',
    cron: minutes >= 60 ? `0 */${Math.floor(minutes / 60)} * * *` : `*/${minutes} * * * *`,
    handler: async () => {
      const result = await syncCatalogues(db, providers, logger);
      logger.info(result, 'catalogue synced');
      if (result.services > 0) await realtime?.publish('*', { type: 'catalog' }).catch(() => {});
    },
  };
}
