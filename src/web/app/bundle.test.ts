import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { iconModules } from '../../../vite.chunks';
import { packageOf, productionBuild, renderedIn } from '../testing/build';

/**
 * What a customer's page loads before it is ready (docs/decisions/0024): the app's entry and, as
 * the server preloads them (server/web/renderer.ts `preloadLinks`), the page's chunk and the
 * chunks both import statically — read from the build's manifest, as the server reads it.
 */
const CUSTOMER_PAGES = ['features/catalog/OrderPage.tsx', 'features/dashboard/DashboardPage.tsx'];
/**
 * Gzipped bytes of JS before ready, at most: what the pages load today (the dashboard 159.5 KB)
 * plus a little room (bench/README.md). The goal is 100 KB, which React, the router and the query
 * cache alone exceed (the `app` chunk); this ceiling stops the pages from growing back meanwhile.
 */
const BUDGET_BYTES = 161 * 1024;
/** Libraries a customer's page loads only when used: zod checks what a form sends, when it sends it. */
const LATER = ['zod'];
/** Scripts before ready, at most: with the document, six requests — what a browser opens at once to one server. */
const BUDGET_SCRIPTS = 5;
/** Code of the team's pages. */
const ADMIN_MODULE = /\/src\/web\/features\/admin\/|\/src\/web\/features\/support\/Admin\w+\.tsx$|\/src\/core\/contracts\/admin\.ts$/;

const ICON = /\/node_modules\/lucide-react\/dist\/esm\/icons\//;
const icons = iconModules();
/** The icons' modules a source file imports by name from the icons' package (types left out). */
const iconsNamedBy = (source: string) =>
  [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'lucide-react'/g)].flatMap(([, list]) =>
    list!
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s && !s.startsWith('type '))
      .flatMap((s) => icons.get(s.split(/\s+as\s+/)[0]!) ?? []),
  );

type Manifest = Record<string, { file: string; imports?: string[]; css?: string[] }>;

let built: ReturnType<typeof buildApp> | undefined;
/** One build for the file's tests. */
const appBuild = () => (built ??= buildApp());

async function buildApp() {
  const build = await productionBuild('app');
  return { manifest: JSON.parse(build.asset('.vite/manifest.json')) as Manifest, chunks: build.chunks };
}

/** The entry's and the page's chunks with everything they import statically, as the manifest lists them. */
function firstLoad(manifest: Manifest, page: string): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit('index.html');
  visit(page);
  return [...files];
}

describe("the app's build for a customer's pages", () => {
  it('loads no code of the team nor zod, at most five scripts and stays under the byte budget before ready', async () => {
    const { manifest, chunks } = await appBuild();
    const customerIcons = new Set(
      renderedIn(chunks, CUSTOMER_PAGES.flatMap((page) => firstLoad(manifest, page)))
        .filter((id) => /\/src\/.*\.tsx?$/.test(id))
        .flatMap((id) => iconsNamedBy(readFileSync(id, 'utf8'))),
    );
    for (const page of CUSTOMER_PAGES) {
      // Without its own key in the manifest a page gets no preloads and loads as a waterfall.
      expect(manifest[page], page).toBeDefined();
      // The entry's stylesheet is put inline into the page; one that came with another chunk would be a request holding up the first paint.
      const stylesheets = Object.entries(manifest).filter(([key, chunk]) => key !== 'index.html' && firstLoad(manifest, page).includes(chunk.file) && chunk.css?.length);
      expect(stylesheets.map(([key]) => key), page).toEqual([]);
      const files = firstLoad(manifest, page).filter((f) => f.endsWith('.js'));
      const admin = files.flatMap((f) => Object.keys(chunks.get(f)!.modules).filter((id) => ADMIN_MODULE.test(id)));
      expect(admin, page).toEqual([]);
      // Only the icons the customer's pages name (vite.chunks.ts `iconImports`; the two share
      // `account`), not every icon of the app.
      const iconsLoaded = renderedIn(chunks, files).filter((id) => ICON.test(id));
      expect(iconsLoaded.filter((id) => !customerIcons.has(id)).map((id) => id.split('/').pop()), page).toEqual([]);
      const later = renderedIn(chunks, files).filter((id) => LATER.includes(packageOf(id) ?? ''));
      expect(later, page).toEqual([]);
      expect(files.length, `${page}: ${files.join(', ')}`).toBeLessThanOrEqual(BUDGET_SCRIPTS);
      const bytes = files.reduce((n, f) => n + gzipSync(chunks.get(f)!.code, { level: 9 }).length, 0);
      expect(bytes, page).toBeLessThanOrEqual(BUDGET_BYTES);
    }
  });

  it("leaves the dashboard's other tabs and the top-up dialog out of its first load", async () => {
    const { manifest, chunks } = await appBuild();
    const modules = firstLoad(manifest, 'features/dashboard/DashboardPage.tsx').flatMap((f) => (chunks.has(f) ? Object.keys(chunks.get(f)!.modules) : []));
    const later = ['HistoryTab', 'MassOrderTab', 'ApiKeysTab', 'SettingsTab', 'PaymentsTab', 'SupportTab', 'TopUpDialog', 'components/ui/Dialog', 'node_modules/sonner/'];
    expect(later.filter((name) => modules.some((id) => id.includes(name)))).toEqual([]);
  });
});
