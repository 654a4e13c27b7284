import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { makeQueryClient } from '../../app/queryClient';
import { tabsQueries } from './tabsQueries';

/**
 * ./queryHost.tsx as a page of islands builds it: the tabs share one query client, made when the
 * first of them opens, and the dashboard's refreshes reach it (./cache.islands.ts). The query
 * cache's code loads with that tab, not with the page.
 */
let client: QueryClient | undefined;
function tabsClient(): QueryClient {
  if (!client) {
    client = makeQueryClient();
    tabsQueries.set(client);
  }
  return client;
}

export function hosted<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function Hosted(props: P) {
    return (
      <QueryClientProvider client={tabsClient()}>
        <Component {...props} />
      </QueryClientProvider>
    );
  }
  Hosted.displayName = `Hosted(${Component.displayName ?? Component.name})`;
  return Hosted;
}
