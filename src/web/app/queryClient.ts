import { QueryClient } from '@tanstack/react-query';

/** The query cache's defaults, the app's and the dashboard's tabs' on a page of islands alike. */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
    },
  });
}
