import { defineConfig } from 'vitest/config';

// Unit and integration tests live beside the code they test (`*.test.ts`).
// End-to-end journeys live in e2e/ and run with vitest.e2e.config.ts.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'sandbox/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Migrates one database per engine for the whole run; each test file gets a copy.
    globalSetup: ['src/server/testing/globalSetup.ts'],
  },
});
