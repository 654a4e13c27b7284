/**
 * Where the islands of a public page think they are. A public page has no client router: a link
 * or a navigation to another page (or to this one again) loads it from the server. A navigation
 * that stays on the same path with another query (an island putting a search in the query string,
 * or tidying it) changes the address in place; every island reads the one shared location
 * (./router.tsx), so they all see the change, and Back and Forward bring the earlier query back.
 */
export interface IslandLocation {
  pathname: string;
  search: string;
  hash: string;
  /** The history entry's state as React Router keeps it (`usr`): what a page of islands was sent with (`navigateTo`). */
  state: unknown;
  key: string;
}

/** A path as React Router's `To`: a string, or its parts. */
export type IslandTo = string | { pathname?: string; search?: string; hash?: string };

const listeners = new Set<() => void>();
let current = readLocation();

function readLocation(): IslandLocation {
  if (typeof window === 'undefined') return { pathname: '/', search: '', hash: '', state: null, key: 'default' };
  const entry = window.history.state as { usr?: unknown; key?: unknown } | null;
  return {
    pathname: window.location.pathname,
    search: window.location.search,
    hash: window.location.hash,
    state: entry?.usr ?? null,
    key: typeof entry?.key === 'string' ? entry.key : 'default',
  };
}

export const islandLocation = {
  get: () => current,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** `to` as the text of a path (React Router's `createPath`). */
export function createPath(to: IslandTo): string {
  if (typeof to === 'string') return to;
  const { pathname = '', search = '', hash = '' } = to;
  return pathname + (search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '') + (hash && hash !== '#' ? (hash.startsWith('#') ? hash : `#${hash}`) : '');
}

/** `to` read against the current address: a path without a pathname stays on this page. */
export function resolveTo(to: IslandTo): URL {
  const here = new URL(window.location.href);
  if (typeof to !== 'string') {
    const path = createPath({ pathname: to.pathname ?? here.pathname, search: to.search ?? (to.pathname === undefined ? here.search : ''), hash: to.hash });
    return new URL(path, here);
  }
  return new URL(to, here);
}

function changed() {
  current = readLocation();
  listeners.forEach((l) => l());
}

/**
 * Goes to `to`: another page (or this very page again) loads from the server; another query on this
 * path changes in place. `state` goes with a page of this site the way React Router keeps it (the
 * history entry's `usr`), so the app's page reads it as `location.state`: the entry is made first,
 * then loaded, and a reload keeps it as it keeps any entry's state.
 */
export function navigateTo(to: IslandTo, replace = false, state?: unknown): void {
  const url = resolveTo(to);
  const here = window.location;
  // Another page, or this very page again (a language chosen on an unprefixed page): load it.
  if (url.origin !== here.origin || url.pathname !== here.pathname || (url.search === here.search && url.hash === here.hash)) {
    if (state !== undefined && url.origin === here.origin) {
      const entry = { usr: state, key: Math.random().toString(36).slice(2, 10), idx: 0 };
      if (replace) window.history.replaceState(entry, '', url.href);
      else window.history.pushState(entry, '', url.href);
      window.location.reload();
    } else if (replace) window.location.replace(url.href);
    else window.location.assign(url.href);
    return;
  }
  const path = url.pathname + url.search + url.hash;
  if (replace) window.history.replaceState(window.history.state, '', path);
  else window.history.pushState(null, '', path);
  changed();
}

if (typeof window !== 'undefined') window.addEventListener('popstate', changed);
