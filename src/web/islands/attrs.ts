/** Attribute names the server writes (./island.tsx) and the islands loader and runtime read. Free of React: the loader imports them. */
export const ISLAND_ATTR = 'data-island';
export const ISLAND_PROPS_ATTR = 'data-island-props';
export const HYDRATED_ATTR = 'data-hydrated';
/**
 * On a button with `aria-controls` and `aria-expanded` whose component toggles `hidden` on the
 * element it controls: the page's first script (./capture.ts) shows or hides that element at the
 * tap, before the island is live, and the held click replayed after hydration brings the
 * component's state to what is on the screen.
 */
export const EARLY_TOGGLE_ATTR = 'data-early-toggle';
