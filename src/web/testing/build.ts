import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rollup } from 'vite';
import { CHUNK_REPORTS, reportChunks, type ChunkReport } from '../../../vite.chunks';

/** A chunk of a production build: what Rollup placed in it, and its code. */
export type BuiltChunk = ChunkReport & { code: string };
/** The npm package a module of a build belongs to (`@scope/name` or `name`); undefined for ours. */
export const packageOf = (id: string) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1];

/** The modules of a build's chunks `files` that ship code (a module Rollup placed but left out renders nothing). */
export const renderedIn = (chunks: Map<string, BuiltChunk>, files: Iterable<string>) =>
  [...files].flatMap((f) => Object.entries(chunks.get(f)?.modules ?? {}).filter(([, m]) => m.renderedLength > 0).map(([id]) => id));

export interface ProductionBuild {
  /** By file name, as the build's manifest and imports name them. */
  chunks: Map<string, BuiltChunk>;
  /** The text of a file the build made beside its chunks (its manifest, a stylesheet), by file name. */
  asset(fileName: string): string;
}

/** The client's build folder (vite.config.ts, vite.islands.config.ts `outDir`). */
const CLIENT = fileURLToPath(new URL('../../../dist/client/', import.meta.url));

/**
 * The production build of the app (vite.config.ts) or of the public pages' islands
 * (vite.islands.config.ts), as `npm run build` makes it. `npm test` makes that build in a step of
 * its own and runs the tests that read it after that step, saying so with `BUILT_DIST=fresh`
 * (scripts/test.ts): they read dist/ and the chunk reports it wrote beside it (vite.chunks.ts
 * `chunkReport`). Run otherwise, a test builds in memory for itself — dist/ may be missing, or
 * older than the code — with React's production build whatever NODE_ENV the test runner set.
 */
export async function productionBuild(which: 'app' | 'islands'): Promise<ProductionBuild> {
  if (process.env.BUILT_DIST === 'fresh') {
    const reports = JSON.parse(readFileSync(join(CHUNK_REPORTS, `${which}.json`), 'utf8')) as ChunkReport[];
    const read = (fileName: string) => readFileSync(join(CLIENT, fileName), 'utf8');
    return { chunks: new Map(reports.map((c) => [c.fileName, { ...c, code: read(c.fileName) }])), asset: read };
  }
  const [{ build }, config] = await Promise.all([
    import('vite'),
    which === 'app'
      ? import('../../../vite.config').then((m) => m.default({ command: 'build', mode: 'production', isSsrBuild: false, isPreview: false }))
      : import('../../../vite.islands.config').then((m) => m.default),
  ]);
  // Vite and the React plugin take "production" from NODE_ENV, which the test runner set to
  // "test": left so, JSX compiles to its development form (jsxDEV with file names and lines).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const output = (await build({
    ...config,
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: { ...config.build, write: false },
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  })) as Rollup.RollupOutput;
  const bundle = Object.fromEntries(output.output.map((o) => [o.fileName, o]));
  const chunks = new Map(reportChunks(bundle).map((c) => [c.fileName, { ...c, code: (bundle[c.fileName] as Rollup.OutputChunk).code }]));
  return {
    chunks,
    asset: (fileName) => {
      const found = bundle[fileName];
      if (found?.type !== 'asset') throw new Error(`the ${which} build made no ${fileName}`);
      return String(found.source);
    },
  };
}

/**
 * The two stylesheets of vite.config.ts's inputs as `npm run build` makes them: the app's (its
 * entry's, which the server puts inline into the app's pages) and the public pages'
 * (styles.public.css). Read from dist/ when `npm test` has just built it (`productionBuild`);
 * otherwise built in memory by Tailwind alone, the rest of the app's build being no part of them.
 */
export async function productionStylesheets(): Promise<{ app: string; public: string }> {
  if (process.env.BUILT_DIST === 'fresh') {
    const manifest = JSON.parse(readFileSync(join(CLIENT, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[] }>;
    const read = (fileName: string) => readFileSync(join(CLIENT, fileName), 'utf8');
    return { app: read(manifest['index.html']!.css![0]!), public: read(manifest['styles.public.css']!.file) };
  }
  const [{ build }, { default: tailwindcss }] = await Promise.all([import('vite'), import('@tailwindcss/vite')]);
  const output = (await build({
    configFile: false,
    root: 'src/web',
    logLevel: 'silent',
    plugins: [tailwindcss()],
    build: { write: false, rollupOptions: { input: { app: 'src/web/styles.css', public: 'src/web/styles.public.css' } } },
  })) as Rollup.RollupOutput;
  const sheet = (name: string) => String((output.output.find((o) => o.type === 'asset' && o.names.includes(`${name}.css`)) as Rollup.OutputAsset).source);
  return { app: sheet('app'), public: sheet('public') };
}
