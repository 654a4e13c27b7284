import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { packageOf, productionBuild, renderedIn } from '../testing/build';
import { ISLAND_PRELOADS } from './attrs';
import { ISLANDS } from './registry';

/** Libraries a public page must not load before a click (docs/decisions/0022-islands-on-demand.md). */
const APP_ONLY = ['react-router', '@tanstack/react-query', '@tanstack/query-core', 'react-hook-form', '@hookform/resolvers', 'big.js', 'hono'];
/**
 * Gzipped bytes and scripts a public page loads, at most (bench/README.md, 2026-11-27 "islands that
 * wait to be touched"): the loader and, when an island wakes, `frame` (the runtime with React:
 * vite.islands.config.ts) and that island with its imports. With no input only the islands that
 * wake by themselves count: on most public pages none does (the header, the consultation buttons,
 * the contact form and the order lookup, whose number in the address the server looks up, wait to
 * be touched, the dialog's host and the notices to be asked: docs/decisions/0027), and the page
 * loads the loader alone; the payment pages wake theirs at idle. The first touch of the header and
 * of the lookup are held too, so that they do not grow unseen. React is 67 KB of it; the goal is
 * 75 KB in all with no input. These ceilings are today's figures plus about half a KB (a quarter
 * on the loader). (Which islands wake by themselves is islands.test.ts's and
 * entry-islands.dom.test.ts's.)
 */
const PAGE_CEILINGS: { page: string; islands: string[]; bytes: number; scripts: number; api?: true; text?: string[] }[] = [
  // The payment return page checks the payment on the server while the page is written (docs/decisions/0035): no island of its own.
  { page: '/en, /en/services, /en/contact, /track?order=…, /payment-success with no input (every island waits)', islands: [], bytes: 3.5 * 1024, scripts: 1 },
  // A page whose islands all wait comes without their text: the first to wake loads it (./text.ts).
  // `frame` holds what the dashboard shares with public islands (its tabs, the formats and amounts its
  // tabs show: docs/decisions/0032), about 1.7 KB more than before it was a page of islands.
  { page: '/en after the first touch of the header', islands: ['features/layout/Header.tsx'], text: ['common'], bytes: 92.25 * 1024, scripts: 4 },
  // These two ask the API once woken: the client comes with them.
  { page: '/track after the first touch of the lookup', islands: ['features/tracking/TrackView.tsx'], text: ['common', 'tracking'], bytes: 92.25 * 1024, scripts: 6, api: true },
  // A guest's Sign in (or a signed-out visitor sent from the dashboard): the header and its dialog,
  // whose forms keep their fields in React state and load their requests (the API client, the error
  // codes) at the first keystroke, zod and the account contract when sent (docs/decisions/0031).
  { page: '/en?auth=required (the header and the sign-in dialog)', islands: ['features/layout/Header.tsx', 'features/auth/AuthDialog.tsx'], bytes: 94 * 1024, scripts: 4 },
  // The order page's one island wakes at load and asks for the service list with a plain fetch:
  // React with the runtime, the page's own chunk and the form's, which the dashboard shares; prices
  // exact in BigInt (src/core/pricing.ts); under the 100 KB the app's pages are held to; what the
  // form shows of a chosen service loads with the first choice.
  { page: '/en/order (the order form)', islands: ['features/catalog/OrderPage.tsx'], bytes: 94.75 * 1024, scripts: 4 },
  // The dashboard's one island (docs/decisions/0032): the order form's chunk (which the order page
  // loads too) and its own; its tabs other than the new order's, the top-up dialog, the query cache
  // they read through, the live stream and the links' comparison key when used. At most the 100 KB
  // of issue #31's budget.
  { page: '/en/dashboard (a customer’s)', islands: ['features/dashboard/DashboardPage.tsx'], bytes: 100 * 1024, scripts: 4 },
];

/**
 * The islands build as a page loads it without a click: the loader, and from it the islands and
 * the runtime it imports (each with its static imports). Dialogs and notices a component imports
 * on demand load on a click and are left out.
 */
let built: ReturnType<typeof productionBuild> | undefined;
/** One build for the file's tests. */
const islandsBuild = () => (built ??= productionBuild('islands'));
type Chunks = Awaited<ReturnType<typeof productionBuild>>['chunks'];

/** Adds to `loaded` the chunks `files` load: each with what it imports statically. */
function withImports(chunks: Chunks, files: Iterable<string>, loaded = new Set<string>()): Set<string> {
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    chunks.get(file)!.imports.forEach(visit);
  };
  for (const file of files) visit(file);
  return loaded;
}

async function publicPageChunks() {
  const { chunks } = await islandsBuild();
  const entry = [...chunks.values()].find((c) => c.isEntry)!;
  const loaded = withImports(chunks, [entry.fileName, ...entry.dynamicImports]);
  return { entry, loaded: [...loaded].map((f) => chunks.get(f)!), chunks };
}

