import { defineConfig } from 'vitest/config';

// Journeys in a real Chromium against the built app, started once by e2e/global-setup.ts.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
