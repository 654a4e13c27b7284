/**
 * The app's chunks grouped by kind rather than one per shared module: icons are many modules of a
 * few hundred bytes, shared by many pages; alone, each would be a request whose headers outweigh
 * it. React goes in a chunk of its own so that grouping the icons (which import it) cannot pull it
 * along. Small chunks left over are merged into the chunks loaded with them.
 */
export function groupedChunks(id: string): string | undefined {
  if (/\/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
  if (id.includes('/node_modules/lucide-react/')) return 'icons';
  return undefined;
}
