import { createPath, type To } from 'react-router';

/**
 * Where the islands of a public page think they are. A public page has no client router: a link
 * or a navigation to another page (or to this one again) loads it from the server. A navigation
 * that stays on the same path with another query (an island putting a search in the query string, or tidying it) changes the address in
 * place; every island's router reads the one shared location, so they all see the change, and
 * Back and Forward bring the earlier query back.
 */
const listeners = new Set<() => void>();
let current = readLocation();

function readLocation() {
  return { pathname: window.location.pathname, search: window.location.search, hash: window.location.hash, state: null, key: 'default' };
}

export const islandLocation = {
  get: () => current,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

const href = (to: To) => (typeof to === 'string' ? to : createPath(to));

export const islandNavigator = {
  createHref: href,
  encodeLocation: (to: To) => {
    const url = new URL(href(to), window.location.href);
    return { pathname: url.pathname, search: url.search, hash: url.hash };
  },
  go: (delta: number) => window.history.go(delta),
  push: (to: To) => go(to, false),
  replace: (to: To) => go(to, true),
};

function changed() {
  current = readLocation();
  listeners.forEach((l) => l());
}

function go(to: To, replace: boolean) {
  const url = new URL(href(to), window.location.href);
  const here = window.location;
  // Another page, or this very page again (a language chosen on an unprefixed page): load it.
  if (url.origin !== here.origin || url.pathname !== here.pathname || (url.search === here.search && url.hash === here.hash)) {
    if (replace) window.location.replace(url.href);
    else window.location.assign(url.href);
    return;
  }
  const path = url.pathname + url.search + url.hash;
  if (replace) window.history.replaceState(window.history.state, '', path);
  else window.history.pushState(null, '', path);
  changed();
}

if (typeof window !== 'undefined') window.addEventListener('popstate', changed);
