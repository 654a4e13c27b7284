import type { Db } from '../db/client';
import type { JobDefinition } from '../jobs/boss';
import type { Logger } from '../logger';
import type { SmmProvider } from '../providers';
import { syncCatalog } from './service';

/** Pulls the provider's catalogue into the database every `minutes`. */
export function catalogSyncJob(db: Db, provider: SmmProvider, logger: Logger, minutes: number): JobDefinition {
  return {
    name: 'catalog-sync',
    cron: minutes >= 60 ? `0 */${Math.floor(minutes / 60)} * * *` : `*/${minutes} * * * *`,
    handler: async () => {
      const result = await syncCatalog(db, provider);
      logger.info(result, 'catalogue synced');
    },
  };
}
