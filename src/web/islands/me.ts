import type { Me } from '../../core/contracts/account';

/**
 * Who is signed in on a public page: what the server rendered the page for (the islands boot
 * data's `me`), and after a sign-in through the header's dialog the answer of GET /api/me. The
 * islands' `useMe` (features/auth/api.islands.ts) reads it; every island follows a change.
 */
let current: Me | null = null;
/** The state the server rendered the page with: what an island hydrates with (React's server snapshot), whenever it wakes. */
let rendered: Me | null = null;
const listeners = new Set<() => void>();

export const meStore = {
  get: (): Me | null => current,
  rendered: (): Me | null => rendered,
  /** The boot data's state, read once when the first island wakes. */
  boot(me: Me | null) {
    rendered = current = me;
  },
  set(me: Me | null) {
    current = me;
    listeners.forEach((l) => l());
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
