import { CONTINUES_ATTR, LATER_ATTR, PART_ATTR, REPEATS_ATTR } from './attrs';
import { wholeStylesheet } from './stylesheet';

/**
 * A page's later parts (./attrs.ts LATER_ATTR, docs/decisions/0036): each `data-later` slot's
 * address is fetched once the page has painted, and the children of the answer's `data-part`
 * element take the slot's place. Until then, and whenever that fails, the slot's own link leads
 * to the same rows as a page of their own. A part carries no islands.
 */

/**
 * Puts `part`'s children after `into`'s: the first, when marked as continuing, into `into`'s last
 * child (level by level down), the ones marked as repeating left out, the others appended.
 */
export function mergePart(into: Element, part: Element): void {
  let first = true;
  for (const child of [...part.children]) {
    if (child.hasAttribute(REPEATS_ATTR)) continue;
    const last = into.lastElementChild;
    if (first && last && child.hasAttribute(CONTINUES_ATTR)) mergePart(last, child);
    else into.append(child);
    first = false;
  }
}

/** Puts `part`'s children where `slot` is (the first continuing the element before the slot, when marked so), and removes the slot. */
export function placePart(slot: Element, part: Element): void {
  const before = slot.previousElementSibling;
  let first = true;
  for (const child of [...part.children]) {
    if (child.hasAttribute(REPEATS_ATTR)) continue;
    if (first && before && child.hasAttribute(CONTINUES_ATTR)) mergePart(before, child);
    else slot.before(child);
    first = false;
  }
  slot.remove();
}

/** An address of this site's own (a path), which a slot may name; anything else is left to its link. */
const ownPath = (href: string) => href.startsWith('/') && !href.startsWith('//');

async function fill(slot: HTMLElement): Promise<void> {
  const href = slot.getAttribute(LATER_ATTR) ?? '';
  if (!ownPath(href)) return;
  slot.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const part = page.querySelector(`[${PART_ATTR}]`);
    if (!part) throw new Error('no part in the answer');
    // The part may use rules the page's own styles do not have (server/web/criticalCss.ts).
    await wholeStylesheet();
    placePart(slot, part);
  } catch (error) {
    // The slot's link still leads to the same rows.
    slot.removeAttribute('aria-busy');
    console.warn(`Part ${href} not loaded:`, error);
  }
}

/**
 * Fills the later parts of the page one after another (the islands loader calls it once the page
 * has painted), a part's own slot (the next part of the same list) included: each part's work is a
 * task or two of its own rather than one long one.
 */
export async function fillLaterParts(root: ParentNode = document): Promise<void> {
  const tried = new Set<Element>();
  for (;;) {
    const slot = [...root.querySelectorAll<HTMLElement>(`[${LATER_ATTR}]`)].find((s) => !tried.has(s));
    if (!slot) return;
    tried.add(slot);
    await fill(slot);
  }
}
