import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { ManualChunkMeta } from 'rollup';
import { defineConfig, type Plugin } from 'vite';
import { ISLAND_PRELOADS } from './src/web/islands/attrs';
import { chunkReport, staticClosure } from './vite.chunks';
import { onBuildWarning } from './vite.warnings';

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

/**
 * React itself: in `frame`, which every island loads as it wakes (the runtime hydrates it with
 * React), so that waking costs one request for both, not two. The loader imports nothing of
 * `frame` (`loader` below), so React still waits for the first island.
 */
const REACT = /\/node_modules\/(react|react-dom|scheduler)\//;
/**
 * TanStack Query, which only the dashboard's tabs read through, once opened (docs/decisions/0032):
 * a chunk of its own, or the API client's chunk, whose app modules import it, would take it in.
 */
const QUERIES = /\/node_modules\/@tanstack\//;
const LOADER = /\/src\/web\/entry-islands\.tsx$/;
/**
 * The API client and the error codes: a chunk of their own with the modules of the frame's graph
 * that import them (the app's API modules the islands' variants re-export), loaded with a page's
 * first request (a sign-out, a sign-in, the platform menu, a message sent: each imports it when it
 * runs). Were it left to Rollup, `frame` would take it in through those modules.
 */
const API = /\/src\/(web\/lib\/api|web\/islands\/hc|core\/errors)\.ts$/;
const API_CLIENT = /\/src\/web\/(lib\/api|islands\/hc)\.ts$/;
/**
 * What the first island to wake brings besides React and its own chunk: the islands runtime, and
 * those of our modules that two islands or more use (the button, the spinner, the formats, the
 * sign-in dialog's store…: docs/decisions/0028; the modal layer: 0031), which Rollup would otherwise split into a dozen
 * chunks of a few hundred bytes, each a request of the island that wakes. The header, which waits
 * to be touched like most islands (docs/decisions/0027), is a chunk of its own.
 */
const FRAME = [/\/src\/web\/islands\/runtime\.tsx$/];
const REGISTRY = /\/src\/web\/islands\/registry\.ts$/;
/**
 * The modal layer every dialog stands in (docs/decisions/0031): with the sign-in dialog, the first
 * dialog most pages open, not in `frame` (the dashboard, whose dialogs open later, would carry it
 * before ready). A consultation's or a top-up's dialog loads the sign-in dialog's chunk with it.
 */
const MODAL_LAYER = /\/src\/web\/components\/ui\/(Dialog\.tsx|modalLayer\.ts)$/;
/**
 * The order form's islands: the order page's and the dashboard's, whose new-order tab is the same
 * form (docs/decisions/0032). What both use (with the code the dashboard loads on demand) goes in
 * a chunk of its own, `orderForm`, which both load; what the order page alone uses goes with it,
 * and what the dashboard alone and its tabs use goes with the dashboard: not `frame`, which every
 * public page's first island loads.
 */
const ORDER_FORM = /\/src\/web\/features\/catalog\/OrderPage\.tsx$/;
const DASHBOARD = /\/src\/web\/features\/dashboard\/DashboardPage\.tsx$/;
/** The chunk of what both order-form islands use. */
const FORM_CHUNK = 'orderForm';
/**
 * The header's sign-in dialog. What it and the dashboard's tabs both load on demand (the account
 * fields, the strength meter, the second factor's rules) goes with it: a public page opening the
 * dialog asks for no chunk more, and the dashboard's settings tab loads the dialog's chunk.
 */
const HEADER = /\/src\/web\/features\/layout\/Header\.tsx$/;
const SIGN_IN_DIALOG = /\/src\/web\/features\/auth\/AuthDialog\.tsx$/;

type GetModuleInfo = ManualChunkMeta['getModuleInfo'];
const EXPORT_FROM = /^export\s+(?:\{([^}]*)\}|\*)\s+from\s+["']([^"']+)["'];?$/;
/**
 * A module that only passes on other modules' exports (`export { A } from './a'`, lines of an
 * index): each target with the names it passes on (null for `export *`), or undefined for any
 * other module.
 */
type ReExports = { target: string; names: string[] | null }[] | undefined;
/** Each module read once per build (a module is reached from many importers and islands). */
const reExportsOf = new WeakMap<GetModuleInfo, Map<string, ReExports>>();
function reExports(getModuleInfo: GetModuleInfo, id: string): ReExports {
  let read = reExportsOf.get(getModuleInfo);
  if (!read) reExportsOf.set(getModuleInfo, (read = new Map()));
  if (!read.has(id)) read.set(id, readReExports(getModuleInfo, id));
  return read.get(id);
}
function readReExports(getModuleInfo: GetModuleInfo, id: string): ReExports {
  const info = getModuleInfo(id);
  if (!info?.code || !id.startsWith(SRC)) return undefined;
  const lines = info.code
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trim())
    .filter(Boolean);
  const out: { target: string; names: string[] | null }[] = [];
  for (const line of lines) {
    const m = EXPORT_FROM.exec(line);
    if (!m) return undefined;
    const path = resolve(dirname(id), m[2]!);
    const target = info.importedIds.find((dep) => dep.replace(/(\.islands)?\.tsx?$/, '') === path || dep.replace(/\/index(\.islands)?\.tsx?$/, '') === path);
    if (!target) return undefined;
    const names = m[1] === undefined ? null : m[1].split(',').map((n) => n.trim().split(/\s+as\s+/).pop()!).filter(Boolean);
    out.push({ target, names });
  }
  return out.length ? out : undefined;
}

