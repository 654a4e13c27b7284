declare global {
  interface Window {
    /** Wakes the islands of that name that wait to be asked (entry-islands.tsx). */
    __artimAsk?: (name: string) => void;
  }
}

/**
 * Asks for the islands named `name` marked `{ wake: 'asked' }` (./island.tsx): on a public page
 * their code loads and they hydrate now, and see what the page asked for (a dialog opened, a
 * notice raised) in the state they read it from. In the app, where everything is live, and on the
 * server it does nothing.
 */
export function askIsland(name: string): void {
  if (typeof window !== 'undefined') window.__artimAsk?.(name);
}
