import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * vitest.config.ts's `pure` and `dom` projects run their files one after another in a worker
 * thread that keeps the modules it has loaded (`dom`'s on one shared page). A file there must open
 * no database, start no process or server and leave the time zone alone, and a pure one needs no
 * page: this reads what each imports, with everything it reaches through relative imports
 * (type-only imports vanish and are skipped), and refuses the packages that open databases,
 * connections, servers or processes, a change of time zone, and in `pure` a test environment.
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = /^(?:node:)?(?:child_process|cluster|http|https|http2|net|worker_threads)$|^(?:pg|pg-boss|@electric-sql\/pglite|drizzle-orm|@hono\/node-server|nodemailer|vite)(?:\/|$)/;
const IMPORT = /(?:^import\s(?!type\s)[^;]*?from\s+|^export\s(?!type\s)[^;]*?from\s+|^import\s+|import\s*\(\s*)'([^']+)'/gm;

/** What `file` reaches that a test sharing its worker may not: one line per reason. */
function reach(file: string, opts: { page?: boolean } = {}): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const name = relative(repo, path);
    if (!/\.tsx?$/.test(path)) return;
    const text = readFileSync(path, 'utf8');
    if (!opts.page && /@vitest-environment/.test(text)) found.push(`${name}: its own test environment`);
    // A worker thread keeps the process's time zone whatever its TZ says.
    if (/process\.env\.TZ\s*=/.test(text)) found.push(`${name}: moves the time zone`);
    for (const [, spec] of text.matchAll(IMPORT)) {
      if (!spec!.startsWith('.')) {
        if (PACKAGES.test(spec!)) found.push(`${name} → ${spec}`);
        continue;
      }
      const base = resolve(dirname(path), spec!);
      const target = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`, base].find((p) => existsSync(p) && !p.endsWith('/'));
      if (target) visit(target);
    }
  };
  visit(file);
  return found;
}

describe("the shared workers' tests", () => {
  let files: Record<string, string[]>;
  let vitest: Awaited<ReturnType<typeof createVitest>>;
  beforeAll(async () => {
    vitest = await createVitest('test', { watch: false, root: repo, config: resolve(repo, 'vitest.config.ts') });
    files = {};
    for (const spec of await vitest.globTestSpecifications()) (files[spec.project.name] ??= []).push(spec.moduleId);
  }, 120_000);
  afterAll(() => vitest?.close());

  it('holds the tests of src/core and of the browser code that import nothing that opens, serves or starts', () => {
    const pure = files.pure ?? [];
    expect(pure.filter((f) => relative(repo, f).startsWith('src/core/')).length).toBeGreaterThan(10);
    expect(pure.filter((f) => relative(repo, f).startsWith('src/web/')).length).toBeGreaterThan(20);
    expect(pure.flatMap((f) => reach(f))).toEqual([]);
    // Every test file runs in exactly one project.
    const all = Object.values(files).flat();
    expect(new Set(all).size).toBe(all.length);
  });

  it('holds the tests in happy-dom on one page, but for those that move the time zone', () => {
    const dom = files.dom ?? [];
    expect(dom.length).toBeGreaterThan(10);
    expect(dom.flatMap((f) => reach(f, { page: true }))).toEqual([]);
    expect(reach(resolve(repo, 'src/web/features/admin/BonusesPanel.dom.test.tsx'), { page: true })).toEqual(['src/web/features/admin/BonusesPanel.dom.test.tsx: moves the time zone']);
  });

  it('leaves the rest to a process of their own: what they reach is seen', () => {
    const integration = files.integration ?? [];
    expect(reach(resolve(repo, 'src/server/orders/orders.test.ts'))).toEqual(expect.arrayContaining(['src/server/db/client.ts → pg', 'src/server/db/client.ts → @electric-sql/pglite']));
    expect(reach(resolve(repo, 'src/web/features/auth/CodeStep.dom.test.tsx'))).toContain('src/web/features/auth/CodeStep.dom.test.tsx: its own test environment');
    expect(reach(resolve(repo, 'src/web/app/bundle.test.ts'))).toContain('src/web/testing/build.ts → vite');
    expect(reach(resolve(repo, 'src/web/lib/shopTime.test.ts'))).toEqual(['src/web/lib/shopTime.test.ts: moves the time zone']);
    expect(integration.map((f) => relative(repo, f))).toEqual(expect.arrayContaining(['src/web/features/admin/BonusesPanel.dom.test.tsx', 'src/web/lib/shopTime.test.ts', 'src/server/orders/orders.test.ts']));
  });
});
