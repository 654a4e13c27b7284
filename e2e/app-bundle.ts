import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * Packages loaded from node_modules at run time rather than bundled: the CommonJS ones (and what
 * their code reaches by file path: pino's worker, PGlite's WebAssembly) and the build tools.
 */
const UNBUNDLED = ['pg', 'pg-boss', 'pino', 'nodemailer', '@electric-sql/pglite', 'vite', 'esbuild', 'pg-native'];

/**
 * The server's entries (`src/server/main.ts` as `main.mjs`, `src/server/worker.ts` as
 * `worker.mjs`) bundled once for the tests that start them as processes, many times over
 * (`startAppProcess`, `entryArgs`): loading the server's source files one by one through tsx's
 * loader, and its packages' ES modules file by file (kysely, drizzle-orm, better-auth, zod,
 * hono…, about 800 in all), takes most of a start — 3–4 s on a quiet machine, three times that on
 * a busy one. The code is the same: esbuild is what tsx transforms each file with;
 * `import.meta.url` keeps the address of the file it is written in (the migrations folder is found
 * by it), and worker.ts's test of its own file name names worker.mjs. The packages in UNBUNDLED
 * load from node_modules, so the bundle is written inside the project, where their names resolve.
 * The journeys start the app as `npm start` does (e2e/global-setup.ts).
 */
/** Removes the bundles of runs that ended without removing theirs (stopped by a signal): their process is gone. */
function removeAbandoned(parent: string) {
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    const pid = Number(/^app-bundle-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(join(parent, name), { recursive: true, force: true });
    }
  }
}

/** How worker.ts knows it is the script node runs (`process.argv[1]`); its bundle is worker.mjs. */
const WORKER_GUARD = '/worker\\.ts$/';

export async function buildAppBundle(root = process.cwd()): Promise<{ dir: string; remove(): void }> {
  const parent = join(root, '.test-data');
  removeAbandoned(parent);
  const dir = join(parent, `app-bundle-${process.pid}-${randomBytes(3).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const workerEntry = resolve(root, 'src/server/worker.ts');
  await build({
    entryPoints: { main: resolve(root, 'src/server/main.ts'), worker: workerEntry },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    external: UNBUNDLED,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [
      {
        name: 'as-from-source',
        setup(b) {
          b.onLoad({ filter: /\.tsx?$/ }, (args) => {
            let text = readFileSync(args.path, 'utf8');
            const original = text;
            text = text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
            // worker.ts runs its main() only when it is the script node was started with.
            if (args.path === workerEntry) {
              text = text.replace(WORKER_GUARD, '/worker\\.mjs$/');
              if (!text.includes('/worker\\.mjs$/')) throw new Error(`${args.path} no longer starts on ${WORKER_GUARD}: update e2e/app-bundle.ts`);
            }
            return text === original ? undefined : { contents: text, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
          });
        },
      },
    ],
  });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
