import { StrictMode, useEffect, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { Router } from 'react-router';
import { makeQueryClient, Providers } from '../app/Providers';
import { ME_QUERY_KEY } from '../features/auth/api';
import { SiteContext } from '../app/site';
import type { IslandsBootData } from '../app/document';
import { createI18n } from '../i18n';
import { setClientI18n } from '../app/page';
import { HYDRATED_ATTR, ISLAND_PROPS_ATTR, ISLAND_ATTR } from './island';
import { ISLANDS } from './registry';
import { islandLocation, islandNavigator } from './location';
import { markHydrated, snapshotControls } from './replay';

function IslandRouter({ children }: { children: ReactNode }) {
  const location = useSyncExternalStore(islandLocation.subscribe, islandLocation.get, islandLocation.get);
  return (
    <Router location={location} navigator={islandNavigator}>
      {children}
    </Router>
  );
}

/** Runs once the island's first render is on the screen: it is live from here on. */
function Hydrated({ onHydrated }: { onHydrated: () => void }) {
  useEffect(onHydrated, [onHydrated]);
  return null;
}

/**
 * Hydrates the islands of a public page, each as its own React root under the same providers the
 * server rendered them with (text, who is signed in, site settings, the location). `hydrate(el)`
 * resolves once that island is live and the clicks, submits and typing it missed are replayed.
 */
export function createIslands(boot: IslandsBootData) {
  const i18n = createI18n(boot.lang, boot.resources as never);
  setClientI18n(i18n);
  // One query client for every island: signing in through the header's dialog updates them all.
  const client = makeQueryClient();
  client.setQueryData(ME_QUERY_KEY, boot.me);
  const providers = (children: ReactNode) => (
    <Providers i18n={i18n} client={client}>
      <SiteContext.Provider value={boot.site}>
        <IslandRouter>{children}</IslandRouter>
      </SiteContext.Provider>
    </Providers>
  );

  return function hydrate(el: HTMLElement): Promise<void> {
    const name = el.getAttribute(ISLAND_ATTR) ?? '';
    const Component = Object.hasOwn(ISLANDS, name) ? (ISLANDS[name] as ComponentType<Record<string, unknown>>) : null;
    if (!Component) {
      console.error(`Unknown island ${name}`);
      return Promise.resolve();
    }
    const props = JSON.parse(el.getAttribute(ISLAND_PROPS_ATTR) ?? '{}') as Record<string, unknown>;
    const controls = snapshotControls(el);
    return new Promise<void>((resolve) => {
      const done = () => {
        // Strict mode runs effects twice in development; the island hydrates once.
        if (el.hasAttribute(HYDRATED_ATTR)) return;
        markHydrated(el, controls);
        resolve();
      };
      hydrateRoot(
        el,
        <StrictMode>
          {providers(
            <>
              <Component {...props} />
              <Hydrated onHydrated={done} />
            </>,
          )}
        </StrictMode>,
        { onRecoverableError: (error, info) => console.error('Hydration error:', error, info.componentStack ?? '') },
      );
    });
  };
}
