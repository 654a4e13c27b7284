import PgBoss from 'pg-boss';
import type { Database } from '../db/client';
import type { Logger } from '../logger';

/**
 * A recurring or on-demand background job. Features export their definitions; `startJobs`
 * registers them all on one pg-boss instance that lives in the same database (PGlite included).
 * pg-boss makes a cron tick run once across all app instances.
 */
export interface JobDefinition<T extends object = object> {
  name: string;
  /** Cron expression (minute resolution) for recurring jobs. */
  cron?: string;
  handler: (data: T) => Promise<void>;
}

export interface Jobs {
  send<T extends object>(name: string, data?: T, options?: PgBoss.SendOptions): Promise<string | null>;
  stop(): Promise<void>;
  boss: PgBoss;
}

export async function startJobs(database: Database, logger: Logger, definitions: JobDefinition<any>[]): Promise<Jobs> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
    schema: 'pgboss',
    // Keep the footprint small: one embedded engine shares the process with the web server.
    monitorStateIntervalSeconds: 60,
    maintenanceIntervalSeconds: 120,
  } as PgBoss.ConstructorOptions);
  boss.on('error', (err) => logger.error({ err }, 'job queue error'));
  await boss.start();

  for (const def of definitions) {
    await boss.createQueue(def.name);
    await boss.work(def.name, { pollingIntervalSeconds: 2 }, async (batch) => {
      for (const job of batch) {
        try {
          await def.handler((job.data ?? {}) as object);
        } catch (err) {
          logger.error({ err, job: def.name }, 'job failed');
          throw err;
        }
      }
    });
    if (def.cron) await boss.schedule(def.name, def.cron);
  }

  return {
    boss,
    send: (name, data, options) => boss.send(name, (data ?? {}) as object, options ?? {}),
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
