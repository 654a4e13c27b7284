import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The browser app lives in src/web and runs on React 19, as the server does
// (docs/decisions/0008-react-in-the-browser.md). `vite build` writes the client to dist/client;
// `vite build --ssr` (see package.json) writes the server renderer to dist/server.
export default defineConfig(() => ({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    cssCodeSplit: true,
    reportCompressedSize: false,
  },
  ssr: { noExternal: [] },
  server: { hmr: { port: 24679 } },
}));
