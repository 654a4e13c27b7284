/**
 * ./dialogPreload.ts as public pages build it: their header wakes only when a visitor touches it
 * (docs/decisions/0027), so the sign-in dialog is fetched then, while the visitor reads the menu,
 * not after the tap on Sign in.
 */
export const PRELOAD_DIALOG_WHEN_LIVE = true;
