import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ensurePaymentMethods } from './payments/methods';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import type { ViteDevServer } from 'vite';
import { buildApp, type AppDeps } from './app';
import { enableCaches } from './cache';
import { openDatabase, type Database } from './db/client';
import { seed, type SeedResult } from './db/seed';
import type { Env } from './env';
import type { Jobs } from './jobs/boss';
import { startBackground, STARTUP_LOCK } from './jobs/background';
import { addSandboxFallbacks, syncCatalogues } from './catalog/sources';
import { SANDBOX_SLOT_2, startExternalParts, type ExternalParts } from './sandbox';
import { ensureEnvProviders, keyBox, openProviderRegistry, providerKeysSecret } from './providers';
import { enableSubmissionWake } from './orders/service';
import { createRealtimeHub } from './realtime/hub';
import { createLogger, type Logger } from './logger';
import { createMailer } from './mail/mailer';
import { createBuiltRenderer, createDevRenderer, type WebRenderer } from './web/renderer';

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  seed: SeedResult;
  /** The sandbox servers this process runs, when any (benches watch their orders and calls). */
  sandbox: ExternalParts['sandbox'];
  close(): Promise<void>;
}

export interface StartOptions {
  env: Env;
  logger?: Logger;
  /** `built` serves dist/ (npm start), `dev` runs Vite with hot reload, `none` serves the API only. */
  web?: 'built' | 'dev' | 'none';
  /** Use this database instead of opening one from the environment. */
  database?: Database;
}

/** Keeps a generated session secret in the data folder so sessions survive a restart. */
function authSecret(env: Env): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  mkdirSync(env.DATA_DIR, { recursive: true });
  const file = resolve(env.DATA_DIR, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const env = opts.env;
  const logger = opts.logger ?? createLogger(env.LOG_LEVEL);
  const database =
    opts.database ??
    (await openDatabase({ url: env.DATABASE_URL, dataDir: resolve(env.DATA_DIR, 'pglite'), poolSize: env.DATABASE_POOL_SIZE }));
  const seeded = await database.withLock(STARTUP_LOCK, () => seed(database.db, { adminEmail: env.ADMIN_EMAIL, adminPassword: env.ADMIN_PASSWORD }));
  const secret = authSecret(env);
  // Sessions, roles, settings and catalogue rows are read through caches that every instance
  // keeps and that forget what changes anywhere (LISTEN/NOTIFY, src/server/cache.ts).
  const stopCaches = await enableCaches(database);

  const external = await startExternalParts(env);
  // The environment's provider is the first of a fresh shop, the sandbox's second provider gets its
  // own row; the registry reads every provider row.
  const box = keyBox(providerKeysSecret(env));
  const [envId, ...slotIds] = await database.withLock(STARTUP_LOCK, () => ensureEnvProviders(database.db, box, external.envProviders));
  const providers = await openProviderRegistry(database, { box, logger, envProviders: external.envProviders });
  // Every payment method has its row; the ones a sandbox serves are on when first written.
  await database.withLock(STARTUP_LOCK, () => ensurePaymentMethods(database.db, external.sandboxMethods));
  // The catalogue is synced before the first request when the provider answers in time; pages
  // never wait on the provider afterwards. The sandbox's second provider then becomes the next
  // source of the first one's services.
  const fallbackId = slotIds[external.envProviders.slice(1).findIndex((p) => p.envSlot === SANDBOX_SLOT_2)];
  await Promise.race([
    (async () => {
      await syncCatalogues(database.db, providers, logger);
      if (envId && fallbackId) await addSandboxFallbacks(database.db, envId, fallbackId);
    })().catch((err) => logger.warn({ err }, 'catalogue sync at start failed')),
    new Promise((ok) => setTimeout(ok, 15_000).unref()),
  ]);

  const realtime = await createRealtimeHub(database, logger);
  const ordersDeps = { db: database.db, providers, logger, realtime };

  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, db: database.db });
  const background = env.JOBS
    ? await startBackground({ env, database, logger, orders: ordersDeps, gateways: external.gateways, realtime, publicUrl: () => deps.publicUrl, mailer })
    : undefined;
  const jobs: Jobs | undefined = background?.jobs;
  // Accepted orders wake this process's submission worker at once and the others by NOTIFY.
  enableSubmissionWake(database, () => background?.submission.wake());

  let web: WebRenderer | undefined;
  let vite: ViteDevServer | undefined;
  const mode = opts.web ?? 'built';
  if (mode === 'built') {
    web = await createBuiltRenderer();
  } else if (mode === 'dev') {
    const { createServer: createVite } = await import('vite');
    vite = await createVite({ server: { middlewareMode: true }, appType: 'custom' });
    web = createDevRenderer(vite);
  }

  const deps: AppDeps = {
    env,
    database,
    logger,
    jobs,
    web,
    clientDir: mode === 'built' ? resolve('dist/client') : undefined,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    authSecret: secret,
    mailer,
    providers,
    providerKeys: box,
    gateways: external.gateways,
    realtime,
  };
  const app = buildApp(deps);
  const listener = getRequestListener(app.fetch);
  const handler = vite
    ? (req: IncomingMessage, res: ServerResponse) => vite!.middlewares(req, res, () => void listener(req, res))
    : listener;
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(env.PORT, env.HOST, () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  if (!env.PUBLIC_URL) deps.publicUrl = `http://localhost:${port}`;
  external.setPublicUrl(deps.publicUrl);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      server.closeIdleConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await background?.stop();
      await vite?.close();
      await providers.close();
      await external.close();
      await realtime.close();
      await stopCaches();
      if (!opts.database) await database.close();
    })());

  return { url: `http://localhost:${port}`, port, deps, seed: seeded, sandbox: external.sandbox, close };
}
