import { configDefaults, defineConfig } from 'vitest/config';

// Unit and integration tests live beside the code they test (`*.test.ts`).
// End-to-end journeys live in e2e/ and run with vitest.e2e.config.ts.

/**
 * Tests of pure logic: the domain rules (src/core) and the browser's code (src/web), in the node
 * environment. They open no database, start no process or server and leave nothing
 * behind, so they share one worker and the modules it has loaded, instead of each starting a
 * process and loading React, the translations and the core rules again (about a quarter of a
 * second of CPU per file before any test runs, and again for every shared module): 9-11 s of CPU
 * for the 59 files against 35-43 s as a process each.
 */
const PURE = ['src/core/**/*.test.ts', 'src/web/**/*.test.{ts,tsx}'];
/**
 * Kept apart from the shared worker: the tests of the production build (they run Vite); the
 * shop-time test, which moves the process's time zone (a worker thread cannot); and the tests in
 * happy-dom, whose Testing Library and React keep the document of the first file that loaded them.
 */
const NOT_PURE = ['src/web/**/bundle.test.ts', 'src/web/lib/shopTime.test.ts', 'src/web/**/*.dom.test.{ts,tsx}'];
/** PURE as the integration project leaves it out: every file of it but NOT_PURE's (same globs, one list each way). */
const PURE_ELSEWHERE = ['src/core/**/*.test.ts', 'src/web/**/!(bundle|shopTime|*.dom).test.{ts,tsx}'];

/**
 * The browser's tests in happy-dom: like the pure ones, but on a page. Testing Library and React
 * keep the document of the first file that loads them, so these share one page as well as one
 * worker thread (its own, beside the pure tests'): each file renders into it and cleans up after
 * itself. They took a third of the CPU this way (9-10 s against 30 s as a process each).
 */
const DOM = ['src/web/**/*.dom.test.{ts,tsx}'];
/**
 * Kept to a process of their own: the bonuses panel's test moves the time zone; the capture
 * script's runs the page's first script, whose listeners stay on the page; the later parts' test
 * answers the page's requests from an HTTP server of its own.
 */
const DOM_APART = ['src/web/features/admin/BonusesPanel.dom.test.tsx', 'src/web/islands/capture.dom.test.ts', 'src/web/islands/laterParts.dom.test.ts'];
/** DOM as the integration project leaves it out: every file of it but DOM_APART's. */
const DOM_ELSEWHERE = ['src/web/**/!(BonusesPanel|capture|laterParts).dom.test.{ts,tsx}'];

/**
 * The tests of the production build's bundles and stylesheets. `npm test` runs them apart, once
 * the build is done, on what it wrote (`BUILT_DIST=fresh`, src/web/testing/build.ts), rather than
 * each making the same build again beside it (scripts/test.ts); run alone, each builds for itself.
 */
const ON_THE_BUILD = ['src/web/app/bundle.test.ts', 'src/web/islands/bundle.test.ts', 'src/server/web/publicStylesheet.test.ts'];
/** Testing Library's waits as long as `expect.poll`'s, for the tests on a page. */
const DOM_SETUP = 'src/web/testing/domSetup.ts';
/** Migrates one database per engine for the whole run; each test file gets a copy. */
const GLOBAL_SETUP = 'src/server/testing/globalSetup.ts';

export default defineConfig({
  test: {
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
    // The pure tests' pool (below): one thread, reused from file to file. Vitest reads these
    // from here, not from the project.
    poolOptions: { threads: { isolate: false, maxThreads: 1, minThreads: 1 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['src/**/*.test.{ts,tsx}', 'sandbox/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PURE_ELSEWHERE, ...DOM_ELSEWHERE, ...ON_THE_BUILD],
          globalSetup: [GLOBAL_SETUP],
        },
      },
      {
        extends: true,
        test: { name: 'build', include: ON_THE_BUILD, globalSetup: [GLOBAL_SETUP] },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          include: DOM,
          exclude: [...configDefaults.exclude, ...DOM_APART],
          pool: 'threads',
          // One task for all the files: one page, set up once, that every file renders into.
          poolOptions: { threads: { singleThread: true, isolate: false } },
          isolate: false,
          setupFiles: [DOM_SETUP],
        },
      },
      {
        extends: true,
        test: {
          name: 'pure',
          include: PURE,
          exclude: [...configDefaults.exclude, ...NOT_PURE],
          pool: 'threads',
          isolate: false,
        },
      },
    ],
  },
});
