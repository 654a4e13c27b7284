import { defineConfig } from 'vitest/config';
import { E2E_LANES } from './e2e/lanes';

// Journeys in a real Chromium against the built app: built once, started once per lane by e2e/global-setup.ts.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    // Generous, for a busy machine: journeys wait on what the page shows, never on the clock.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    // `expect.poll` waits for a state, not a moment: long enough for a busy machine.
    expect: { poll: { timeout: 30_000 } },
    pool: 'forks',
    // One worker per app lane (e2e/lanes.ts).
    maxWorkers: E2E_LANES,
    minWorkers: 1,
  },
});
