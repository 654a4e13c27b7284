import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ManualChunkMeta, OutputBundle } from 'rollup';
import type { Plugin } from 'vite';

/** The app's entry (vite.config.ts, `index.html`): what every page of the app loads first. */
const ENTRY = /\/src\/web\/entry-client\.tsx$/;
/** The team's code: never part of a chunk a customer's page loads (docs/decisions/0024). */
const ADMIN = /\/src\/web\/features\/admin\/|\/src\/web\/features\/support\/Admin\w+\.tsx$|\/src\/core\/contracts\/admin\.ts$|\/src\/core\/analytics\.ts$/;
/**
 * The pages a customer opens first whose common code loads as one chunk: the order form and what
 * it stands on (zod, react-hook-form, the order rules), shared by the order page and the
 * dashboard's first tab. Left to Rollup, it was a dozen chunks of 1–3 KB, each a request.
 */
const CUSTOMER_PAGES = [/\/src\/web\/features\/catalog\/OrderPage\.tsx$/, /\/src\/web\/features\/dashboard\/DashboardPage\.tsx$/];

const REACT = /\/node_modules\/(react|react-dom|scheduler)\//;

type ModuleInfo = ManualChunkMeta['getModuleInfo'];

/** Every module `from` imports statically, directly or not, itself included. */
export function staticClosure(getModuleInfo: ModuleInfo, from: string): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    getModuleInfo(id)?.importedIds.forEach(visit);
  };
  visit(from);
  return seen;
}

interface Groups {
  entryId: string | undefined;
  app: Set<string>;
  customer: Set<string>;
  account: Set<string>;
}
/** Worked out once per build: the module graph is complete when Rollup first asks. */
const groupsOf = new WeakMap<ModuleInfo, Groups>();

function groups(meta: ManualChunkMeta): Groups {
  let found = groupsOf.get(meta.getModuleInfo);
  if (found) return found;
  const all = [...meta.getModuleIds()];
  const entryId = all.find((id) => ENTRY.test(id));
  const app = entryId ? staticClosure(meta.getModuleInfo, entryId) : new Set<string>();
  const pages = CUSTOMER_PAGES.map((page) => all.find((id) => page.test(id))).filter((id): id is string => Boolean(id));
  const closures = pages.map((page) => staticClosure(meta.getModuleInfo, page));
  const customer = new Set(
    pages.length < CUSTOMER_PAGES.length ? [] : [...closures[0]!].filter((id) => closures.every((c) => c.has(id)) && !app.has(id) && !ADMIN.test(id) && !/\.css$/.test(id)),
  );
  // What else those pages import, apart from the pages themselves (each its own chunk, app/routes.tsx).
  const account = new Set(closures.flatMap((c) => [...c]).filter((id) => !pages.includes(id) && !app.has(id) && !customer.has(id) && !ADMIN.test(id) && !/\.css$/.test(id)));
  found = { entryId, app, customer, account };
  groupsOf.set(meta.getModuleInfo, found);
  return found;
}

/**
 * The app's chunks grouped by what loads together rather than one per set of importers
 * (docs/decisions/0024): on a slow network each chunk is a request, and a browser opens six at a
 * time to a server. What the entry imports statically (React, the router, the site's frame) is
 * one chunk, `app`; the common code of the order page and the dashboard (the order form) is
 * another, `customer`; what else either imports (the dashboard's frame, its first tab) is
 * `account`, beside each page's own chunk. Every other module is chunked by Rollup by the pages that import it,
 * unmerged, so that no chunk a customer loads carries a part of the team's pages.
 *
 * A manual chunk takes in the static imports of its modules that no other manual chunk holds:
 * `app` holds everything the entry imports, so the others take in nothing of it; what `customer`
 * and `account` import is in `app`, `customer` or `account`.
 */
export function groupedChunks(id: string, meta: ManualChunkMeta): string | undefined {
  const { entryId, app, customer, account } = groups(meta);
  // React whole (react-dom's parts the entry does not import too, say `createPortal`), and
  // the entry's modules but its stylesheet, which the server puts inline into every page.
  if (REACT.test(id) || (id !== entryId && app.has(id) && !/\.css$/.test(id))) return 'app';
  if (customer.has(id)) return 'customer';
  if (account.has(id)) return 'account';
  // The other icons (`iconImports`), each a few hundred bytes: in one chunk for the team's pages and
  // one for the rest, not one request per icon and set of pages.
  if (ICON_MODULE.test(id)) return (meta.getModuleInfo(id)?.importers ?? []).every((importer) => ADMIN.test(importer)) ? 'team-icons' : 'icons';
  return undefined;
}

