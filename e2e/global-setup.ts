import { execSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startAppProcess, removeDataDir, type AppProcess } from './app-process';
import { findChromium, INSTALL_HINT } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    chromiumPath: string | null;
  }
}

let app: AppProcess | undefined;

/** Builds the app once, starts it with a fresh data folder, and shares its URL with the journeys. */
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
  app = await startAppProcess({ SANDBOX_ORDER_SECONDS: '30', TRUST_PROXY_HOPS: '1', SANDBOX_PROVIDER_LATENCY_MS: '50-200', DRIP_FEED_MINUTE_MS: '1000' });
  project.provide('baseUrl', app.url);
  project.provide('chromiumPath', chromium);
}

export async function teardown() {
  if (!app) return;
  await app.stop();
  removeDataDir(app.dataDir);
}
