/**
 * The open modal layers (components/ui/Dialog.tsx) and what they do to the page behind them: its
 * scroll locked, its other parts hidden from screen readers; and which controls inside a layer
 * Tab reaches. Layers nest, and the page comes back as it was when the last one closes.
 */

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable="true"]';

/** The controls inside `root` that Tab reaches, in document order. */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) =>
      el.tabIndex >= 0 &&
      !(el as HTMLButtonElement).disabled &&
      !(el instanceof HTMLInputElement && el.type === 'hidden') &&
      !el.closest('[hidden], [inert]') &&
      (typeof el.checkVisibility !== 'function' || el.checkVisibility({ visibilityProperty: true })),
  );
}

/** The open layers' panels, the last on top: Escape and the focus belong to it. */
const open: HTMLElement[] = [];
/** What the first layer to open found on the page, put back when the last one closes. */
let saved: { overflow: string; paddingRight: string } | null = null;
/** How many open layers hide each element (`aria-hidden` set here, not by the page). */
const hiddenBy = new Map<Element, number>();

/**
 * Opens `layer` (a child of the body) with its `panel`: on top of the layers already open, every
 * other child of the body hidden from screen readers, and the page's scroll locked with its
 * scroll bar's width kept, so nothing moves. The undo closes it; the page comes back as it was
 * when the last layer closes.
 */
export function openLayer(layer: HTMLElement, panel: HTMLElement): () => void {
  if (open.length === 0) {
    const html = document.documentElement;
    const bar = window.innerWidth - html.clientWidth;
    saved = { overflow: html.style.overflow, paddingRight: document.body.style.paddingRight };
    html.style.overflow = 'hidden';
    if (bar > 0) document.body.style.paddingRight = `${bar}px`;
  }
  open.push(panel);
  const hidden: Element[] = [];
  for (const el of document.body.children) {
    if (el === layer || el.contains(layer) || /^(SCRIPT|STYLE|TEMPLATE)$/.test(el.tagName)) continue;
    const count = hiddenBy.get(el);
    if (count === undefined && el.getAttribute('aria-hidden') === 'true') continue; // the page's own
    hiddenBy.set(el, (count ?? 0) + 1);
    el.setAttribute('aria-hidden', 'true');
    hidden.push(el);
  }
  return () => {
    open.splice(open.indexOf(panel), 1);
    for (const el of hidden) {
      const count = (hiddenBy.get(el) ?? 1) - 1;
      if (count > 0) hiddenBy.set(el, count);
      else {
        hiddenBy.delete(el);
        el.removeAttribute('aria-hidden');
      }
    }
    if (open.length === 0 && saved) {
      document.documentElement.style.overflow = saved.overflow;
      document.body.style.paddingRight = saved.paddingRight;
      saved = null;
    }
  };
}

/** Whether `panel` is the open layer on top. */
export const isTopLayer = (panel: HTMLElement) => open[open.length - 1] === panel;
