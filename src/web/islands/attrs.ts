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
 * On a button with `aria-controls` and `aria-expanded` whose component toggles `hidden` on the
 * element it controls: the page's first script (./capture.ts) shows or hides that element at the
 * tap, before the island is live, and the held click replayed after hydration brings the
 * component's state to what is on the screen.
 */
export const EARLY_TOGGLE_ATTR = 'data-early-toggle';
