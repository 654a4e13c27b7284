import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { ManualChunkMeta } from 'rollup';
import { defineConfig, type Plugin } from 'vite';
import { chunkReport, staticClosure } from './vite.chunks';

const SRC = resolve(__dirname, 'src');

/**
 * A module `x.ts` (or `.tsx`) of src/ with an `x.islands.ts` beside it is built from that file for
 * public pages (docs/decisions/0022-islands-on-demand.md): the same exports, without the app's
 * query cache. The variant itself may import the module it replaces, to re-export what it keeps.
 */
export function islandVariants(): Plugin {
  return {
    name: 'artim-island-variants',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || source.includes('\0')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external || !resolved.id.startsWith(SRC)) return resolved;
      const variant = resolved.id.replace(/\.(tsx?)$/, '.islands.$1');
      if (variant === resolved.id || variant === importer || !existsSync(variant)) return resolved;
      return variant;
    },
  };
}

/** React itself, in one chunk that loads with the first island to wake (only React: a module of ours placed there would tie the loader to it). */
const REACT = /\/node_modules\/(react|react-dom|scheduler)\//;
const LOADER = /\/src\/web\/entry-islands\.tsx$/;
/**
 * The API client and the error codes: a chunk of their own with the modules of the frame's graph
 * that import them (the app's API modules the islands' variants re-export), loaded with a page's
 * first request (a sign-out, a sign-in, the platform menu, a message sent: each imports it when it
 * runs). Were it left to Rollup, `frame` would take it in through those modules.
 */
const API = /\/src\/(web\/lib\/api|web\/islands\/hc|core\/errors)\.ts$/;
/**
 * What the first island to wake brings besides React and its own chunk: the islands runtime. The
 * header, which waits to be touched like most islands (docs/decisions/0027), is a chunk of its own.
 */
const FRAME = [/\/src\/web\/islands\/runtime\.tsx$/];

interface IslandChunks {
  loader: Set<string>;
  api: Set<string>;
  frame: Set<string>;
}
const chunksOf = new WeakMap<ManualChunkMeta['getModuleInfo'], IslandChunks>();
/**
 * Two groups of modules, worked out once per build when the module graph is complete. `loader`:
 * the loader and what it imports statically (the attribute names, the registry, Vite's preload
 * helper), named so that no other chunk takes them in. `frame`: our modules that the runtime
 * imports statically, the loader's excepted — one chunk instead of a dozen of a few hundred bytes
 * each, every one a request with its own import and export lists. A manual chunk
 * takes in the static imports of its modules that no other manual chunk holds: without `loader`,
 * `frame` would take the attribute names, and the loader would import it, and React, at once.
 */
function islandChunks(meta: ManualChunkMeta): IslandChunks {
  let found = chunksOf.get(meta.getModuleInfo);
  if (found) return found;
  const all = [...meta.getModuleIds()];
  const loaderId = all.find((id) => LOADER.test(id));
  const roots = FRAME.map((root) => all.find((id) => root.test(id))).filter((id): id is string => Boolean(id));
  const loader = loaderId ? staticClosure(meta.getModuleInfo, loaderId) : new Set<string>();
  const closure = roots.flatMap((root) => [...staticClosure(meta.getModuleInfo, root)]).filter((id) => id.startsWith(SRC) && !loader.has(id));
  const api = new Set(all.filter((id) => API.test(id) || (closure.includes(id) && meta.getModuleInfo(id)?.importedIds.some((dep) => API.test(dep)))));
  const frame = new Set(closure.filter((id) => !api.has(id)));
  found = { loader, api, frame };
  chunksOf.set(meta.getModuleInfo, found);
  return found;
}

function islandsChunk(id: string, meta: ManualChunkMeta): string | undefined {
  if (REACT.test(id)) return 'react';
  const { loader, api, frame } = islandChunks(meta);
  if (loader.has(id)) return 'islands';
  if (api.has(id)) return 'api';
  if (frame.has(id)) return 'frame';
  return undefined;
}

export default defineConfig({
  root: 'src/web',
  publicDir: false,
  plugins: [islandVariants(), react(), chunkReport('islands')],
  resolve: {
    alias: [
      { find: /^react-router$/, replacement: resolve(SRC, 'web/islands/router.tsx') },
      { find: /^hono\/client$/, replacement: resolve(SRC, 'web/islands/hc.ts') },
      { find: /^lucide-react$/, replacement: resolve(SRC, 'web/islands/icons.ts') },
    ],
  },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: false,
    manifest: 'islands-manifest.json',
    target: 'es2022',
    reportCompressedSize: false,
    // Waking an island preloads its chunk's imports at once (one round trip, not one per level of
    // imports); nothing is preloaded before an island wakes. Module scripts need no polyfill.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { islands: 'src/web/entry-islands.tsx' },
      // big.js is only for exact arithmetic the islands never do (src/core/money.ts); formatting is done on strings.
      treeshake: { moduleSideEffects: (id) => !id.includes('/node_modules/big.js/') },
      output: { manualChunks: islandsChunk },
    },
  },
});