describe('the islands build', () => {
  it('gives public pages no router, query cache, form library, big.js or API client, one chunk per island and React apart from the loader', async () => {
    const { entry, loaded, chunks } = await publicPageChunks();
    const found = new Map<string, Set<string>>();
    for (const chunk of loaded) {
      // A module Rollup placed in a chunk but whose code it left out entirely (a manual chunk takes
      // in the static imports of its modules, used or not) ships nothing.
      for (const [id, module] of Object.entries(chunk.modules)) {
        if (module.renderedLength === 0) continue;
        const pkg = packageOf(id);
        if (pkg && APP_ONLY.includes(pkg)) found.set(pkg, (found.get(pkg) ?? new Set()).add(chunk.fileName));
      }
    }
    expect(Object.fromEntries([...found].map(([pkg, files]) => [pkg, [...files]]))).toEqual({});
    // The loader holds no React; every island is a dynamic import of its own.
    expect(Object.keys(entry.modules).filter((id) => packageOf(id) === 'react-dom' || packageOf(id) === 'react')).toEqual([]);
    expect(entry.imports).toEqual([]);
    const islandChunks = entry.dynamicImports.map((f) => chunks.get(f)!).filter((c) => Object.keys(c.modules).some((id) => /\/src\/web\/features\/|\/src\/web\/app\/Notifications/.test(id)));
    expect(islandChunks.length).toBeGreaterThanOrEqual(8);
  });

  it('opens the sign-in dialog without zod, big.js, a form library, the account contract or the API client: the forms fetch them when used', async () => {
    const { chunks } = await islandsBuild();
    const dialog = [...chunks.values()].find((c) => Object.keys(c.modules).some((id) => id.endsWith('/src/web/features/auth/AuthDialog.tsx')))!;
    const loaded = withImports(chunks, [dialog.fileName]);
    const rendered = renderedIn(chunks, loaded);
    expect(rendered.filter((id) => ['zod', 'big.js', 'react-hook-form', '@hookform/resolvers'].includes(packageOf(id) ?? '') || /\/src\/core\/contracts\/(account|admin|payments)\.ts$/.test(id))).toEqual([]);
    // What a form loads at the first keystroke (its requests, the API client) and when sent (the
    // account contract with zod), not the team's or the payments' contracts and big.js.
    const later = (files: Iterable<string>) => [...files].flatMap((f) => chunks.get(f)!.dynamicImports);
    const typed = withImports(chunks, later([dialog.fileName]), new Set(loaded));
    expect(renderedIn(chunks, typed).some((id) => id.endsWith('/src/web/lib/api.ts'))).toBe(true);
    const sent = renderedIn(chunks, withImports(chunks, later([...typed].filter((f) => !loaded.has(f))), new Set(typed)));
    expect(sent.some((id) => id.endsWith('/src/core/contracts/account.ts'))).toBe(true);
    expect(sent.filter((id) => packageOf(id) === 'big.js' || /\/src\/core\/contracts\/(admin|payments)\.ts$/.test(id))).toEqual([]);
  });

  it('compiles JSX for production, whoever builds it (the test runner sets NODE_ENV to "test")', async () => {
    const { chunks } = await islandsBuild();
    expect([...chunks.values()].filter((c) => c.code.includes('jsxDEV')).map((c) => c.fileName)).toEqual([]);
  });
});

describe('the scripts an island loads as it wakes (islands-preloads.json)', () => {
  it('are, for every island of the registry, the runtime’s chunk and the island’s own, with their static imports, the loader left out', async () => {
    const { chunks, asset } = await islandsBuild();
    const preloads = JSON.parse(asset(ISLAND_PRELOADS)) as Record<string, string[]>;
    expect(Object.keys(preloads).sort()).toEqual(Object.keys(ISLANDS).sort());
    const entry = [...chunks.values()].find((c) => c.isEntry)!;
    const of = (module: string) => [...chunks.values()].find((c) => Object.keys(c.modules).some((id) => id.endsWith(`/src/web/${module}`)))!;
    const expected = (module: string) => {
      const files = withImports(chunks, [of('islands/runtime.tsx').fileName, of(module).fileName]);
      files.delete(entry.fileName);
      return [...files].sort();
    };
    expect([...preloads.Order!].sort()).toEqual(expected('features/catalog/OrderPage.tsx'));
    expect([...preloads.Dashboard!].sort()).toEqual(expected('features/dashboard/DashboardPage.tsx'));
    expect([...preloads.Header!].sort()).toEqual(expected('features/layout/Header.tsx'));
    // React comes with the runtime: the first script of each.
    expect(new Set(Object.values(preloads).map((files) => files[0]))).toEqual(new Set([of('islands/runtime.tsx').fileName]));
  });
});

