/**
 * Crash points for the failure tests: with NODE_ENV=test and FAULT_INJECTION naming a point,
 * the process kills itself there, the way a power cut or an OOM kill would. Outside tests the
 * variable is ignored.
 */
const enabled = new Set(
  process.env.NODE_ENV === 'test' ? (process.env.FAULT_INJECTION ?? '').split(',').map((s) => s.trim()).filter(Boolean) : [],
);

export type CrashPoint = 'crash-after-debit';

export function crashPoint(name: CrashPoint): void {
  if (enabled.has(name)) process.kill(process.pid, 'SIGKILL');
}
