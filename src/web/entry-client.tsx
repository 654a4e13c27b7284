import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, UNSAFE_ErrorResponseImpl as ErrorResponse } from 'react-router';
import { createI18n } from './i18n';
import { BOOT_DATA_ID, type BootData } from './app/document';
import { setClientI18n } from './app/page';
import { Providers } from './app/Providers';
import { setAppControls } from './app/RootLayout';
import { snapshotControls } from './islands/replay';
import { routes } from './app/routes';
import './styles.css';

function reviveErrors(errors: BootData['hydration']['errors']) {
  if (!errors) return null;
  const out: Record<string, unknown> = {};
  for (const [id, e] of Object.entries(errors) as [string, Record<string, unknown>][]) {
    out[id] =
      e.__type === 'RouteErrorResponse'
        ? new ErrorResponse(e.status as number, e.statusText as string, e.data, e.internal === true)
        : new Error(String(e.message));
  }
  return out;
}

async function start() {
  const boot = JSON.parse(document.getElementById(BOOT_DATA_ID)!.textContent!) as BootData;
  const i18n = createI18n(boot.lang, boot.resources as never);
  setClientI18n(i18n);

  // The server rendered the matched pages; load their chunks before hydrating so the first
  // client render is identical.
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async (m) => {
      if (typeof m.route.lazy !== 'function') return;
      const resolved = await m.route.lazy();
      Object.assign(m.route, { ...resolved, lazy: undefined });
    }),
  );

  const router = createBrowserRouter(routes, {
    hydrationData: { ...boot.hydration, errors: reviveErrors(boot.hydration.errors) } as never,
  });
  const root = document.getElementById('root')!;
  // Typed or autofilled before hydration: handed to the app once it is live (islands/replay.ts).
  setAppControls(snapshotControls(root));
  hydrateRoot(
    root,
    <StrictMode>
      <Providers i18n={i18n} me={boot.me}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
    {
      // A hydration mismatch (the browser's first render differing from the server's) is a bug:
      // it is reported where the journeys fail on it, not recovered from silently.
      onRecoverableError: (error, info) => console.error('Hydration error:', error, info.componentStack ?? ''),
    },
  );
}

void start();
