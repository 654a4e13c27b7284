// @vitest-environment happy-dom
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAPTURE_SCRIPT } from './capture';
import { markHydrated } from './replay';

/*
 * The page's first script on a page whose header has not hydrated: a tap on the menu button opens
 * the menu at once and is still held for the island; the journeys (e2e/early-input.e2e.ts) see the
 * replay bring React's state to it.
 */

const w = window as unknown as { __artimQueue: { type: string; target: Element }[]; __artimTouched: Element[] };

beforeAll(() => {
  new Function(CAPTURE_SCRIPT)();
});

beforeEach(() => {
  w.__artimQueue.length = 0;
  w.__artimTouched.length = 0;
  document.body.innerHTML = `
    <div data-island="Header" class="contents">
      <header>
        <button type="button" id="menu" aria-expanded="false" aria-controls="mobile-menu" data-early-toggle><svg><path d="M4 6h16"></path></svg></button>
        <button type="button" id="plain" aria-expanded="false" aria-controls="other">Other</button>
        <div id="mobile-menu" hidden><nav>Links</nav></div>
        <div id="other" hidden>Other list</div>
      </header>
    </div>`;
});

const click = (el: Element) => el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
const menu = () => document.getElementById('mobile-menu')!;
const button = () => document.getElementById('menu')!;

describe('the capture script, before the island is live', () => {
  it('opens what a data-early-toggle button controls at the tap, and holds the click for the replay', () => {
    click(button().querySelector('path')!);
    expect(menu().hidden).toBe(false);
    expect(button().getAttribute('aria-expanded')).toBe('true');
    expect(w.__artimQueue.map((h) => h.type)).toEqual(['click']);
    expect(w.__artimTouched).toEqual([document.querySelector('[data-island]')]);
  });

  it('closes it again on a second tap: two clicks held, the replay ends closed too', () => {
    click(button());
    click(button());
    expect(menu().hidden).toBe(true);
    expect(button().getAttribute('aria-expanded')).toBe('false');
    expect(w.__artimQueue).toHaveLength(2);
  });

  it("leaves an island inside a live one to React: the app's page shown after a navigation, whose islands were never marked", () => {
    document.body.innerHTML = `<div data-island="app" data-hydrated><main><div data-island="Dashboard" class="contents"><button type="button" id="tab">History</button></div></main></div>`;
    let clicks = 0;
    document.getElementById('tab')!.addEventListener('click', () => clicks++);
    click(document.getElementById('tab')!);
    expect(clicks).toBe(1);
    expect(w.__artimQueue).toHaveLength(0);
    expect(w.__artimTouched).toEqual([]);
  });

  it('leaves a button without the mark, and an island already live, to React', () => {
    click(document.getElementById('plain')!);
    expect(document.getElementById('other')!.hidden).toBe(true);
    expect(document.getElementById('plain')!.getAttribute('aria-expanded')).toBe('false');
    expect(w.__artimQueue).toHaveLength(1);

    document.querySelector('[data-island]')!.setAttribute('data-hydrated', '');
    click(button());
    expect(menu().hidden).toBe(true);
    expect(button().getAttribute('aria-expanded')).toBe('false');
    expect(w.__artimQueue).toHaveLength(1);
  });

  it('closes it on Escape and no longer holds the click that opened it, so the replay ends closed', () => {
    click(button());
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(menu().hidden).toBe(true);
    expect(button().getAttribute('aria-expanded')).toBe('false');
    expect(w.__artimQueue).toEqual([]);
  });

  it('shows the page busy while a held click waits, until the island is live', async () => {
    const island = document.querySelector('[data-island]')!;
    document.documentElement.removeAttribute('data-waking');
    document.getElementById('plain')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    // A touch alone wakes the island without a busy mark: nothing waits for it.
    expect(island.getAttribute('aria-busy')).toBeNull();
    click(document.getElementById('plain')!);
    expect(island.getAttribute('aria-busy')).toBe('true');
    expect(document.documentElement.hasAttribute('data-waking')).toBe(true);
    const live = markHydrated(island, []);
    // Still busy until the held click is replayed.
    expect(island.getAttribute('aria-busy')).toBe('true');
    await live;
    expect(island.getAttribute('aria-busy')).toBeNull();
    expect(document.documentElement.hasAttribute('data-waking')).toBe(false);
  });

  it('still answers an Escape that comes after React is live but before the held click is replayed: the menu stays closed', async () => {
    const island = document.querySelector('[data-island]')!;
    // React's handler: the component starts closed, and a click opens what is closed.
    let open = false;
    button().addEventListener('click', () => {
      open = !open;
      menu().hidden = !open;
      button().setAttribute('aria-expanded', String(open));
    });
    click(button());
    expect(menu().hidden).toBe(false);
    const live = markHydrated(island, []);
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await live;
    expect(island.hasAttribute('data-hydrated')).toBe(true);
    expect(open).toBe(false);
    expect(menu().hidden).toBe(true);
    expect(button().getAttribute('aria-expanded')).toBe('false');
  });

  it('replays a click held between React going live and the replay, and marks the island once', async () => {
    const island = document.querySelector('[data-island]')!;
    let clicks = 0;
    document.getElementById('plain')!.addEventListener('click', () => clicks++);
    const live = markHydrated(island, []);
    expect(markHydrated(island, [])).toBe(live);
    click(document.getElementById('plain')!);
    expect(clicks).toBe(0);
    await live;
    expect(clicks).toBe(1);
    click(document.getElementById('plain')!);
    expect(clicks).toBe(2);
  });

  it('keeps the keys a menu answers (arrows, Home, End) pressed on a button of an island not yet live, and replays them to it after the clicks held before', async () => {
    const island = document.querySelector('[data-island]')!;
    const plain = document.getElementById('plain')!;
    const key = (target: Element, init: KeyboardEventInit) => target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
    click(plain);
    key(plain, { key: 'ArrowDown', code: 'ArrowDown' });
    key(plain, { key: 'End', shiftKey: true });
    // Not held: Tab and Enter act natively (Enter on a button makes a click, held as one), a key with a modifier is the browser's.
    key(plain, { key: 'Tab' });
    key(plain, { key: 'ArrowUp', ctrlKey: true });
    expect(w.__artimQueue.map((h) => h.type)).toEqual(['click', 'keydown', 'keydown']);
    expect(island.getAttribute('aria-busy')).toBe('true');
    // The component, live now.
    const seen: string[] = [];
    plain.addEventListener('click', () => seen.push('click'));
    plain.addEventListener('keydown', (e) => seen.push(`${e.key}${e.shiftKey ? '+shift' : ''}`));
    await markHydrated(island, []);
    expect(seen).toEqual(['click', 'ArrowDown', 'End+shift']);
    expect(w.__artimQueue).toEqual([]);
  });

  it('leaves the keys typed in a text field to it', () => {
    document.querySelector('header')!.insertAdjacentHTML('beforeend', '<input id="q" /><textarea id="t"></textarea>');
    for (const id of ['q', 't']) document.getElementById(id)!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    expect(w.__artimQueue).toEqual([]);
    expect(w.__artimTouched).toHaveLength(2);
  });

  it('holds clicks in the queue the replay left for the islands not yet live', () => {
    const left: { type: string; target: Element }[] = [];
    w.__artimQueue = left;
    click(button());
    expect(left).toHaveLength(1);
  });
});

