/**
 * The text bundles public pages can load (vite.islands.config.ts): a page's own text comes with
 * its HTML (the islands boot data: `common` and the page's `islandNs`) when an island wakes by
 * itself; otherwise the first island to wake loads it from here (../islands/text.ts), and the
 * islands load what their dialogs and forms need after that. The table of every bundle of every
 * language would otherwise be in every public page's script. `src/web/islands/bundle.test.ts`
 * fails when an island asks for a namespace not here; the namespaces are ./islandText.ts's.
 */
export const bundles = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/{common,auth,support,tracking,payments,reseller,order-tools}.json');
