import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Alias } from 'vite';

const preact = (path: string) => fileURLToPath(new URL(`./node_modules/preact/${path}`, import.meta.url));

/**
 * The production browser bundle runs on Preact's React-compatible layer (docs/decisions/
 * 0006-preact-in-the-browser.md): the same components, a fifth of the size. The server renders
 * with React, and development keeps React everywhere.
 */
const preactAliases: Alias[] = [
  { find: /^react-dom\/client$/, replacement: preact('compat/client.mjs') },
  { find: /^react-dom$/, replacement: preact('compat/dist/compat.module.js') },
  { find: /^react$/, replacement: preact('compat/dist/compat.module.js') },
  { find: /^react\/jsx-runtime$/, replacement: preact('jsx-runtime/dist/jsxRuntime.module.js') },
  { find: /^react\/jsx-dev-runtime$/, replacement: preact('jsx-runtime/dist/jsxRuntime.module.js') },
];

// The browser app lives in src/web. `vite build` writes the client to dist/client;
// `vite build --ssr` (see package.json) writes the server renderer to dist/server.
export default defineConfig(({ command, isSsrBuild }) => ({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  resolve: { alias: command === 'build' && !isSsrBuild ? preactAliases : [] },
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
