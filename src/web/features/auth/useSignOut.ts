import { useState } from 'react';

/**
 * Signing out from the header, the dashboard or the admin area: the browser leaves for the site
 * root whether the request succeeded or not (docs/rules.md#accounts). `onError` may announce a failure first;
 * the page then waits a moment so the notice can be read.
 */
export function useSignOut(onError?: () => void): { signingOut: boolean; signOut: () => Promise<void> } {
  const [signingOut, setSigningOut] = useState(false);

  async function signOut() {
    if (signingOut) return;
    setSigningOut(true);
    try {
      // Loaded with the click: the header of a public page carries no API client until then.
      const { api, unwrap } = await import('../../lib/api');
      await unwrap((o) => api.auth['sign-out'].$post({ json: {} }, o));
      window.location.assign('/');
    } catch {
      onError?.();
      setTimeout(() => window.location.assign('/'), onError ? 1200 : 0);
    }
  }

  return { signingOut, signOut };
}
