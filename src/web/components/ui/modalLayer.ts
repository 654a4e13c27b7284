/**
 * What a modal layer does to the page behind it (components/ui/Dialog.tsx): its scroll locked,
 * its other parts hidden from screen readers, and which controls inside the layer Tab reaches.
 * Each call returns its undo; layers nest, and the page comes back as it was when the last closes.
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

let locks = 0;
let saved: { overflow: string; paddingRight: string } | null = null;

/** The page stops scrolling under the layer; its scroll bar's width is kept, so nothing moves. */
export function lockScroll(): () => void {
  if (locks++ === 0) {
    const html = document.documentElement;
    const body = document.body;
    const bar = window.innerWidth - html.clientWidth;
    saved = { overflow: html.style.overflow, paddingRight: body.style.paddingRight };
    html.style.overflow = 'hidden';
    if (bar > 0) body.style.paddingRight = `${bar}px`;
  }
  let undone = false;
  return () => {
    if (undone) return;
    undone = true;
    if (--locks === 0 && saved) {
      document.documentElement.style.overflow = saved.overflow;
      document.body.style.paddingRight = saved.paddingRight;
      saved = null;
    }
  };
}

/** How many open layers hide each element (`aria-hidden` set here, not by the page). */
const hiddenBy = new Map<Element, number>();

/** Every other child of the body is hidden from screen readers while `layer` is open. */
export function hideOthers(layer: HTMLElement): () => void {
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
    for (const el of hidden) {
      const count = (hiddenBy.get(el) ?? 1) - 1;
      if (count > 0) hiddenBy.set(el, count);
      else {
        hiddenBy.delete(el);
        el.removeAttribute('aria-hidden');
      }
    }
  };
}
