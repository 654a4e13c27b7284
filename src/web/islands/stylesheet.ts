import { STYLESHEET_ATTR } from './attrs';

let loading: Promise<void> | undefined;

/** Where the page's whole stylesheet is; none on a page that has it whole already (the development server's). */
const stylesheetHref = () => document.querySelector(`style[${STYLESHEET_ATTR}]`)?.getAttribute(STYLESHEET_ATTR) ?? null;

let fetched = false;

/**
 * Brings the whole stylesheet into the browser's cache without applying it (the islands loader
 * does this when the browser is idle after the first paint), so that the first island to wake
 * finds it there. Applying it would recalculate the style of the whole page — a long task, on a
 * slow phone, for rules nothing on the page uses yet.
 */
export function fetchWholeStylesheet(): void {
  const href = stylesheetHref();
  if (fetched || loading || !href) return;
  fetched = true;
  // Served immutable: the stylesheet link of wholeStylesheet() then reads it from the cache.
  void fetch(href, { credentials: 'same-origin' }).catch(() => {});
}

/**
 * The public pages' whole stylesheet, applied once. A page of islands comes with the rules its
 * own HTML uses (server/web/criticalCss.ts); what an island renders once live — a menu's list, a
 * dialog, a notice — may use others. The islands loader asks for it when the first island wakes,
 * with the island's code, and hydrates nothing before it is there. Settled when it is applied, or
 * when it failed to load (the page then keeps its own rules). A page without the attribute (the
 * development server's) has the whole stylesheet already.
 */
export function wholeStylesheet(): Promise<void> {
  if (loading) return loading;
  const href = stylesheetHref();
  if (!href) return (loading = Promise.resolve());
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  // Fetched as a print stylesheet (at the lowest priority, holding up nothing the page paints),
  // then applied to the screen: it holds the page's own rules too, so nothing on it moves.
  link.media = 'print';
  loading = new Promise<void>((resolve) => {
    link.addEventListener(
      'load',
      () => {
        link.media = 'all';
        resolve();
      },
      { once: true },
    );
    link.addEventListener('error', () => resolve(), { once: true });
  });
  document.head.append(link);
  return loading;
}
