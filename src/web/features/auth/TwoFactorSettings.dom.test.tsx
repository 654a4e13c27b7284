// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { encode } from 'uqr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import auth from '../../i18n/locales/tr/auth.json';
import common from '../../i18n/locales/tr/common.json';
import { I18n, I18nProvider } from '../../i18n';
import { TwoFactorSettings } from './TwoFactorSettings';
import type { Me } from './api';

/*
 * Turning the second factor on, in a document, in Turkish: after the password the set-up shows the
 * authenticator's address as a QR code a phone can scan, and still as a link and a key for those
 * who cannot. The server is a stub of fetch; e2e/two-factor.e2e.ts turns it on against the real one.
 */

const URI = 'otpauth://totp/Art%C4%B1m:leyla%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Art%C4%B1m&digits=6&period=30';

let sent: { path: string; body: unknown }[];

beforeEach(() => {
  sent = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input instanceof Request ? input.url : input), 'http://shop.test').pathname;
    const body = input instanceof Request ? await input.text() : init?.body;
    sent.push({ path, body: body ? JSON.parse(String(body)) : undefined });
    return Response.json({ totpURI: URI, backupCodes: Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`) });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me: Me = { id: 'u1', email: 'leyla@example.com', fullName: 'Leyla', roles: ['user'], balanceMicros: 0, twoFactorEnabled: false, twoFactorRequired: false, discount: null };

/** The modules a path of `M x y h n v1 h-n z` rectangles paints, on a grid of `side` modules. */
function paintedGrid(d: string, side: number): boolean[][] {
  const grid = Array.from({ length: side }, () => Array<boolean>(side).fill(false));
  const commands = [...d.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)];
  expect(commands.map((m) => m[0]).join('')).toBe(d);
  for (const [, x, y, run, back] of commands) {
    expect(back).toBe(run);
    for (let i = 0; i < Number(run); i++) grid[Number(y)]![Number(x) + i] = true;
  }
  return grid;
}

describe('turning the second factor on', () => {
  it('after the password, shows the authenticator’s address as a QR code with its name for screen readers, beside the link and the key', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nProvider i18n={new I18n('tr', { tr: { auth, common } })}>
          <TwoFactorSettings me={me} />
        </I18nProvider>
      </QueryClientProvider>,
    );
    expect(screen.queryByRole('img', { name: auth.twoFactor.qrLabel })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: auth.twoFactor.enable }));
    fireEvent.change(screen.getByLabelText(auth.twoFactor.passwordPrompt), { target: { value: 'Str0ng-pass!' } });
    fireEvent.click(screen.getByRole('button', { name: auth.twoFactor.continue }));

    const qr = await screen.findByRole('img', { name: auth.twoFactor.qrLabel });
    expect(sent).toEqual([{ path: '/api/auth/two-factor/enable', body: { password: 'Str0ng-pass!' } }]);
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.getAttribute('shape-rendering')).toBe('crispEdges');

    // The code of exactly this address, at error correction M, inside a margin of four light modules.
    const { size, data } = encode(URI, { ecc: 'M', border: 0 });
    const side = size + 8;
    expect(qr.getAttribute('viewBox')).toBe(`0 0 ${side} ${side}`);
    const painted = paintedGrid(qr.querySelector('path')!.getAttribute('d')!, side);
    const expected = Array.from({ length: side }, (_, y) => Array.from({ length: side }, (_, x) => data[y - 4]?.[x - 4] === true));
    expect(painted).toEqual(expected);
    expect(painted.flat().filter(Boolean).length).toBe(data.flat().filter(Boolean).length);
    // The margin is light: a white square under the dark modules.
    expect(qr.querySelector('rect')?.getAttribute('fill')).toBe('#fff');

    // Those who cannot scan still have the link and the key.
    expect(screen.getByRole('link', { name: auth.twoFactor.openInApp }).getAttribute('href')).toBe(URI);
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    await waitFor(() => expect(screen.getByLabelText(auth.twoFactor.codeLabel)).toBeTruthy());
  });
});