/**
 * The modules an island's code can reach, as Rollup links them: through a module that only passes
 * on exports, only to the targets whose names the importer's code mentions.
 */
function usedClosure(getModuleInfo: GetModuleInfo, from: string): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const code = getModuleInfo(id)?.code ?? '';
    for (const dep of getModuleInfo(id)?.importedIds ?? []) {
      const targets = reExports(getModuleInfo, dep);
      if (!targets) visit(dep);
      else for (const { target, names } of targets) if (names === null || names.some((n) => new RegExp(`\\b${n}\\b`).test(code))) visit(target);
    }
  };
  visit(from);
  return seen;
}

interface IslandChunks {
  loader: Set<string>;
  api: Set<string>;
  frame: Set<string>;
  /** Each module that one island alone uses, and that island's module. */
  own: Map<string, string>;
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
  // Each island's modules (registry.ts imports each on demand), by the islands that use them; and
  // what the dialogs and notices they open on demand use.
  const registry = all.find((id) => REGISTRY.test(id));
  const islandRoots = (registry && meta.getModuleInfo(registry)?.dynamicallyImportedIds) || [];
  const holders = new Map<string, Set<string>>();
  for (const island of islandRoots) for (const id of usedClosure(meta.getModuleInfo, island)) holders.set(id, (holders.get(id) ?? new Set()).add(island));
  // What each island's code loads on demand (dialogs, tabs), by the islands that load it.
  const onDemand = new Map<string, Set<string>>();
  for (const [id, by] of holders)
    for (const later of meta.getModuleInfo(id)?.dynamicallyImportedIds ?? [])
      if (!islandRoots.includes(later))
        for (const m of usedClosure(meta.getModuleInfo, later)) {
          const users = onDemand.get(m) ?? new Set<string>();
          by.forEach((island) => users.add(island));
          onDemand.set(m, users);
        }
  const orderForm = islandRoots.find((id) => ORDER_FORM.test(id));
  const dashboard = islandRoots.find((id) => DASHBOARD.test(id));
  // The chunk of a module of ours that only the order form's islands use (or the code they load
  // on demand), when `frame` would otherwise take it: the dashboard's, the order page's, or the
  // one both load.
  const formChunk = (id: string, by: Set<string>): string | undefined => {
    if (!orderForm || !dashboard || !id.startsWith(SRC) || (by.size < 2 && !onDemand.has(id))) return undefined;
    const users = new Set([...by, ...(onDemand.get(id) ?? [])]);
    if ([...users].every((island) => island === dashboard)) return dashboard;
    if ([...users].every((island) => island === orderForm)) return orderForm;
    return [...users].every((island) => island === dashboard || island === orderForm) ? FORM_CHUNK : undefined;
  };
  // Shared: what two islands use, or one island and code it loads on demand (which runs once an
  // island is live, so `frame` is there), instead of a chunk that pulls in the island's own.
  // A module one island alone uses goes with it (not pulled into `frame` through an index it
  // shares); what only the order form's islands use goes with the order page or the dashboard.
  // A feature's module that only small public islands share (the payment pages' result card, the
  // consultation's request), none of the header, the order form's or the dashboard's code using
  // it, goes with the first of them in its own feature: the others load that island's chunk (a
  // few hundred bytes), and the islands that wake on most pages do not carry it.
  const header = islandRoots.find((id) => HEADER.test(id));
  const big = new Set([header, orderForm, dashboard]);
  const featureOf = (id: string) => /\/src\/web\/features\/[^/]+\//.exec(id)?.[0];
  const smallOnly = (id: string, by: Set<string>) => {
    const feature = featureOf(id);
    if (!feature || [...by, ...(onDemand.get(id) ?? [])].some((island) => big.has(island))) return undefined;
    return islandRoots.find((island) => by.has(island) && featureOf(island) === feature);
  };
  const shared: string[] = [];
  const own = new Map<string, string>();
  for (const [id, by] of holders) {
    const form = formChunk(id, by);
    const small = by.size > 1 ? smallOnly(id, by) : undefined;
    if (form) own.set(id, form);
    else if (small) own.set(id, small);
    else if (by.size > 1 || onDemand.has(id)) shared.push(id);
    else if (id.startsWith(SRC)) own.set(id, [...by][0]!);
  }
  const signIn = all.find((id) => SIGN_IN_DIALOG.test(id));
  if (signIn) for (const id of all) if (MODAL_LAYER.test(id)) own.set(id, signIn);
  if (header && dashboard && signIn) {
    const withDialog = [...onDemand].filter(([id, users]) => !holders.has(id) && id.startsWith(SRC) && users.has(header) && users.has(dashboard) && users.size === 2);
    if (withDialog.length) for (const id of [signIn, ...withDialog.map(([id]) => id)]) own.set(id, signIn);
  }
  // What the runtime and the modal layer use (through an index, only the names they use: the
  // icons module passes on every icon, and `frame` takes only the close button's).
  const closure = [...roots.flatMap((root) => [...usedClosure(meta.getModuleInfo, root)]), ...shared].filter((id) => id.startsWith(SRC) && !loader.has(id));
  const imports = (id: string, pattern: RegExp) => meta.getModuleInfo(id)?.importedIds.some((dep) => pattern.test(dep));
  // A module that imports the error codes alone for code islands do not run (the order rules'
  // server check) stays in `frame`: only what its used code imports loads with it.
  const api = new Set(all.filter((id) => API.test(id) || (closure.includes(id) && imports(id, API_CLIENT))));
  const frame = new Set(closure.filter((id) => !api.has(id)));
  found = { loader, api, frame, own };
  chunksOf.set(meta.getModuleInfo, found);
  return found;
}

