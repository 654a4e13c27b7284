import { useEffect, useState } from 'react';

/** `then` when the browser is first idle (a task later where it cannot say); returns the cancel. */
export function whenIdle(then: () => void): () => void {
  if (typeof window.requestIdleCallback !== 'function') {
    const timer = setTimeout(then, 1);
    return () => clearTimeout(timer);
  }
  const idle = window.requestIdleCallback(then);
  return () => window.cancelIdleCallback(idle);
}

/**
 * False until the browser is first idle after the component mounted: on the server, during
 * hydration and until the page is live. What a page needs only later (the header's platform list, the
 * dashboard's top-up dialog code) waits for it, out of the page's load.
 */
export function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  return idle;
}
