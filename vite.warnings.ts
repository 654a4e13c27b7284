import type { RollupLog } from 'rollup';

/**
 * Warnings of the builds (vite.config.ts, vite.islands.config.ts) that say nothing about our code,
 * left out so that `npm run build` prints only what needs a look:
 *
 * - a comment in a dependency that Rollup cannot read as an annotation (zod's, about its own
 *   tree-shaking): Rollup drops the comment, the code is the same;
 * - the API client imported on demand by the sign-out (`features/auth/useSignOut.ts`), so that a
 *   public page's header loads it with the click (docs/decisions/0027), where the app's build and
 *   the server's import it statically anyway: there the import only resolves to the chunk that is
 *   already loaded.
 */
export function onBuildWarning(warning: RollupLog, warn: (warning: RollupLog) => void): void {
  if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/')) return;
  if (warning.plugin === 'vite:reporter' && /\/src\/web\/lib\/api\.ts is dynamically imported by [^,]*\/src\/web\/features\/auth\/useSignOut\.ts but also statically imported by/.test(warning.message)) return;
  warn(warning);
}
