import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The script of public pages whose islands alone hydrate (docs/decisions/0009-islands.md), built
// on its own after the app (vite.config.ts) into the same dist/client: tree-shaken for just what
// the islands use, and one file, not the app's shared chunks.
export default defineConfig({
  root: 'src/web',
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: false,
    manifest: 'islands-manifest.json',
    target: 'es2022',
    reportCompressedSize: false,
    rollupOptions: { input: { islands: 'src/web/entry-islands.tsx' } },
  },
});
