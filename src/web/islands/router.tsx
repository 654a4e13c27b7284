/**
 * What island components use of React Router, for public pages, where there is no router
 * (docs/decisions/0022-islands-on-demand.md). The islands build (vite.islands.config.ts) resolves
 * `react-router` to this module, so a component shared with the app imports `Link` or
 * `useSearchParams` from 'react-router' as usual: in the app it is React Router, on a public page
 * a link is a plain `<a>` that loads the next page from the server, and a change of the query
 * string on the same page is made in place (./location.ts). An export a component needs and this
 * module lacks fails the islands build.
 */
import { createContext, forwardRef, useCallback, useMemo, useSyncExternalStore, type AnchorHTMLAttributes, type CSSProperties, type ReactNode } from 'react';
import { createPath, islandLocation, navigateTo, resolveTo, type IslandLocation, type IslandTo } from './location';

export { createPath };

export function useLocation(): IslandLocation {
  return useSyncExternalStore(islandLocation.subscribe, islandLocation.get, islandLocation.get);
}

/** Route parameters: a public page's islands have none; `useLanguage` reads the text's language. */
export function useParams(): Record<string, string | undefined> {
  return {};
}

/** For loaders a shared module holds (auth's `requireMe`): islands have none, but the name must resolve. */
export function redirect(url: string, init: number | ResponseInit = 302): Response {
  const status = typeof init === 'number' ? init : (init.status ?? 302);
  return new Response(null, { status, headers: { Location: url } });
}

/** No data router on a public page: `useSite` reads the settings the island was rendered with. */
export const UNSAFE_DataRouterStateContext = createContext<{ loaderData: Record<string, unknown> } | null>(null);

interface NavigateOptions {
  replace?: boolean;
  preventScrollReset?: boolean;
  state?: unknown;
}

export function useNavigate(): (to: IslandTo | number, options?: NavigateOptions) => void {
  return useCallback((to: IslandTo | number, options?: NavigateOptions) => {
    if (typeof to === 'number') window.history.go(to);
    else navigateTo(to, options?.replace, options?.state);
  }, []);
}

type SearchInit = string | URLSearchParams | Record<string, string | string[]> | [string, string][];
const toParams = (init: SearchInit) =>
  init instanceof URLSearchParams || typeof init === 'string' || Array.isArray(init)
    ? new URLSearchParams(init)
    : new URLSearchParams(Object.entries(init).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])));

export function useSearchParams(): [URLSearchParams, (next: SearchInit | ((prev: URLSearchParams) => SearchInit), options?: NavigateOptions) => void] {
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback((next: SearchInit | ((prev: URLSearchParams) => SearchInit), options?: NavigateOptions) => {
    const init = typeof next === 'function' ? next(new URLSearchParams(window.location.search)) : next;
    const query = toParams(init).toString();
    navigateTo({ pathname: window.location.pathname, search: query ? `?${query}` : '' }, options?.replace);
  }, []);
  return [params, set];
}

/** React Router's own props of a link, which an `<a>` does not take. */
interface RouterLinkProps {
  to: IslandTo;
  replace?: boolean;
  state?: unknown;
  preventScrollReset?: boolean;
  reloadDocument?: boolean;
  relative?: string;
  viewTransition?: boolean;
  prefetch?: string;
  discover?: string;
}
type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>;
export type LinkProps = AnchorProps & RouterLinkProps;

const href = (to: IslandTo) => {
  const url = resolveTo(to);
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : url.href;
};

/** A plain link: the browser loads the next page from the server. */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace: _replace, state: _state, preventScrollReset: _p, reloadDocument: _r, relative: _rel, viewTransition: _v, prefetch: _pf, discover: _d, ...props },
  ref,
) {
  return <a ref={ref} href={typeof window === 'undefined' ? createPath(to) : href(to)} {...props} />;
});

interface NavState {
  isActive: boolean;
  isPending: boolean;
  isTransitioning: boolean;
}
export interface NavLinkProps extends Omit<LinkProps, 'className' | 'style' | 'children'> {
  end?: boolean;
  caseSensitive?: boolean;
  className?: string | ((state: NavState) => string | undefined);
  style?: CSSProperties | ((state: NavState) => CSSProperties | undefined);
  children?: ReactNode | ((state: NavState) => ReactNode);
}

/** A link that knows whether it points at the page shown (`aria-current="page"`), as React Router's. */
export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink({ end = false, caseSensitive = false, className, style, children, ...props }, ref) {
  const { pathname } = useLocation();
  const target = typeof window === 'undefined' ? createPath(props.to).split(/[?#]/)[0]! : resolveTo(props.to).pathname;
  const [here, there] = caseSensitive ? [pathname, target] : [pathname.toLowerCase(), target.toLowerCase()];
  const base = there !== '/' && there.endsWith('/') ? there.slice(0, -1) : there;
  const isActive = here === base || (!end && base !== '/' && here.startsWith(`${base}/`)) || (!end && base === '/');
  const state: NavState = { isActive, isPending: false, isTransitioning: false };
  return (
    <Link
      ref={ref}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className(state) : [className, isActive ? 'active' : undefined].filter(Boolean).join(' ') || undefined}
      style={typeof style === 'function' ? style(state) : style}
      {...props}
    >
      {typeof children === 'function' ? children(state) : children}
    </Link>
  );
});

