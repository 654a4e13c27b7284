/**
 * Settings, catalogue and discount changes followed on the open dashboard. The app's root does it
 * for every page of the app (app/LiveSiteUpdates.tsx), so here nothing more; a page of islands has
 * no such root and builds ./siteUpdates.islands.ts (docs/decisions/0032-the-dashboard-as-an-island.md).
 */
export function useSiteUpdates(): void {}
