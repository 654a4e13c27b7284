import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

// The script of public pages whose islands alone hydrate (docs/decisions/0009-islands.md,
// 0022-islands-on-demand.md), built on its own after the app (vite.config.ts) into the same
// dist/client: a small loader (entry-islands.tsx) that wakes each island when it is first touched
// or when the browser is idle, one chunk per island, and React in a chunk of its own. Island
// components import `react-router`, the API client and lucide's icons as in the app; here they
// are islands/router.tsx, islands/hc.ts and islands/icons.ts.
export default defineConfig({
  root: 'src/web',
  publicDir: false,
  plugins: [islandVariants(), react()],
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
      output: { manualChunks: (id) => (REACT.test(id) ? 'react' : undefined) },
    },
  },
});
