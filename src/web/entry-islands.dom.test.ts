// @vitest-environment happy-dom
import { beforeAll, describe, expect, it, vi } from 'vitest';
const LANGUAGE_STORAGE_KEY = 'artim.language';

/*
 * The public pages' loader: which islands wake by themselves (once the page has loaded and the
 * browser is idle, their code fetched from the first paint on), which wait to be touched (docs/decisions/0027) and which wait to be asked
 * (islands/ask.ts). The registry and the runtime are stand-ins that note what was loaded and mark
 * an island live as the runtime would, once `release` lets them.
 */

const { loaded, gate } = vi.hoisted(() => ({ loaded: [] as string[], gate: { open: Promise.resolve() } }));
vi.mock('./islands/registry', () => ({
  ISLANDS: Object.fromEntries(
    ['Header', 'Track', 'ContactForm', 'PaymentSuccess', 'ConsultationHost', 'Notifications'].map((name) => [
      name,
      async () => {
        loaded.push(name);
        return () => null;
      },
    ]),
  ),
}));
vi.mock('./islands/runtime', () => ({
  hydrateIsland: async (el: HTMLElement) => {
    await gate.open;
    el.setAttribute('data-hydrated', '');
  },
}));

let idle: (() => void)[] = [];

beforeAll(async () => {
  vi.stubGlobal('requestIdleCallback', (then: () => void) => idle.push(then));
  window.history.replaceState(null, '', '/en?verified=true&order=A1B2C3');
  document.body.innerHTML = `
    <div data-island="Header" data-island-wake="touched" data-island-wake-query="auth verified" class="contents"><header><button type="button">Menu</button></header></div>
    <div data-island="Track" data-island-wake="touched" class="contents"><form><button type="submit">Search</button></form></div>
    <div data-island="ContactForm" data-island-wake="touched" class="contents"><form><input name="name"></form></div>
    <div data-island="PaymentSuccess" class="contents"><p>Checking</p></div>
    <div data-island="ConsultationHost" data-island-wake="asked" class="contents"></div>
    <div data-island="Notifications" data-island-wake="asked" class="contents"></div>
    <script type="application/json" id="artim-boot">{"lang":"en","resources":{"en":{}},"me":null,"site":{}}</script>`;
  await import('./entry-islands');
});

const island = (name: string) => document.querySelector(`[data-island="${name}"]`)!;
const live = () => document.documentElement.dataset.hydrated;

describe('the islands loader', () => {
  it('remembers the language of a page in a language before any island wakes', () => {
    expect(document.querySelectorAll('[data-hydrated]')).toHaveLength(0);
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
  });

  it('fetches the code of the islands that will wake by themselves once the page is painted (at once here: happy-dom reports no paint), and hydrates none before load', () => {
    // The header for `verified`; the lookup, which names no parameter, not for `order`.
    expect(loaded).toEqual(['Header', 'PaymentSuccess']);
    expect(document.querySelectorAll('[data-hydrated]')).toHaveLength(0);
    expect(live()).toBeUndefined();
  });

  it('wakes at idle after load the islands that wake by themselves and the touched ones whose parameters the address has, and calls the page live without the others', async () => {
    expect(live()).toBeUndefined();
    window.dispatchEvent(new Event('load'));
    const then = idle;
    idle = [];
    then.forEach((f) => f());
    await vi.waitFor(() => expect(live()).toBe('true'));
    // Their code, fetched once.
    expect(loaded).toEqual(['Header', 'PaymentSuccess']);
    for (const name of ['Header', 'PaymentSuccess']) expect(island(name).hasAttribute('data-hydrated'), name).toBe(true);
    for (const name of ['Track', 'ContactForm', 'ConsultationHost', 'Notifications']) expect(island(name).hasAttribute('data-hydrated'), name).toBe(false);
  });

  it('wakes a touched island at its first touch, and the page is not called live until it is', async () => {
    let release = () => {};
    gate.open = new Promise<void>((resolve) => (release = resolve));
    window.__artimWake!(island('Track').querySelector('button')!);
    expect(loaded).toEqual(['Header', 'PaymentSuccess', 'Track']);
    expect(live()).toBeUndefined();
    release();
    await vi.waitFor(() => expect(live()).toBe('true'));
    expect(island('Track').hasAttribute('data-hydrated')).toBe(true);
    expect(island('ContactForm').hasAttribute('data-hydrated')).toBe(false);
    // A second touch loads nothing more.
    window.__artimWake!(island('Track').querySelector('button')!);
    expect(loaded).toEqual(['Header', 'PaymentSuccess', 'Track']);
  });

  it('wakes an asked island when the page asks for it by name, and only that one', async () => {
    const { askIsland } = await import('./islands/ask');
    askIsland('Notifications');
    await vi.waitFor(() => expect(island('Notifications').hasAttribute('data-hydrated')).toBe(true));
    expect(loaded).toEqual(['Header', 'PaymentSuccess', 'Track', 'Notifications']);
    expect(island('ConsultationHost').hasAttribute('data-hydrated')).toBe(false);
    askIsland('Notifications');
    askIsland('Nothing by that name');
    expect(loaded).toEqual(['Header', 'PaymentSuccess', 'Track', 'Notifications']);
  });
});
