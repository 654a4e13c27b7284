import { describe, expect, it } from 'vitest';
import { runningAppPids, startAppProcess, startAppProcesses } from '../../../e2e/app-process';

/** Whether a process with this id still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** An app that starts as quickly as one can: no background work, a sandbox provider that answers at once. */
const quick = () => startAppProcess({ JOBS: 'false', SANDBOX_PROVIDER_LATENCY_MS: '0' }, undefined, ['--no-web']);

describe('app processes started by tests', () => {
  it('an app that does not start in time is stopped, not left running', async () => {
    const starting = startAppProcess({ JOBS: 'false' }, undefined, ['--no-web'], 1);
    const pids = runningAppPids();
    expect(pids).toHaveLength(1);
    await expect(starting).rejects.toThrow(/did not start/);
    expect(alive(pids[0]!)).toBe(false);
    expect(runningAppPids()).toEqual([]);
  });

  it('when one of several apps fails to start, the others are stopped too', { timeout: 240_000 }, async () => {
    const pids: number[] = [];
    const watched = (start: () => Promise<Awaited<ReturnType<typeof quick>>>) => () => {
      const p = start();
      pids.push(...runningAppPids().filter((pid) => !pids.includes(pid)));
      return p;
    };
    const failing = () => startAppProcess({ JOBS: 'false' }, undefined, ['--no-web'], 1);
    await expect(startAppProcesses([watched(quick), watched(failing)])).rejects.toThrow(/did not start/);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(runningAppPids()).toEqual([]);
  });
});
