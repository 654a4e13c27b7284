import { announceGeneratedAdmin } from './db/seed';
import { EnvError, parseEnv } from './env';
import { createLogger } from './logger';
import { startServer } from './server';

/**
 * Entry point of `npm start` (built web app) and `npm run dev` (`--dev`: Vite with hot reload);
 * `--no-web` serves the API alone.
 */
async function main() {
  let env;
  try {
    env = parseEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(env.LOG_LEVEL);
  const web = process.argv.includes('--dev') ? 'dev' : process.argv.includes('--no-web') ? 'none' : 'built';
  const running = await startServer({ env, logger, web });

  if (running.seed.generatedAdmin) {
    console.log(announceGeneratedAdmin(running.seed.generatedAdmin, { isTTY: process.stdout.isTTY === true, dataDir: env.DATA_DIR }));
  }
  console.log(`\n  Artım is running at ${running.url}${env.SANDBOX ? '  (sandbox provider and card gateway)' : ''}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    await running.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

void main();