describe('a public page’s JavaScript', () => {
  it.each(PAGE_CEILINGS)('$page stays under its byte and script ceilings', async ({ page, islands, bytes, scripts, api, text = [] }) => {
    const { chunks } = await islandsBuild();
    const entry = [...chunks.values()].find((c) => c.isEntry)!;
    // The chunk that holds the module: the runtime and React share one (`frame`, vite.islands.config.ts).
    const of = (module: string) => [...chunks.values()].find((c) => Object.keys(c.modules).some((id) => id.endsWith(`/src/web/${module}`)))!;
    const loaded = withImports(
      chunks,
      [entry, ...(islands.length ? [of('islands/runtime.tsx'), ...islands.map(of)] : []), ...text.map((ns) => of(`i18n/locales/en/${ns}.json`))].map((c) => c.fileName),
    );
    const gz = (file: string) => gzipSync(chunks.get(file)!.code, { level: 9 }).length;
    // React, with the first island to wake, not before; in the runtime's chunk, not one of its own.
    const react = [...loaded].filter((f) => Object.keys(chunks.get(f)!.modules).some((id) => packageOf(id) === 'react-dom'));
    expect(react).toEqual(islands.length ? [of('islands/runtime.tsx').fileName] : []);
    // Our API client and error codes load with the page's first request, not with its islands (vite.islands.config.ts).
    const rendered = renderedIn(chunks, loaded);
    if (!api) expect(rendered.filter((id) => /\/src\/(web\/lib\/api|core\/errors|web\/islands\/hc)\.ts$/.test(id))).toEqual([]);
    const total = [...loaded].reduce((n, f) => n + gz(f), 0);
    if (process.env.BUNDLE_FIGURES) console.log(`${page}: ${(total / 1024).toFixed(2)} KB in ${loaded.size} scripts`);
    expect(total).toBeLessThanOrEqual(bytes);
    expect(loaded.size).toBeLessThanOrEqual(scripts);
  });
});

describe('text on public pages', () => {
  it('every namespace an island loads after the page is in the islands build, in every language (i18n/bundles.islands.ts)', async () => {
    const { chunks } = await islandsBuild();
    const modules = new Set([...chunks.values()].flatMap((c) => Object.keys(c.modules)));
    const loaded = new Set<string>();
    for (const id of modules) {
      if (!id.includes('/src/web/') || !/\.tsx?$/.test(id)) continue;
      const text = readFileSync(id, 'utf8');
      for (const m of text.matchAll(/loadNamespaces\([^,]+,[^,]+,\s*\[([^\]]*)\]/g)) for (const ns of m[1]!.matchAll(/'([\w-]+)'/g)) loaded.add(ns[1]!);
      for (const m of text.matchAll(/useNamespaceReady\('([\w-]+)'\)/g)) loaded.add(m[1]!);
    }
    expect([...loaded].sort()).toEqual(expect.arrayContaining(['auth', 'support']));
    for (const lang of ['az', 'en', 'tr']) {
      for (const ns of loaded) expect([...modules].some((id) => id.endsWith(`/src/web/i18n/locales/${lang}/${ns}.json`)), `${lang}/${ns}`).toBe(true);
    }
    // And no more: the table of every bundle is not in the public pages' script.
    expect([...modules].filter((id) => id.endsWith('/src/web/i18n/locales/en/admin.json'))).toEqual([]);
  });
});

describe('the public pages’ stylesheet', () => {
  it('scans every module of the islands build, dialogs included, that names classes (styles.public.css @source)', async () => {
    const { chunks } = await islandsBuild();
    const web = resolve('src/web');
    const scanned = [...readFileSync('src/web/styles.public.css', 'utf8').matchAll(/^@source '\.\/([^']+)';$/gm)].map((m) => join(web, m[1]!));
    // The dashboard is styled by the app's stylesheet (app/page.ts `stylesheet`): what only it and
    // what it opens use is left out; what a public page can load is in.
    const entry = [...chunks.values()].find((c) => c.isEntry)!;
    const dashboard = [...chunks.values()].find((c) => Object.keys(c.modules).some((id) => id.endsWith('/src/web/features/dashboard/DashboardPage.tsx')))!;
    const reached = new Set<string>();
    const reach = (file: string) => {
      if (reached.has(file) || file === dashboard.fileName) return;
      reached.add(file);
      const chunk = chunks.get(file)!;
      [...chunk.imports, ...chunk.dynamicImports].forEach(reach);
    };
    reach(entry.fileName);
    const modules = new Set([...reached].flatMap((f) => Object.keys(chunks.get(f)!.modules)));
    const unscanned = [...modules].filter(
      (id) => id.startsWith(`${web}/`) && /\.tsx?$/.test(id) && /className/.test(readFileSync(id, 'utf8')) && !scanned.some((path) => id === path || id.startsWith(`${path}/`)),
    );
    expect(unscanned.map((id) => id.slice(web.length + 1))).toEqual([]);
  });
});

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.islands\.tsx?$/.test(name) ? [path] : [];
  });

describe('island variants', () => {
  it('export the same names as the module they replace on public pages', async () => {
    const variants = sources('src/web');
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of variants) {
      const original = variant.replace('.islands.', '.');
      expect(existsSync(original), original).toBe(true);
      const load = (path: string) => import(/* @vite-ignore */ pathToFileURL(resolve(path)).href) as Promise<object>;
      const [a, b] = await Promise.all([load(original), load(variant)]);
      expect(Object.keys(b).sort(), variant).toEqual(Object.keys(a).sort());
    }
  });
});
