import type { RollupLog } from 'rollup';
import { describe, expect, it } from 'vitest';
import { onBuildWarning } from '../../../vite.warnings';

const ROOT = '/srv/artim';
const passed = (warning: RollupLog) => {
  const out: RollupLog[] = [];
  onBuildWarning(warning, (w) => out.push(w));
  return out;
};
/** Vite's reporter, word for word, for a module imported both ways. */
const mixedImport = (module: string, dynamicBy: string[]): RollupLog => ({
  code: 'PLUGIN_WARNING',
  plugin: 'vite:reporter',
  message: `\n(!) ${ROOT}/src/web/${module} is dynamically imported by ${dynamicBy.map((f) => `${ROOT}/src/web/${f}`).join(', ')} but also statically imported by ${ROOT}/src/web/features/auth/api.ts, ${ROOT}/src/web/lib/errorText.ts, dynamic import will not move module into another chunk.\n`,
});

describe('the builds’ warnings (vite.warnings.ts)', () => {
  it('leave out a dependency’s unreadable annotation and the sign-out’s import of the API client', () => {
    expect(passed({ code: 'INVALID_ANNOTATION', id: `${ROOT}/node_modules/zod/v4/core/util.js`, message: 'A comment … contains an annotation that Rollup cannot interpret' })).toEqual([]);
    expect(passed(mixedImport('lib/api.ts', ['features/auth/useSignOut.ts']))).toEqual([]);
  });

  it('pass on the same warnings about anything else, and every other warning', () => {
    const ours: RollupLog = { code: 'INVALID_ANNOTATION', id: `${ROOT}/src/web/lib/format.ts`, message: 'A comment … contains an annotation that Rollup cannot interpret' };
    const otherModule = mixedImport('lib/format.ts', ['features/auth/useSignOut.ts']);
    const secondImporter = mixedImport('lib/api.ts', ['features/auth/useSignOut.ts', 'features/layout/Header.tsx']);
    const circular: RollupLog = { code: 'CIRCULAR_DEPENDENCY', message: 'Circular dependency: a.ts -> b.ts -> a.ts' };
    for (const warning of [ours, otherModule, secondImporter, circular]) expect(passed(warning)).toEqual([warning]);
  });
});
