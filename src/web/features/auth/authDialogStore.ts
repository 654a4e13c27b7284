import { useSyncExternalStore } from 'react';
import { askIsland } from '../../islands/ask';

/**
 * Open state of the auth dialog, reachable from anywhere (Sign in, consultation, Buy Now).
 * The dialog's code loads only when it first opens.
 */
export type AuthTab = 'login' | 'signup';

interface State {
  open: boolean;
  tab: AuthTab;
}

let state: State = { open: false, tab: 'login' };
const listeners = new Set<() => void>();

function set(next: State) {
  state = next;
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const snapshot = () => state;
const serverSnapshot = (): State => ({ open: false, tab: 'login' });
const SERVER_STATE = serverSnapshot();

export const authDialog = {
  /**
   * On a public page the dialog lives in the header's account menu, which may not have woken yet
   * (it waits for a touch: docs/decisions/0027): asking it wakes it, and it opens as it hydrates.
   */
  open: (tab: AuthTab = 'login') => {
    set({ open: true, tab });
    askIsland('Header');
  },
  /** Closing resets to the login tab (docs/rules.md#accounts). */
  close: () => set({ open: false, tab: 'login' }),
  setTab: (tab: AuthTab) => set({ ...state, tab }),
};

export function useAuthDialog() {
  const current = useSyncExternalStore(subscribe, snapshot, () => SERVER_STATE);
  return { isOpen: current.open, tab: current.tab, ...authDialog };
}
