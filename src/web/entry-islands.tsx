/**
 * The script of a public page (docs/decisions/0009-islands.md). The page is server-rendered HTML
 * that works without JavaScript; only its islands (./islands/island.tsx) become live. This file is
 * one file with everything the islands need (React, their components; dialogs load when opened),
 * requested early without holding up the page, and it hydrates each island in a task of its own, so the page stays responsive meanwhile. An
 * island the visitor reaches for first (a click or submit held by ./islands/capture.ts) jumps the
 * queue. When every island is live, `<html data-hydrated="true">` says so.
 */
import { BOOT_DATA_ID, type IslandsBootData } from './app/document';
import { createIslands } from './islands/runtime';

const ISLAND = '[data-island]';
/** Islands inside another island hydrate with it. */
const islands = [...document.querySelectorAll<HTMLElement>(ISLAND)].filter((el) => !el.parentElement?.closest(ISLAND));

const hydrateIsland = createIslands(JSON.parse(document.getElementById(BOOT_DATA_ID)!.textContent!) as IslandsBootData);

const started = new Map<HTMLElement, Promise<void>>();
function hydrate(el: HTMLElement): Promise<void> {
  let done = started.get(el);
  if (!done) started.set(el, (done = hydrateIsland(el)));
  return done;
}

/** Lets the browser paint and handle input between two islands. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

window.__artimWake = (target) => {
  const top = islands.find((el) => el.contains(target));
  if (top) void hydrate(top);
};
// Anything clicked before this script ran.
for (const held of window.__artimQueue ?? []) window.__artimWake(held.target);

async function hydrateAll() {
  for (const el of islands) {
    await hydrate(el);
    await nextTask();
  }
  document.documentElement.dataset.hydrated = 'true';
}

void hydrateAll();
