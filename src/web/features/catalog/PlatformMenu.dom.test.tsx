// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import common from '../../i18n/locales/en/common.json';
import { I18n, I18nProvider } from '../../i18n';
import { PlatformMenu } from './PlatformMenu';

/*
 * The header's platform menu asks for its list out of the page's load: when the browser is first
 * idle, or when the menu is opened before that. The server is a stub of fetch; the journeys
 * (e2e/catalogue.e2e.ts) open the menu against the real one.
 */

let asked: number;
let idle: (() => void)[];

beforeEach(() => {
  asked = 0;
  idle = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://shop.test').pathname;
    if (path === '/api/catalog/platforms') {
      asked++;
      return Response.json({ platforms: ['instagram', 'tiktok'] });
    }
    return Response.json({ error: { code: 'NOT_FOUND', message: 'x' } }, { status: 404 });
  });
  // The browser's idle moments come when the test says.
  vi.stubGlobal('requestIdleCallback', (then: () => void) => idle.push(then));
  vi.stubGlobal('cancelIdleCallback', () => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderMenu() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={new I18n('en', { en: { common } })}>
        <MemoryRouter initialEntries={['/en']}>
          <PlatformMenu />
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );
}

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

describe("the header's platform menu", () => {
  it('asks for the platforms only once the browser is idle', async () => {
    renderMenu();
    await settle();
    expect(asked).toBe(0);
    await act(async () => idle.forEach((then) => then()));
    await settle();
    expect(asked).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: common.platformMenu.label }));
    expect(await screen.findByRole('menuitem', { name: 'Instagram' })).toBeTruthy();
    expect(asked).toBe(1);
  });

  it('asks at once when it is opened before that', async () => {
    renderMenu();
    await settle();
    expect(asked).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: common.platformMenu.label }));
    expect(await screen.findByRole('menuitem', { name: 'TikTok' })).toBeTruthy();
    expect(asked).toBe(1);
  });
});
