import type { Db } from '../db/client';
import type { JobDefinition } from '../jobs/boss';
import type { Logger } from '../logger';
import { catalogueProvider, type ProviderRegistry } from '../providers';
import type { RealtimeHub } from '../realtime';
import { syncCatalog } from './service';

/** Pulls the provider's catalogue into the database every `minutes`; open pages then read it again. */
export function catalogSyncJob(db: Db, providers: ProviderRegistry, logger: Logger, minutes: number, realtime?: RealtimeHub): JobDefinition {
  return {
    name: 'catalog-sync',
    cron: minutes >= 60 ? `0 */${Math.floor(minutes / 60)} * * *` : `*/${minutes} * * * *`,
    handler: async () => {
      const result = await syncCatalog(db, catalogueProvider(providers).client);
      logger.info(result, 'catalogue synced');
      if (result.services > 0) await realtime?.publish('*', { type: 'catalog' }).catch(() => {});
    },
  };
}
