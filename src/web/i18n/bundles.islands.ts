/**
 * The text bundles public pages can load (vite.islands.config.ts): a page's own text comes with
 * its HTML (the islands boot data: `common` and the page's `islandNs`), so the islands load only
 * what their dialogs and forms need after that. The table of every bundle of every language
 * would otherwise be in every public page's script. `src/web/islands/bundle.test.ts` fails when an
 * island asks for a namespace not here.
 */
export const bundles = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/{common,auth,support}.json');
