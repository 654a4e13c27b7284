import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface AppProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves when the process has ended, however it ended. */
  exited(): Promise<void>;
}

export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'Admin-E2E-pass1!' };

/** How long an app may take to print its address (a busy machine starts it slowly). */
export const APP_START_TIMEOUT_MS = 180_000;

/**
 * Every app process this process started and that has not ended yet. Whatever happens to the
 * test that started one — a failed start, a thrown hook, a run that stops early — it is killed
 * when this process exits.
 */
const running = new Set<ChildProcess>();
let reaperInstalled = false;
function track(child: ChildProcess) {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (reaperInstalled) return;
  reaperInstalled = true;
  const killAll = () => {
    for (const c of running) c.kill('SIGKILL');
  };
  process.once('exit', killAll);
  // A run stopped by a signal takes its apps along, then ends as that signal would have ended it.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/**
 * Starts several apps at once; when any of them fails to start, the ones that did start are
 * stopped before the failure is reported, so nothing is left running for a teardown that
 * never learns of them.
 */
export async function startAppProcesses(starts: (() => Promise<AppProcess>)[]): Promise<AppProcess[]> {
  const results = await Promise.allSettled(starts.map((start) => start()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  const apps = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  if (!failed) return apps;
  await Promise.all(
    apps.map(async (app) => {
      await app.stop('SIGKILL');
      removeDataDir(app.dataDir);
    }),
  );
  throw failed.reason;
}

/** The process ids of the app processes started here that are still running. */
export const runningAppPids = (): number[] => [...running].map((c) => c.pid!).filter((pid) => pid !== undefined);

/**
 * The environment variable through which the unit and integration run (its global setup) names
 * the folder of the server's bundle (e2e/app-bundle.ts).
 */
export const APP_BUNDLE_ENV = 'ARTIM_TEST_APP_BUNDLE';

/**
 * The environment variable that names a migrated PGlite data directory (src/server/testing/globalSetup.ts):
 * an app started on the embedded database with a fresh data folder starts from a copy of it, as
 * each test file's database starts from a copy, instead of running every migration itself.
 */
export const APP_PGLITE_ENV = 'ARTIM_TEST_PGLITE_DIR';

/**
 * The arguments of `node` that start one of the server's entries: its bundle when the run has
 * built one (e2e/app-bundle.ts), else the source through tsx, as `npm start` and `npm run worker` do.
 */
export function entryArgs(entry: 'main' | 'worker'): string[] {
  const bundle = process.env[APP_BUNDLE_ENV];
  return bundle ? [join(bundle, `${entry}.mjs`)] : ['--import', 'tsx', `src/server/${entry}.ts`];
}

/**
 * Starts the built storefront (`node --import tsx src/server/main.ts`, or its bundle) on a free
 * port with its own data folder and waits until it prints its address.
 */
export async function startAppProcess(env: Record<string, string> = {}, dataDir?: string, args: string[] = [], startTimeoutMs = APP_START_TIMEOUT_MS): Promise<AppProcess> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'artim-e2e-'));
  const migrated = process.env[APP_PGLITE_ENV];
  const pglite = join(dir, 'pglite');
  if (migrated && !(env.DATABASE_URL ?? '') && !existsSync(pglite)) cpSync(migrated, pglite, { recursive: true });
  const child = spawn(process.execPath, [...entryArgs('main'), ...args], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      DATABASE_URL: '',
      // One secret for every process of a test, as for the instances of one shop.
      PROVIDER_KEYS_SECRET: 'test-provider-keys-secret-0123456789abcdef',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const started = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not start in ${startTimeoutMs / 1000} s:\n${out}`)), startTimeoutMs);
    const check = () => {
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited with ${code}:\n${out}`));
    });
  });
  // An app that did not start is stopped before the failure is reported: nobody else holds it.
  const url = await started.catch(async (err: unknown) => {
    if (child.exitCode === null && child.signalCode === null) {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await ended;
    }
    throw err;
  });
  return {
    url,
    dataDir: dir,
    child,
    output: () => out,
    exited: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
      }),
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

export function removeDataDir(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}
