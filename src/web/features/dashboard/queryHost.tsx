import type { ComponentType } from 'react';

/**
 * The dashboard's tabs other than the new order's read through TanStack Query, and load when
 * first opened. In the app they are under its query client already; a page of islands builds
 * ./queryHost.islands.tsx, which gives them one (docs/decisions/0032-the-dashboard-as-an-island.md).
 */
export function hosted<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  return Component;
}
