import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering rules of eslint.config.js: no import cycles, and one feature reaches another only
 * through its public entry (`index.ts`). These tests show that `npm run lint` refuses both, and
 * that the code has no cycle even through type-only imports (which the lint rule skips, as they
 * vanish at build time).
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

describe('layering checked by lint', () => {
  const eslint = new ESLint({ cwd: repo, ignore: false });

  it('refuses an import cycle', async () => {
    const [result] = await eslint.lintFiles([join(repo, 'src/server/testing/lint-fixtures/cycleA.ts')]);
    expect(result!.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  }, 180_000);

  it("refuses an import of another feature's private file, and accepts the same through its index", async () => {
    const filePath = join(repo, 'src/server/orders/lintFixture.ts');
    const [privateImport] = await eslint.lintText(`import { debit } from '../wallet/ledger';\n\nexport const take = debit;\n`, { filePath });
    expect(privateImport!.messages.map((m) => m.ruleId)).toContain('import-x/no-restricted-paths');

    const [publicImport] = await eslint.lintText(`import { debit } from '../wallet';\n\nexport const take = debit;\n`, { filePath });
    expect(publicImport!.messages).toEqual([]);
  }, 180_000);

  it("refuses an import of another browser feature's private file, and accepts the same through its entries", async () => {
    const filePath = join(repo, 'src/web/features/payments/lintFixture.ts');
    const [privateImport] = await eslint.lintText(`import { useMe } from '../auth/api';\n\nexport const me = useMe;\n`, { filePath });
    expect(privateImport!.messages.map((m) => m.ruleId)).toContain('import-x/no-restricted-paths');

    const [publicImport] = await eslint.lintText(`import { useMe } from '../auth';\n\nexport const me = useMe;\n`, { filePath });
    expect(publicImport!.messages).toEqual([]);

    const [pagesImport] = await eslint.lintText(`import { StrengthMeter } from '../auth/pages';\n\nexport const meter = StrengthMeter;\n`, { filePath });
    expect(pagesImport!.messages).toEqual([]);
  }, 180_000);
});

/** Relative imports and re-exports of every module under src/, type-only ones included. */
function moduleGraph(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'lint-fixtures' && name !== 'migrations') walk(path);
      } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(path);
    }
  };
  walk(join(repo, 'src'));
  const known = new Set(files);
  const resolveImport = (from: string, spec: string) =>
    [spec + '.ts', spec + '.tsx', join(spec, 'index.ts'), join(spec, 'index.tsx'), spec].map((s) => resolve(dirname(from), s)).find((p) => known.has(p));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)].map((m) => resolveImport(file, m[1]!));
    graph.set(file, targets.filter((t): t is string => !!t));
  }
  return graph;
}

/** Groups of modules that import each other, directly or around a loop (Tarjan's algorithm). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(relative(repo, w));
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('module graph', () => {
  it('has no cycle, type-only imports included', () => {
    expect(cycles(moduleGraph())).toEqual([]);
  });

  it('the check finds a cycle when there is one', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(cycles(graph).map((g) => g.length)).toEqual([3]);
  });
});
