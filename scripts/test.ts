/**
 * `npm test`: typecheck, lint, unit + integration tests, then the browser journeys — in that
 * order, stopping at the first stage that fails. Prints one closing line with the counts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const resultsDir = '.test-results';
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

type Stage = { name: string; cmd: string; args: string[]; report?: string };
const stages: Stage[] = [
  { name: 'typecheck', cmd: 'npx', args: ['tsc', '--noEmit', '-p', '.'] },
  { name: 'lint', cmd: 'npx', args: ['eslint', '--max-warnings', '0', '.'] },
  {
    name: 'unit + integration',
    cmd: 'npx',
    args: ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsDir}/unit.json`],
    report: `${resultsDir}/unit.json`,
  },
  {
    name: 'end-to-end',
    cmd: 'npx',
    args: ['vitest', 'run', '--config', 'vitest.e2e.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsDir}/e2e.json`],
    report: `${resultsDir}/e2e.json`,
  },
];

let passed = 0;
let failed = 0;
let skipped = 0;
for (const stage of stages) {
  const started = Date.now();
  console.log(`\n▶ ${stage.name}`);
  const run = spawnSync(stage.cmd, stage.args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (stage.report && existsSync(stage.report)) {
    const r = JSON.parse(readFileSync(stage.report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
  } else if (!stage.report) {
    if (run.status === 0) passed += 1;
    else failed += 1;
  }
  console.log(`◀ ${stage.name}: ${run.status === 0 ? 'ok' : 'FAILED'} in ${seconds} s`);
  if (run.status !== 0) {
    if (stage.report && !existsSync(stage.report)) failed += 1;
    console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
    process.exit(run.status ?? 1);
  }
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