function islandsChunk(id: string, meta: ManualChunkMeta): string | undefined {
  if (REACT.test(id)) return 'frame';
  if (QUERIES.test(id)) return 'queries';
  const { loader, api, frame, own } = islandChunks(meta);
  if (loader.has(id)) return 'islands';
  if (api.has(id)) return 'api';
  if (frame.has(id)) return 'frame';
  const island = own.get(id);
  return island ? chunkName(island) : undefined;
}

/** An island's own chunk: named for its module (`OrderPage`, `Header`…). */
const chunkName = (island: string) => island.split('/').pop()!.replace(/\.tsx?$/, '');

const REGISTRY_ENTRY = /(\w+): \(\) => import\(["']([^"']+)["']\)/g;
const RUNTIME = /\/src\/web\/islands\/runtime\.tsx$/;

/**
 * Writes `islands-preloads.json` beside the build: for each island of the registry
 * (islands/registry.ts), by name, the scripts it loads as it wakes — its chunk and the runtime's
 * (React with it), with their static imports, the loader left out. The server names them in a
 * page whose islands wake at load, so that the browser fetches them while it reads the page
 * (server/web/renderer.ts, docs/decisions/0038).
 */
export function islandPreloads(): Plugin {
  return {
    name: 'artim-island-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
      const registry = [...this.getModuleIds()].find((id) => REGISTRY.test(id));
      if (!registry) return;
      const chunkOf = (id: string) => chunks.find((c) => Object.hasOwn(c.modules, id) || c.facadeModuleId === id);
      const withImports = (file: string, into: Set<string>) => {
        const chunk = chunks.find((c) => c.fileName === file);
        if (!chunk || chunk.isEntry || into.has(file)) return;
        into.add(file);
        chunk.imports.forEach((f) => withImports(f, into));
      };
      const runtimeChunk = chunks.find((c) => Object.keys(c.modules).some((id) => RUNTIME.test(id)));
      const info = this.getModuleInfo(registry)!;
      const preloads: Record<string, string[]> = {};
      // The registry as written: each island's name beside the module it imports.
      for (const [, name, path] of readFileSync(registry, 'utf8').matchAll(REGISTRY_ENTRY)) {
        const target = resolve(dirname(registry), path!);
        const id = info.dynamicallyImportedIds.find((d) => d.replace(/(\.islands)?\.tsx?$/, '') === target);
        const own = id ? chunkOf(id) : undefined;
        if (!own || !runtimeChunk) throw new Error(`The islands build has no chunk for the island ${name} (${path})`);
        const files = new Set<string>();
        withImports(runtimeChunk.fileName, files);
        withImports(own.fileName, files);
        preloads[name!] = [...files];
      }
      this.emitFile({ type: 'asset', fileName: ISLAND_PRELOADS, source: JSON.stringify(preloads) });
    },
  };
}

export default defineConfig({
  root: 'src/web',
  publicDir: false,
  plugins: [islandVariants(), react(), chunkReport('islands'), islandPreloads()],
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
    // terser, twice over, rather than esbuild: the islands are what a visitor downloads before a
    // page is ready (React included), and it writes them 2 % smaller gzipped (2 KB on the
    // dashboard's 101 KB); it costs the build seconds, not the visitor.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 } },
    // Waking an island preloads its chunk's imports at once (one round trip, not one per level of
    // imports); nothing is preloaded before an island wakes. Module scripts need no polyfill.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { islands: 'src/web/entry-islands.tsx' },
      output: { manualChunks: islandsChunk },
      onwarn: onBuildWarning,
    },
  },
});
