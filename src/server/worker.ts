import { resolve } from 'node:path';
import { enableCaches } from './cache';
import { openDatabase } from './db/client';
import { EnvError, type Env } from './env';
import { startBackground, STARTUP_LOCK } from './jobs/background';
import { envOrExit, stopOnSignals } from './lifecycle';
import { createLogger } from './logger';
import { createMailer } from './mail/mailer';
import { createRealtimeHub } from './realtime/hub';
import { startExternalParts } from './sandbox';
import { ensureEnvProviders, keyBox, openProviderRegistry, providerKeysSecret } from './providers';

/**
 * Entry point of `npm run worker`: the background work alone — the order submission worker and
 * the recurring jobs — for shops that run web and workers apart. The web instances then run
 * with JOBS=false; any number of workers and web instances share one PostgreSQL database.
 * The sandbox provider and gateway live inside a web process, so a separate worker needs the
 * real ones (or a sandbox provider run on its own: `tsx sandbox/provider/main.ts`, with
 * PROVIDER=qqtube pointing at it).
 */
export function checkWorkerEnv(env: Env): void {
  if (!env.DATABASE_URL) throw new EnvError('Invalid environment configuration:\n  DATABASE_URL: a separate worker shares PostgreSQL with the web instances (the embedded database belongs to one process)');
  if (!env.PROVIDER_KEYS_SECRET) throw new EnvError('Invalid environment configuration:\n  PROVIDER_KEYS_SECRET: a separate worker opens the provider keys the web instances sealed; give it theirs');
  if (env.PROVIDER === 'sandbox' || env.PAYMENT_GATEWAY === 'sandbox') {
    throw new EnvError('Invalid environment configuration:\n  PROVIDER/PAYMENT_GATEWAY: a separate worker cannot reach a sandbox that lives inside a web process; point it at the same provider and gateway as the web instances');
  }
}

async function main() {
  const env = envOrExit(checkWorkerEnv);
  const logger = createLogger(env.LOG_LEVEL);
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: resolve(env.DATA_DIR, 'pglite'), poolSize: env.DATABASE_POOL_SIZE });
  const stopCaches = await enableCaches(database);
  const external = await startExternalParts(env);
  const box = keyBox(providerKeysSecret(env));
  await database.withLock(STARTUP_LOCK, () => ensureEnvProviders(database.db, box, external.envProviders));
  const providers = await openProviderRegistry(database, { box, logger, envProviders: external.envProviders });
  const realtime = await createRealtimeHub(database, logger);
  const orders = { db: database.db, providers, logger, realtime };
  const background = await startBackground({ env, database, logger, orders, gateways: external.gateways, realtime, publicUrl: () => env.PUBLIC_URL ?? `http://localhost:${env.PORT}`, mailer: createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, db: database.db }) });
  logger.info({ concurrency: env.ORDER_SUBMIT_CONCURRENCY }, 'worker running: order submission and recurring jobs');

  stopOnSignals(logger, 'worker', async () => {
    await background.stop();
    await realtime.close();
    await stopCaches();
    await providers.close();
    await external.close();
    await database.close();
  });
}

if (process.argv[1] && /worker\.ts$/.test(process.argv[1])) void main();
