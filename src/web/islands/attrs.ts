/** Attribute names the server writes (./island.tsx) and the islands loader and runtime read. Free of React: the loader imports them. */
export const ISLAND_ATTR = 'data-island';
export const ISLAND_PROPS_ATTR = 'data-island-props';
export const HYDRATED_ATTR = 'data-hydrated';
