import { announceGeneratedAdmin } from './db/seed';
import { envOrExit, stopOnSignals } from './lifecycle';
import { createLogger } from './logger';
import { startServer } from './server';

/**
 * Entry point of `npm start` (built web app) and `npm run dev` (`--dev`: Vite with hot reload);
 * `--no-web` serves the API alone.
 */
async function main() {
  const env = envOrExit();
  const logger = createLogger(env.LOG_LEVEL);
  const web = process.argv.includes('--dev') ? 'dev' : process.argv.includes('--no-web') ? 'none' : 'built';
  const running = await startServer({ env, logger, web });

  if (running.seed.generatedAdmin) {
    console.log(announceGeneratedAdmin(running.seed.generatedAdmin, { isTTY: process.stdout.isTTY === true, dataDir: env.DATA_DIR }));
  }
  console.log(`\n  Artım is running at ${running.url}${env.SANDBOX ? '  (sandbox provider and card gateway)' : ''}\n`);

  stopOnSignals(logger, 'server', () => running.close());
}

void main();
