import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { chunkReport, groupedChunks, iconImports } from './vite.chunks';
import { onBuildWarning } from './vite.warnings';

// The browser app lives in src/web and runs on React 19, as the server does
// (docs/decisions/0008-react-in-the-browser.md). `vite build` writes the client to dist/client;
// `vite build --ssr` (see package.json) writes the server renderer to dist/server. Public pages
// that hydrate only their islands have a script of their own: vite.islands.config.ts.
export default defineConfig(() => ({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), iconImports(), chunkReport('app')],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    cssCodeSplit: true,
    reportCompressedSize: false,
    rollupOptions: {
      // Besides the app (index.html), the public pages' stylesheet: only the classes of the pages
      // of islands and what opens on them; the server puts it inline into those pages instead of
      // the app's (src/server/web/renderer.ts, docs/decisions/0026).
      input: { index: 'src/web/index.html', public: 'src/web/styles.public.css' },
      output: { manualChunks: groupedChunks, experimentalMinChunkSize: 0 },
      onwarn: onBuildWarning,
    },
  },
  ssr: { noExternal: [] },
  server: { hmr: { port: 24679 } },
}));
