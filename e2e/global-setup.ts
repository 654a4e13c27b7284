import { execSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { migratedPglite } from '../src/server/testing/globalSetup';
import { APP_PGLITE_ENV, startAppProcess, startAppProcesses, removeDataDir, type AppProcess } from './app-process';
import { findChromium, INSTALL_HINT } from './chromium';
import { E2E_LANES } from './lanes';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrls: string[];
    chromiumPath: string | null;
  }
}

let apps: AppProcess[] = [];

/**
 * Builds the app once and starts one app per lane, each with a fresh data folder, and shares their
 * URLs with the journeys: a journey file talks only to its lane's app (e2e/browser.ts), so the
 * files of one lane run one after another against state no other file touches.
 */
export async function setup(project: TestProject) {
  const chromium = findChromium();
  if (!chromium) {
    if (process.env.CI === 'true') throw new Error(INSTALL_HINT);
    console.warn(`\n${INSTALL_HINT}\nThe browser journeys are skipped.\n`);
  }
  if (process.env.E2E_SKIP_BUILD !== 'true') execSync('npm run build --silent', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  // Sandbox orders finish in 30 s, so the order journey sees them progress and complete. Behind
  // one trusted proxy, so that each browser context counts as its own visitor (e2e/browser.ts).
  // The provider answers after a short, realistic delay, as it does for `npm start` (there 300–1500 ms).
  // The first sandbox provider refuses no order, so each journey's orders stay at the provider
  // that has refill, cancel and drip-feed (failover to the second is tested in src/server/sandbox.test.ts).
  const env = { SANDBOX_ORDER_SECONDS: '30', TRUST_PROXY_HOPS: '1', SANDBOX_PROVIDER_LATENCY_MS: '50-200', DRIP_FEED_MINUTE_MS: '1000', SANDBOX_PROVIDER_REFUSE_EVERY: '0' };
  // Each lane's app starts from a copy of the migrated embedded database, made once (and kept, as for the unit tests).
  process.env[APP_PGLITE_ENV] = (await migratedPglite()).dataDir;
  apps = await startAppProcesses(Array.from({ length: E2E_LANES }, () => () => startAppProcess(env)));
  project.provide('baseUrls', apps.map((a) => a.url));
  project.provide('chromiumPath', chromium);
}

export async function teardown() {
  await Promise.all(
    apps.map(async (app) => {
      await app.stop();
      removeDataDir(app.dataDir);
    }),
  );
}
