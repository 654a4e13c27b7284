/**
 * `npm test`: typecheck, lint, unit + integration tests and the browser journeys — stopping at the
 * first step that fails (the others still running are stopped). Prints one closing line with the counts.
 *
 * Each step starts as soon as what it needs is done: the typecheck, ESLint, the production build
 * and the unit tests at once; the journeys, and the tests that check what the build made, when the
 * build is done, beside the unit tests. One after
 * the other they took about 22 minutes on two quiet cores (2026-11-27: typecheck 73 s beside lint
 * 57 s, unit + integration 545 s beside the build's 75 s, journeys 703 s). The unit tests wait on
 * databases and child processes, the journeys on the browser, the app and the sandboxes' clocks,
 * the build half the time (37 s of CPU); side by side, one's waits are the other's CPU time.
 *
 * The unit tests print as they go; every other step keeps its output until it ends, so no two
 * outputs interleave. With TEST_CPU=1 each step's closing line also gives the CPU time it used
 * (user + system, its processes included; needs /usr/bin/time).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const resultsDir = '.test-results';
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

type Step = {
  name: string;
  cmd: string;
  args: string[];
  report?: string;
  env?: Record<string, string>;
  /** Prints as it goes (at most one step does); the others print when they end. */
  live?: boolean;
  /** Steps that must have passed before this one starts. */
  after?: string[];
};
type Outcome = { step: Step; status: number; seconds: string; cpu?: string; output: string };

const npx = (name: string, args: string[], extra: Partial<Step> = {}): Step => ({ name, cmd: 'npx', args, ...extra });
const vitest = (name: string, args: string[], report: string, extra: Partial<Step> = {}): Step =>
  npx(name, ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { report, ...extra });

const BUILD = 'build';
const steps: Step[] = [
  npx('typecheck', ['tsc', '--noEmit', '-p', '.']),
  npx('lint', ['eslint', '--max-warnings', '0', '.']),
  { name: BUILD, cmd: 'npm', args: ['run', 'build', '--silent'], env: { NODE_ENV: 'production' } },
  // The projects are vitest.config.ts's: the tests of the production build's bundles and
  // stylesheets (`build`) run apart, once the build is done, on what it wrote (`BUILT_DIST=fresh`,
  // src/web/testing/build.ts), rather than each making the same build again beside it (the three
  // files took 39 s of CPU building for themselves, 11 s reading the build, on 2026-11-27's busy machine).
  vitest('unit + integration', ['--project', 'integration', '--project', 'pure', '--project', 'dom'], `${resultsDir}/unit.json`, { live: true }),
  vitest('tests of the build', ['--project', 'build'], `${resultsDir}/build.json`, { env: { BUILT_DIST: 'fresh' }, after: [BUILD] }),
  vitest('end-to-end', ['--config', 'vitest.e2e.config.ts'], `${resultsDir}/e2e.json`, { env: { E2E_SKIP_BUILD: 'true' }, after: [BUILD] }),
];

const measureCpu = process.env.TEST_CPU === '1' && existsSync('/usr/bin/time');
const running = new Set<ChildProcess>();
/** Every step's process group: a step stopped early may leave processes behind its first one (a test worker finishing its file). */
const groups = new Set<number>();

function run(step: Step): Promise<Outcome> {
  const started = Date.now();
  const cpuFile = `${resultsDir}/cpu-${step.name.replace(/\W+/g, '-')}.txt`;
  const [cmd, args] = measureCpu ? ['/usr/bin/time', ['-o', cpuFile, '-f', '%U %S', step.cmd, ...step.args]] : [step.cmd, step.args];
  return new Promise((resolve) => {
    // Its own process group, so that a step stopped early takes its processes along.
    const child = spawn(cmd, args, { stdio: ['ignore', step.live ? 'inherit' : 'pipe', step.live ? 'inherit' : 'pipe'], env: { ...process.env, ...step.env }, detached: true });
    running.add(child);
    if (child.pid) groups.add(child.pid);
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d));
    child.stderr?.on('data', (d: Buffer) => (output += d));
    child.on('close', (code, signal) => {
      running.delete(child);
      let cpu: string | undefined;
      if (measureCpu && existsSync(cpuFile)) {
        const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
        if (Number.isFinite(user) && Number.isFinite(system)) cpu = (user! + system!).toFixed(1);
      }
      resolve({ step, status: code ?? (signal ? 1 : 0), seconds: ((Date.now() - started) / 1000).toFixed(1), cpu, output });
    });
  });
}

function stopAll(signal: NodeJS.Signals = 'SIGTERM') {
  for (const child of running) {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  }
}
/** Kills whatever is left of every step's process group (nothing, after a run that was not stopped). */
function killLeftovers() {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // the group is empty
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    stopAll(signal);
    killLeftovers();
    process.exit(1);
  });
}

let passed = 0;
let failed = 0;
let skipped = 0;
let stopped = false;
const done = new Set<string>();
const pending = new Set(steps);
const inFlight = new Map<Step, Promise<Outcome>>();
const runStarted = Date.now();

function startReady() {
  for (const step of [...pending]) {
    if ((step.after ?? []).every((name) => done.has(name))) {
      pending.delete(step);
      console.log(`▶ ${step.name}`);
      inFlight.set(step, run(step));
    }
  }
}

startReady();
while (inFlight.size) {
  const outcome = await Promise.race(inFlight.values());
  const { step, status, seconds, cpu, output } = outcome;
  inFlight.delete(step);
  if (stopped) continue;
  if (output.trim()) console.log(`\n── ${step.name}\n${output.trimEnd()}`);
  if (step.report && existsSync(step.report)) {
    const r = JSON.parse(readFileSync(step.report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
  } else if (status === 0) passed += 1;
  else failed += 1;
  const at = ((Date.now() - runStarted) / 1000).toFixed(1);
  console.log(`◀ ${step.name}: ${status === 0 ? 'ok' : 'FAILED'} in ${seconds} s${cpu ? ` (CPU ${cpu} s)` : ''}, ${at} s into the run`);
  if (status !== 0) {
    stopped = true;
    const others = [...inFlight.keys()].map((s) => s.name);
    if (others.length) console.log(`■ stopping ${others.join(', ')}`);
    stopAll();
  } else {
    done.add(step.name);
    startReady();
  }
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped in ${((Date.now() - runStarted) / 1000).toFixed(1)} s`);
// A stopped step's first process has ended; a test worker of it may still be finishing its file.
if (stopped) killLeftovers();
if (stopped || pending.size) process.exit(1);
