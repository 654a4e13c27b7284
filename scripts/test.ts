/**
 * `npm test`: typecheck, lint, unit + integration tests, then the browser journeys — stopping at
 * the first step that fails. Prints one closing line with the counts.
 *
 * Steps that do not depend on each other share the machine: typecheck beside lint (each keeps one
 * core busy), and the production build the journeys need beside the unit tests (which spend much
 * of their time waiting on databases and child processes). A step run beside another keeps its
 * output until it ends, so no two outputs interleave.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const resultsDir = '.test-results';
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

type Step = { name: string; cmd: string; args: string[]; report?: string; env?: Record<string, string>; quiet?: boolean };
type Outcome = { step: Step; status: number; seconds: string; output: string };

const npx = (name: string, args: string[], extra: Partial<Step> = {}): Step => ({ name, cmd: 'npx', args, ...extra });
const vitest = (name: string, args: string[], report: string, env?: Record<string, string>): Step =>
  npx(name, ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { report, env });

/** Each group's steps run at once; the groups run in order. */
const groups: Step[][] = [
  [npx('typecheck', ['tsc', '--noEmit', '-p', '.'], { quiet: true }), npx('lint', ['eslint', '--max-warnings', '0', '.'], { quiet: true })],
  [
    vitest('unit + integration', [], `${resultsDir}/unit.json`),
    { name: 'build (for the journeys)', cmd: 'npm', args: ['run', 'build', '--silent'], env: { NODE_ENV: 'production' }, quiet: true },
  ],
  [vitest('end-to-end', ['--config', 'vitest.e2e.config.ts'], `${resultsDir}/e2e.json`, { E2E_SKIP_BUILD: 'true' })],
];

function run(step: Step): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(step.cmd, step.args, { stdio: step.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...step.env } });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d));
    child.stderr?.on('data', (d: Buffer) => (output += d));
    child.on('close', (code) => resolve({ step, status: code ?? 1, seconds: ((Date.now() - started) / 1000).toFixed(1), output }));
  });
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const group of groups) {
  console.log(`\n▶ ${group.map((s) => s.name).join(' + ')}`);
  const outcomes = await Promise.all(group.map(run));
  let stop = false;
  for (const { step, status, seconds, output } of outcomes) {
    if (output.trim()) console.log(`\n── ${step.name}\n${output.trimEnd()}`);
    if (step.report && existsSync(step.report)) {
      const r = JSON.parse(readFileSync(step.report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
      passed += r.numPassedTests;
      failed += r.numFailedTests;
      skipped += r.numPendingTests + r.numTodoTests;
    } else if (status === 0) passed += 1;
    else failed += 1;
    console.log(`◀ ${step.name}: ${status === 0 ? 'ok' : 'FAILED'} in ${seconds} s`);
    if (status !== 0) stop = true;
  }
  if (stop) {
    console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
    process.exit(1);
  }
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
