// @vitest-environment happy-dom
import { beforeAll, describe, expect, it, vi } from 'vitest';

/*
 * The public pages' loader: which islands wake by themselves (once the page has loaded and the
 * browser is idle) and which wait to be asked (islands/ask.ts). The registry and the runtime are
 * stand-ins that note what was loaded and mark an island live as the runtime would.
 */

const loaded: string[] = [];
vi.mock('./islands/registry', () => ({
  ISLANDS: Object.fromEntries(
    ['Header', 'ConsultationHost', 'Notifications'].map((name) => [
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
    el.setAttribute('data-hydrated', '');
  },
}));

let idle: (() => void)[] = [];

beforeAll(async () => {
  vi.stubGlobal('requestIdleCallback', (then: () => void) => idle.push(then));
  document.body.innerHTML = `
    <div data-island="Header" class="contents"><header><button type="button">Menu</button></header></div>
    <main>Page</main>
    <div data-island="ConsultationHost" data-island-wake="asked" class="contents"></div>
    <div data-island="Notifications" data-island-wake="asked" class="contents"></div>`;
  await import('./entry-islands');
});

const island = (name: string) => document.querySelector(`[data-island="${name}"]`)!;

describe('the islands loader', () => {
  it('wakes the islands that wake by themselves when the browser is idle after load, and calls the page live without the asked ones', async () => {
    expect(loaded).toEqual([]);
    window.dispatchEvent(new Event('load'));
    const then = idle;
    idle = [];
    then.forEach((f) => f());
    await vi.waitFor(() => expect(document.documentElement.dataset.hydrated).toBe('true'));
    expect(loaded).toEqual(['Header']);
    expect(island('ConsultationHost').hasAttribute('data-hydrated')).toBe(false);
    expect(island('Notifications').hasAttribute('data-hydrated')).toBe(false);
  });

  it('wakes an asked island when the page asks for it by name, and only that one', async () => {
    const { askIsland } = await import('./islands/ask');
    askIsland('Notifications');
    await vi.waitFor(() => expect(island('Notifications').hasAttribute('data-hydrated')).toBe(true));
    expect(loaded).toEqual(['Header', 'Notifications']);
    expect(island('ConsultationHost').hasAttribute('data-hydrated')).toBe(false);
    askIsland('Notifications');
    askIsland('Nothing by that name');
    expect(loaded).toEqual(['Header', 'Notifications']);
  });
});
