/**
 * Moves focus to a field that needs the visitor's attention and brings it to the middle of the
 * screen: a field merely "in view" can still sit under the sticky header, where focus alone would
 * leave it.
 */
export function focusField(el: HTMLElement | null | undefined): void {
  if (!el) return;
  el.focus({ preventScroll: true });
  const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ block: 'center', behavior: reduce ? 'auto' : 'smooth' });
}
