import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { I18n } from '../i18n';
import { useState, type ReactNode } from 'react';
import { I18nProvider } from '../i18n';

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
    },
  });
}

/** Everything the app needs around the router, identical on server and browser. */
export function Providers({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </I18nProvider>
  );
}
