/**
 * The script of a public page (docs/decisions/0009-islands.md, 0022-islands-on-demand.md): a
 * small loader. The page is server-rendered HTML that works without JavaScript; only its islands
 * (./islands/island.tsx) become live, each when it is first touched (a pointer, focus, key, click
 * or submit inside it, seen by ./islands/capture.ts) or once the page has loaded and the browser
 * is idle, whichever comes first. An island that waits to be asked (a dialog's host, the notices:
 * ./islands/ask.ts) wakes only when asked; one that waits to be touched (the header, a button, a
 * form: docs/decisions/0027) only when touched, or at idle when the address has a query parameter
 * it acts on. Waking an island loads its own chunk and, with the first one, React and the islands
 * runtime (./islands/runtime.tsx); islands hydrate one per task, an island touched first jumping
 * the queue. When every island that wakes by itself, and every island woken since, is live,
 * `<html data-hydrated="true">` says so (and stops saying it while one just woken hydrates).
 * A page's later parts (the price list's rest: ./islands/laterParts.ts) are fetched and put in
 * place once it has painted.
 */
import { HYDRATED_ATTR, ISLAND_ATTR, LATER_ATTR, ISLAND_WAKE_ATTR, ISLAND_WAKE_QUERY_ATTR, wakesByItself } from './islands/attrs';
import { pathLanguage } from '../core/i18n';
import { settleLanguage } from './lib/languageMemory';
import { ISLANDS } from './islands/registry';
import type { HydrateIsland } from './islands/runtime';
import { fetchWholeStylesheet, wholeStylesheet } from './islands/stylesheet';
import { pageBoot } from './islands/text';

const ISLAND = `[${ISLAND_ATTR}]`;
/** Islands inside another island hydrate with it. */
const islands = [...document.querySelectorAll<HTMLElement>(ISLAND)].filter((el) => !el.parentElement?.closest(ISLAND));
const query = new URLSearchParams(window.location.search);
/** The islands that wake without being asked or touched: the page is live when they are. */
const byThemselves = islands.filter((el) => wakesByItself(el.getAttribute(ISLAND_WAKE_ATTR), el.getAttribute(ISLAND_WAKE_QUERY_ATTR), query));
const pageLive = () => {
  const live = (el: HTMLElement) => el.hasAttribute(HYDRATED_ATTR);
  if (byThemselves.every(live) && [...code.keys()].every(live)) document.documentElement.dataset.hydrated = 'true';
};

let runtimeCode: Promise<unknown> | undefined;
/** The runtime (and React), asked for once however many islands wake together. */
const runtime = () => (runtimeCode ??= import('./islands/runtime'));

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Each island's code, fetched (with React) as soon as it is woken; hydration waits its turn. */
const code = new Map<HTMLElement, Promise<unknown>>();
/** Islands woken and not yet hydrating, in the order they go: touched ones first. */
const waiting: HTMLElement[] = [];
let hydrating = false;

/** Each island's own code (with React and the runtime), asked for once: when it wakes, or earlier (`fetchEarly`). */
const modules = new Map<HTMLElement, Promise<[unknown, unknown]>>();
function islandCode(el: HTMLElement): Promise<[unknown, unknown]> {
  let found = modules.get(el);
  if (!found) {
    const name = el.getAttribute(ISLAND_ATTR) ?? '';
    const load = Object.hasOwn(ISLANDS, name) ? ISLANDS[name]!() : Promise.reject(new Error(`Unknown island ${name}`));
    modules.set(el, (found = Promise.all([runtime(), load])));
    // Fetched early, it may fail before its island wakes: that island says so when it does.
    found.catch(() => {});
  }
  return found;
}

function wake(el: HTMLElement, touched: boolean) {
  if (!code.has(el)) {
    // Its code, the page's text when it did not come with the page (./islands/text.ts), and the
    // whole stylesheet for what it renders once live (./islands/stylesheet.ts).
    code.set(
      el,
      Promise.all([islandCode(el), pageBoot(), wholeStylesheet()]).then(([[runtimeModule, Component], boot, sheet]) => [runtimeModule, Component, boot, sheet]),
    );
    waiting.push(el);
    // A page called live is not while an island just woken hydrates.
    delete document.documentElement.dataset.hydrated;
  }
  const at = waiting.indexOf(el);
  if (touched && at > 0) waiting.unshift(...waiting.splice(at, 1));
  void hydrateWaiting();
}

/** Hydrates the waiting islands one per task, so the page stays responsive meanwhile. */
async function hydrateWaiting() {
  if (hydrating) return;
  hydrating = true;
  while (waiting.length) {
    const el = waiting.shift()!;
    try {
      const [{ hydrateIsland }, Component, boot] = (await code.get(el)) as [{ hydrateIsland: HydrateIsland }, Parameters<HydrateIsland>[1], Parameters<HydrateIsland>[2]];
      await hydrateIsland(el, Component, boot);
      pageLive();
    } catch (error) {
      console.error(`Island ${el.getAttribute(ISLAND_ATTR)} did not hydrate:`, error);
    }
    await nextTask();
  }
  hydrating = false;
}

window.__artimWake = (target) => {
  const top = islands.find((el) => el.contains(target));
  if (top) wake(top, true);
};
window.__artimAsk = (name) => {
  for (const el of islands) if (el.getAttribute(ISLAND_ATTR) === name) wake(el, true);
};
// The language of a page in a language is the remembered one (lib/languageMemory.ts): the header
// does it too once live, but a page whose header nobody touches must not wait for it.
const pageLanguage = pathLanguage(window.location.pathname);
if (pageLanguage) settleLanguage(pageLanguage);
// Anything touched before this script ran.
for (const held of window.__artimQueue ?? []) window.__artimWake(held.target);
for (const touched of window.__artimTouched ?? []) window.__artimWake(touched);

/** Runs `then` once the page's first contentful paint is on the screen (at once where the browser does not tell). */
function afterFirstPaint(then: () => void) {
  if (!window.PerformanceObserver?.supportedEntryTypes?.includes('paint')) return then();
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    then();
  });
  observer.observe({ type: 'paint', buffered: true });
}

/**
 * The code of the islands that wake by themselves, asked for once the page's first paint is on the
 * screen rather than when they wake, after load and idle: it downloads meanwhile, and they hydrate
 * at idle as before (docs/decisions/0031). Not before that paint, which never waits for it.
 */
function fetchEarly() {
  afterFirstPaint(() => byThemselves.forEach((el) => void islandCode(el)));
}

/**
 * The rest once the page has loaded and the browser has nothing else to do; the whole stylesheet
 * is then fetched too, once the page's first paint is shown, and applied only when an island
 * wakes (it is for what islands render, never for that paint).
 */
function wakeAll() {
  const all = () => {
    afterFirstPaint(fetchWholeStylesheet);
    byThemselves.forEach((el) => wake(el, false));
  };
  // A browser kept busy does not wait for ever: at most two seconds after load.
  if (window.requestIdleCallback) window.requestIdleCallback(all, { timeout: 2000 });
  else setTimeout(all, 1);
}
// A page's later parts (./islands/laterParts.ts), fetched once it has painted; their code only where there are some.
if (document.querySelector(`[${LATER_ATTR}]`)) afterFirstPaint(() => void import('./islands/laterParts').then(({ fillLaterParts }) => fillLaterParts()));
if (byThemselves.length === 0) pageLive();
else fetchEarly();
if (document.readyState === 'complete') wakeAll();
else window.addEventListener('load', wakeAll, { once: true });
