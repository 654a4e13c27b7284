/** Attribute names the server writes (./island.tsx) and the islands loader and runtime read. Free of React: the loader imports them. */
export const ISLAND_ATTR = 'data-island';
export const ISLAND_PROPS_ATTR = 'data-island-props';
export const HYDRATED_ATTR = 'data-hydrated';
/**
 * `data-island-wake="asked"`: an island that renders nothing until the page asks for it (the host
 * of a dialog or of the notices) wakes only when asked (./ask.ts), not on a touch or when the
 * browser is idle, and the page is live without it.
 */
export const ISLAND_WAKE_ATTR = 'data-island-wake';
export const WAKE_WHEN_ASKED = 'asked';
/**
 * `data-island-wake="touched"`: an island whose server-rendered markup looks and works as it is
 * until the visitor uses it (links are links, the phone menu opens from the first script, clicks
 * and typing are held and replayed) wakes at the first touch inside it, not when the browser is
 * idle: a page of such islands loads neither React nor their code until someone acts
 * (docs/decisions/0027). The page is live without it.
 */
export const WAKE_WHEN_TOUCHED = 'touched';
/**
 * On a `touched` island: the address's query parameters it acts on by itself (the sign-in dialog
 * asked for on the home page, an order number to look up), space-separated. With one of them in
 * the address it wakes when the browser is idle, like any island.
 */
export const ISLAND_WAKE_QUERY_ATTR = 'data-island-wake-query';
/**
 * On an island that wakes by itself for one of its query parameters: the text namespaces it shows
 * at once when it does (the sign-in dialog's), space-separated. The server puts them in the page
 * with the rest of its islands' text, instead of a request for them after the island's code.
 */
export const ISLAND_TEXT_ATTR = 'data-island-text';

/**
 * Whether an island wakes by itself, when the browser is idle after load, given its wake and
 * query attributes and the page's address: one without a wake attribute does; one that waits to
 * be touched does when the address has one of its query parameters; one that waits to be asked
 * does not.
 */
export function wakesByItself(wake: string | null, queryNames: string | null, query: URLSearchParams): boolean {
  if (wake === WAKE_WHEN_TOUCHED) return (queryNames ?? '').split(' ').some((name) => name !== '' && query.has(name));
  return wake === null;
}
/**
 * On a button with `aria-controls` and `aria-expanded` whose component toggles `hidden` on the
 * element it controls: the page's first script (./capture.ts) shows or hides that element at the
 * tap, before the island is live, and the held click replayed after hydration brings the
 * component's state to what is on the screen.
 */
export const EARLY_TOGGLE_ATTR = 'data-early-toggle';

/**
 * On `<html>` while a click or submit held by the capture script (./capture.ts) waits for its
 * island to be live: the page shows it is busy (theme.css); cleared when no island waits (./replay.ts).
 */
export const WAKING_ATTR = 'data-waking';

/**
 * On a page of islands' `<style>` block, which holds only the rules its HTML uses: the address of
 * the public pages' whole stylesheet, which the islands load before they render anything the
 * server did not (./stylesheet.ts, server/web/criticalCss.ts, docs/decisions/0030).
 */
export const STYLESHEET_ATTR = 'data-stylesheet';

/** The islands build's list of the scripts each island loads as it wakes, beside its manifest (vite.islands.config.ts `islandPreloads`). */
export const ISLAND_PRELOADS = 'islands-preloads.json';
/**
 * The `<meta name>` whose `content` is the islands loader's address, on a page of islands none of
 * which wakes by itself: the capture script (./capture.ts) adds the loader once the page has
 * painted, not while the document is read (docs/decisions/0034).
 */
export const LOADER_META = 'artim-islands';

/**
 * A page's later part (docs/decisions/0036): an element `data-later="<address>"`, holding a link to
 * that address, stands where the rest of a long list goes. Once the page has painted, the islands
 * loader (./laterParts.ts) fetches the address and puts the children of its `data-part` element
 * there. A child marked `data-continues` continues the element before the slot (its own children
 * going into that element's last child, and so on down) and a child marked `data-repeats` (a
 * heading the continued element already has) is left out; the others are put as they are.
 */
export const LATER_ATTR = 'data-later';
export const PART_ATTR = 'data-part';
export const CONTINUES_ATTR = 'data-continues';
export const REPEATS_ATTR = 'data-repeats';
