/**
 * The query client of the dashboard's tabs on a page of islands, once the first tab that reads
 * through one opened (./queryHost.islands.tsx): what ./cache.islands.ts refreshes besides the page's
 * own answers.
 */
interface Invalidates {
  invalidateQueries: (filters: { queryKey: readonly unknown[] }) => Promise<void>;
}

let client: Invalidates | null = null;

export const tabsQueries = {
  set: (next: Invalidates) => void (client = next),
  invalidate: (queryKey: readonly unknown[]) => void client?.invalidateQueries({ queryKey }),
};
