import { startTransition, StrictMode, useEffect, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { SiteContext } from '../app/site';
import type { PageBoot } from './text';
import { createI18n, I18nProvider, type I18n } from '../i18n';
import { setClientI18n } from '../app/page';
import { ISLAND_PROPS_ATTR } from './attrs';
import { meStore } from './me';
import { seedAnswers } from './answers';
import { markHydrated, snapshotControls } from './replay';

/** Runs once the island's first render is on the screen: it is live from here on. */
function Hydrated({ onHydrated }: { onHydrated: () => void }) {
  useEffect(onHydrated, [onHydrated]);
  return null;
}

let shared: { i18n: I18n; boot: PageBoot } | null = null;

/** What every island of the page shares, set up once from the boot data: text, who is signed in, site settings. */
function setup(boot: PageBoot) {
  if (shared) return shared;
  const i18n = createI18n(boot.lang, boot.resources as never);
  setClientI18n(i18n);
  meStore.boot(boot.me);
  seedAnswers(boot.answers, boot.answerTags);
  return (shared = { i18n, boot });
}

/**
 * Hydrates one island of a public page as its own React root, under what the server rendered it
 * with (`boot`: the page's boot data with its text, ./text.ts). Resolves once it is live and the
 * clicks, submits and typing it missed are replayed. Loaded (with React) when the first island
 * wakes (entry-islands.tsx).
 */
export function hydrateIsland(el: HTMLElement, Component: ComponentType<Record<string, unknown>>, pageBoot: PageBoot): Promise<void> {
  const { i18n, boot } = setup(pageBoot);
  const props = JSON.parse(el.getAttribute(ISLAND_PROPS_ATTR) ?? '{}') as Record<string, unknown>;
  const controls = snapshotControls(el);
  return new Promise<void>((resolve) => {
    // Strict mode runs effects twice in development; the island is marked once (./replay.ts).
    const done = () => void markHydrated(el, controls).then(resolve);
    // In a transition, hydration yields to the browser every few milliseconds instead of holding the
    // main thread for the whole island (a long task, the page's blocking time): the clicks and keys
    // made meanwhile are held by the capture script and replayed once it is live (./replay.ts).
    startTransition(() => {
      hydrateRoot(
        el,
        <StrictMode>
          <I18nProvider i18n={i18n}>
            <SiteContext.Provider value={boot.site}>
              <Component {...props} />
              <Hydrated onHydrated={done} />
            </SiteContext.Provider>
          </I18nProvider>
        </StrictMode>,
        { onRecoverableError: (error, info) => console.error('Hydration error:', error, info.componentStack ?? '') },
      );
    });
  });
}

export type HydrateIsland = typeof hydrateIsland;
