/**
 * Whether the header fetches the sign-in dialog's code as soon as it is live, for a visitor who is
 * signed out. Not in the app: there the header is live as the page loads, and the dialog waits to
 * be opened. On public pages (./dialogPreload.islands.ts) the header wakes at a visitor's first
 * touch (docs/decisions/0027), often the tap that opens the phone menu on the way to Sign in.
 */
export const PRELOAD_DIALOG_WHEN_LIVE = false;