describe('the capture script on a page whose islands all wait', () => {
  /** A page of its own (the test's document already runs the script), where no script file loads. */
  async function pageWith(head: string) {
    const { Window } = await import('happy-dom');
    const page = new Window({ url: 'http://localhost/', settings: { disableJavaScriptFileLoading: true, disableJavaScriptEvaluation: false } });
    page.document.write(`<!doctype html><html><head>${head}</head><body><p>Text</p></body></html>`);
    const added: string[] = [];
    new page.MutationObserver((records) => {
      for (const r of records)
        for (const node of r.addedNodes) {
          // happy-dom's own node type: read as the DOM's.
          const el = node as unknown as HTMLScriptElement;
          if (el.tagName === 'SCRIPT') added.push(`${el.type} ${el.getAttribute('src')}`);
        }
    }).observe(page.document.head, { childList: true });
    return { page, added };
  }

  it('adds the loader the page names once the document is read and painted, once', async () => {
    const { page, added } = await pageWith('<meta name="artim-islands" content="/assets/islands-x.js" />');
    page.eval(CAPTURE_SCRIPT);
    // Nothing while the script runs: the loader waits for the frame after the document is read.
    expect(added).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(added).toEqual(['module /assets/islands-x.js']);
    await page.happyDOM.close();
  });

  it('adds nothing to a page that names no loader (its script tag is there already)', async () => {
    const { page, added } = await pageWith('');
    page.eval(CAPTURE_SCRIPT);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(added).toEqual([]);
    await page.happyDOM.close();
  });
});
