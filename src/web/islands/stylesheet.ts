import { STYLESHEET_ATTR } from './attrs';

let loading: Promise<void> | undefined;

/**
 * The public pages' whole stylesheet, once. A page of islands comes with the rules its own HTML
 * uses (server/web/criticalCss.ts); what an island renders once live — a menu's list, a dialog, a
 * notice — may use others. The islands loader asks for it when the first island wakes, with the
 * island's code, and hydrates nothing before it is there; and when the browser is idle after
 * load, so that a first touch finds it ready. Settled when it is applied, or when it failed to
 * load (the page then keeps its own rules). A page without the attribute (the development
 * server's) has the whole stylesheet already.
 */
export function wholeStylesheet(): Promise<void> {
  if (loading) return loading;
  const href = document.querySelector(`style[${STYLESHEET_ATTR}]`)?.getAttribute(STYLESHEET_ATTR);
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
