import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { I18n } from '../i18n';
import { useState, type ReactNode } from 'react';
import { I18nProvider } from '../i18n';
import type { Me } from '../../core/contracts/account';
import { ME_QUERY_KEY } from '../features/auth/api';
import { makeQueryClient } from './queryClient';
import type { PageAnswer } from './page';

/** Everything the app needs around the router, identical on server and browser. */
export function Providers({
  i18n,
  me,
  answers = [],
  client: given,
  children,
}: {
  i18n: I18n;
  me?: Me | null;
  /** What a page of islands sends with itself (./page.ts): the server renders with it, as its islands will. */
  answers?: readonly PageAnswer[];
  client?: QueryClient;
  children: ReactNode;
}) {
  // The server tells who the page is for, so the header renders signed in from the first paint.
  const [queryClient] = useState(() => {
    if (given) return given;
    const client = makeQueryClient();
    if (me !== undefined) client.setQueryData(ME_QUERY_KEY, me);
    for (const { queryKey, data } of answers) client.setQueryData(queryKey, data);
    return client;
  });
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </I18nProvider>
  );
}
