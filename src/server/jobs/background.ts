import { analyticsJobs, ROLLUP_JOB } from '../analytics';
import { catalogSyncJob } from '../catalog';
import type { Database } from '../db/client';
import type { Env } from '../env';
import type { GatewayRegistry } from '../gateways';
import type { Logger } from '../logger';
import type { Mailer } from '../mail';
import { orderJobs, reconcileOrders, startSubmissionWorker, type OrdersDeps, type SubmissionWorker } from '../orders';
import { paymentJobs } from '../payments';
import { providerJobs } from '../providers';
import { resellerJobs } from '../reseller';
import type { RealtimeHub } from '../realtime';
import { startJobs, type Jobs } from './boss';
import { pruneExpiredJob } from './platform';

export interface Background {
  jobs: Jobs;
  submission: SubmissionWorker;
  stop(): Promise<void>;
}

/** Instances starting together take turns for the seed and the job queue set-up. */
export const STARTUP_LOCK = 727_003;

/**
 * Everything that runs besides answering requests: the start-up reconciliation of orders, the
 * order submission worker and the recurring jobs (status sync, reconciliation, catalogue sync,
 * payments, clean-up). The web server runs it unless JOBS=false; `npm run worker` runs it alone.
 * A web server with JOBS=false sends no order and settles none.
 */
export async function startBackground(opts: {
  env: Env;
  database: Database;
  logger: Logger;
  orders: OrdersDeps;
  gateways: GatewayRegistry;
  realtime: RealtimeHub;
  publicUrl: () => string;
  /** Tells the team what needs a person (a provider out of money). */
  mailer?: Mailer;
}): Promise<Background> {
  const { env, database, logger } = opts;
  // Orders a previous run left between debit and submission are settled right away.
  void reconcileOrders(opts.orders).catch((err) => logger.warn({ err }, 'start-up order reconciliation failed'));
  const jobs = await database.withLock(STARTUP_LOCK, () =>
    startJobs(database, logger, [
      pruneExpiredJob(database.db),
      catalogSyncJob(database.db, opts.orders.providers, logger, env.CATALOG_SYNC_MINUTES, opts.realtime),
      ...orderJobs({ ...opts.orders, mailer: opts.mailer }),
      ...resellerJobs(opts.orders),
      ...providerJobs(database.db, opts.orders.providers, logger),
      ...analyticsJobs(database.db),
      ...paymentJobs({ db: database.db, gateways: opts.gateways, logger, realtime: opts.realtime, get publicUrl() { return opts.publicUrl(); } }),
    ]),
  );
  // A shop that starts on a year of orders builds its rollup now, not on the first page that asks.
  void jobs.send(ROLLUP_JOB).catch((err) => logger.warn({ err }, 'queueing the analytics rollup failed'));
  const submission = await startSubmissionWorker(opts.orders, database, { concurrency: env.ORDER_SUBMIT_CONCURRENCY, dripMinuteMs: env.DRIP_FEED_MINUTE_MS });
  return {
    jobs,
    submission,
    async stop() {
      await submission.stop().catch((err) => logger.error({ err }, 'stopping the submission worker failed'));
      await jobs.stop().catch((err) => logger.error({ err }, 'stopping jobs failed'));
    },
  };
}