/** The icons' package, and its index of every icon's module. */
const ICONS_PACKAGE = 'lucide-react';
/** One icon's module. */
const ICON_MODULE = /\/node_modules\/lucide-react\/dist\/esm\/icons\/[^/]+\.mjs$/;
const ICONS_INDEX = fileURLToPath(new URL('./node_modules/lucide-react/dist/esm/lucide-react.mjs', import.meta.url));

/** Each icon's module (an absolute path) by every name the icons' index exports it under. */
export function iconModules(): Map<string, string> {
  const modules = new Map<string, string>();
  // As Rollup names modules: by their real path (node_modules may be a link).
  const index = realpathSync(ICONS_INDEX);
  for (const [, names, path] of readFileSync(index, 'utf8').matchAll(/export\s*\{([^}]*)\}\s*from\s*["'](\.\/icons\/[^"']+)["']/g))
    for (const name of names!.split(',')) modules.set(name.trim().split(/\s+as\s+/).pop()!, resolve(dirname(index), path!));
  return modules;
}

/**
 * `import { Plus, X as Close } from 'lucide-react'` in our code becomes one import per icon, from
 * the icon's own module. Through the index, every module that names an icon imports all of them:
 * the chunk that held the index (`app`, which the entry's modules put it in) took in every icon the
 * app uses anywhere — 117 of them on every page, the team's pages' too. Imported one by one, each
 * icon goes with the pages that use it. Names the index does not map to an icon's module stay
 * imported from the package.
 */
export function iconImports(): Plugin {
  let modules: Map<string, string> | undefined;
  return {
    name: 'artim-icon-imports',
    apply: 'build',
    // After TypeScript is compiled away: type-only names are gone by then.
    enforce: 'post',
    transform(code, id) {
      if (!code.includes(ICONS_PACKAGE) || id.includes('/node_modules/')) return null;
      modules ??= iconModules();
      const known = modules;
      const out = code.replace(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']${ICONS_PACKAGE}["'];?`, 'g'), (_all, list: string) => {
        const direct: string[] = [];
        const rest: string[] = [];
        for (const spec of list.split(',').map((s) => s.trim()).filter(Boolean)) {
          const [name, local = name] = spec.split(/\s+as\s+/) as [string, string?];
          const file = known.get(name);
          if (file) direct.push(`import ${local} from ${JSON.stringify(file)};`);
          else rest.push(spec);
        }
        return [...direct, ...(rest.length ? [`import { ${rest.join(', ')} } from "${ICONS_PACKAGE}";`] : [])].join(' ');
      });
      return out === code ? null : { code: out, map: null };
    },
  };
}

/** What a chunk of a build holds, as Rollup made it: the build's tests read it (src/web/testing/build.ts). */
export interface ChunkReport {
  fileName: string;
  name: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  /** Each module placed in the chunk, by id, with how many characters of its code the chunk kept (0: none). */
  modules: Record<string, { renderedLength: number }>;
}

/** Where `npm run build` writes its chunk reports (`chunkReport`), outside the folder the server serves. */
export const CHUNK_REPORTS = fileURLToPath(new URL('./dist/chunks/', import.meta.url));

export function reportChunks(bundle: OutputBundle): ChunkReport[] {
  return Object.values(bundle).flatMap((o) =>
    o.type === 'chunk'
      ? [
          {
            fileName: o.fileName,
            name: o.name,
            isEntry: o.isEntry,
            imports: o.imports,
            dynamicImports: o.dynamicImports,
            modules: Object.fromEntries(Object.entries(o.modules).map(([id, m]) => [id, { renderedLength: m.renderedLength }])),
          },
        ]
      : [],
  );
}

/**
 * Writes each chunk's modules and imports to `CHUNK_REPORTS/<name>.json` when a build writes its
 * files: what the tests of the bundles check (src/web/app/bundle.test.ts,
 * src/web/islands/bundle.test.ts), so that they read the build `npm test` has just made rather than
 * make it again (scripts/test.ts).
 */
export function chunkReport(name: string): Plugin {
  return {
    name: 'artim-chunk-report',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    writeBundle(_options, bundle) {
      mkdirSync(CHUNK_REPORTS, { recursive: true });
      writeFileSync(join(CHUNK_REPORTS, `${name}.json`), JSON.stringify(reportChunks(bundle)));
    },
  };
}
