import { defineConfig } from 'vitest/config';

// Unit and integration tests live beside the code they test (`*.test.ts`).
// End-to-end journeys live in e2e/ and run with vitest.e2e.config.ts.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'sandbox/**/*.test.ts'],
    environment: 'node',
    // Generous: on a busy machine (two cores shared with other work) a PGlite migration or a
    // child app's start can take many times as long as on a quiet one. Tests wait on events
    // (vi.waitFor, expect.poll), never on the clock, so a long limit costs nothing when all is well.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // `expect.poll` waits for a state, not a moment: long enough for a busy machine.
    expect: { poll: { timeout: 30_000 } },
    pool: 'forks',
    // Most files wait on the database, child processes and clocks, not the CPU: three at a time
    // keep two cores busy (one would leave them idle more than half the run).
    maxWorkers: 3,
    minWorkers: 1,
    // Migrates one database per engine for the whole run; each test file gets a copy.
    globalSetup: ['src/server/testing/globalSetup.ts'],
  },
});
