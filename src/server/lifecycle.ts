import { EnvError, parseEnv, type Env } from './env';
import type { Logger } from './logger';

/**
 * What the two entry points (`npm start`, `npm run worker`) share: the environment read once — a
 * wrong value stops the process with the message naming it, never a stack trace — and a clean
 * stop on SIGTERM or SIGINT, given 15 seconds before the process exits anyway.
 */
export function envOrExit(check: (env: Env) => void = () => {}): Env {
  try {
    const env = parseEnv();
    check(env);
    return env;
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

export function stopOnSignals(logger: Logger, what: string, close: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${what} shutting down`);
    setTimeout(() => process.exit(1), 15_000).unref();
    await close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
