import { HYDRATED_ATTR, ISLAND_ATTR, WAKING_ATTR } from './attrs';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
/** What the page's first script (./capture.ts) held: a click, a submit, or a key with what it was. */
type Held = { type: 'click' | 'submit'; target: Element } | { type: 'keydown'; target: Element; key: string; code: string; shiftKey: boolean };
declare global {
  interface Window {
    __artimQueue?: Held[];
    __artimWake?: (island: Element) => void;
    /** Islands touched before the islands loader ran (./capture.ts). */
    __artimTouched?: Element[];
  }
}

export interface ControlSnapshot {
  control: Control;
  value: string;
  checked: boolean;
}

const isCheckable = (c: Control): c is HTMLInputElement => c instanceof HTMLInputElement && (c.type === 'checkbox' || c.type === 'radio');

/**
 * What the visitor typed, chose or had autofilled in a part of the page before it hydrated: the
 * form controls whose value differs from the one the server rendered.
 */
export function snapshotControls(root: Element): ControlSnapshot[] {
  const out: ControlSnapshot[] = [];
  root.querySelectorAll<Control>('input, textarea, select').forEach((control) => {
    if (control instanceof HTMLInputElement && ['hidden', 'submit', 'button', 'reset', 'file'].includes(control.type)) return;
    const changed = isCheckable(control)
      ? control.checked !== control.defaultChecked
      : control instanceof HTMLSelectElement
        ? [...control.options].some((o) => o.selected !== o.defaultSelected)
        : control.value !== control.defaultValue;
    if (changed) out.push({ control, value: control.value, checked: isCheckable(control) && control.checked });
  });
  return out;
}

const valueSetter = (control: Control) => Object.getOwnPropertyDescriptor(Object.getPrototypeOf(control), 'value')?.set;

/**
 * Hands the snapshot to the now-live components as if typed: React (and react-hook-form) learn
 * values only from input events, and hydration keeps the text on screen without telling them.
 */
function restoreControls(snapshot: ControlSnapshot[]) {
  for (const { control, value, checked } of snapshot) {
    if (!control.isConnected) continue;
    if (isCheckable(control)) {
      // The click toggles it back to what the visitor chose, and React sees that as a change.
      control.checked = !checked;
      control.click();
      continue;
    }
    // React skips an event whose value it already saw; step through another value first.
    control.value = control.value === '' ? ' ' : '';
    valueSetter(control)?.call(control, value);
    control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  }
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Replays the clicks, submits and keys held while `root` was not live (./capture.ts), oldest
 * first, the first at once and each next in a task of its own: React renders what one changed
 * (a menu opened by Enter) before the next (the arrow that moves into it) is handled, as when the
 * visitor pressed them.
 */
async function replayHeld(root: Element) {
  const queue = window.__artimQueue;
  if (!queue) return;
  const mine = queue.filter((h) => root.contains(h.target));
  if (mine.length === 0) return;
  window.__artimQueue = queue.filter((h) => !mine.includes(h));
  for (const [index, held] of mine.entries()) {
    if (index > 0) await nextTask();
    if (!held.target.isConnected) continue;
    if (held.type === 'submit' && held.target instanceof HTMLFormElement) held.target.requestSubmit();
    else if (held.type === 'keydown') {
      // To the element that had the focus then, which still has it unless the visitor moved on.
      const { key, code, shiftKey } = held;
      held.target.dispatchEvent(new KeyboardEvent('keydown', { key, code, shiftKey, bubbles: true, cancelable: true }));
    } else {
      // A click on an icon inside a button is the button's click.
      const target = held.target.closest('button, [role="button"]') ?? held.target;
      if (target instanceof HTMLElement) target.click();
      else target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    }
  }
}

const marking = new WeakMap<Element, Promise<void>>();

/**
 * `root` is live: in one task after React's commit, give its components what was typed, mark it
 * (and the islands inside it) hydrated and replay what was clicked — in that order, so a held
 * submit sends the typed values. Until that task the page's first script (./capture.ts) still
 * answers for it: a click meanwhile is held and replayed with the others, and an Escape closes
 * what an early toggle opened and drops the click that opened it. Marked at the commit instead, an
 * Escape before the replay would reach components still showing their first state, and the
 * replayed click would open the menu after it. Resolves once the replay is done.
 */
export function markHydrated(root: Element, snapshot: ControlSnapshot[]): Promise<void> {
  const pending = marking.get(root);
  if (pending) return pending;
  if (root.hasAttribute(HYDRATED_ATTR)) return Promise.resolve();
  const done = new Promise<void>((resolve) => {
    // In a task of its own, not inside React's commit: each replayed event is then handled, and its
    // updates rendered, before the next — as when the visitor typed.
    setTimeout(() => {
      restoreControls(snapshot);
      // Marked before the replay, in the same task: the replayed clicks reach React, not the
      // page's first script, and no event of the visitor's comes before the first of them.
      root.setAttribute(HYDRATED_ATTR, '');
      root.querySelectorAll(`[${ISLAND_ATTR}]`).forEach((el) => el.setAttribute(HYDRATED_ATTR, ''));
      void replayHeld(root).then(() => {
        // No longer busy: what it held has been replayed (./capture.ts marked it).
        for (const el of [root, ...root.querySelectorAll(`[${ISLAND_ATTR}][aria-busy="true"]`)]) if (el.getAttribute('aria-busy') === 'true') el.removeAttribute('aria-busy');
        if (!document.querySelector(`[${ISLAND_ATTR}][aria-busy="true"]`)) document.documentElement.removeAttribute(WAKING_ATTR);
        resolve();
      });
    }, 0);
  });
  marking.set(root, done);
  return done;
}
