/**
 * The signed-in state and the way in, as the header, the consultation and other features use
 * them (docs/ARCHITECTURE.md#layers). The header is on every page, so this entry stays light: the
 * sign-in dialog stays behind AccountMenu's dynamic import, and the strength meter is in ./pages.ts.
 */
export { fetchMe, ME_QUERY_KEY, useEnsureMe, useMe, useRefreshMe, type Me } from './api';
export { AccountMenu, ADDRESS_PARAMS } from './AccountMenu';
export { authDialog, useAuthDialog } from './authDialogStore';
export { requireMe } from './session';
export { useSignOut } from './useSignOut';
