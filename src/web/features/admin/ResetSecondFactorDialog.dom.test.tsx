// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import admin from '../../i18n/locales/az/admin.json';
import common from '../../i18n/locales/az/common.json';
import { I18n, I18nProvider } from '../../i18n';
import { ResetSecondFactorDialog } from './SignInsDialog';

/*
 * The team's dialog that removes another account's lost second factor, in a document, in
 * Azerbaijani: a reason is asked first, and what is sent. The server is a stub of fetch;
 * src/server/auth/twoFactor.test.ts runs the route itself.
 */

let sent: { path: string; body: unknown }[];

beforeEach(() => {
  sent = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input instanceof Request ? input.url : input), 'http://shop.test').pathname;
    const body = input instanceof Request ? await input.text() : init?.body;
    sent.push({ path, body: body ? JSON.parse(String(body)) : undefined });
    return Response.json({ ok: true, mailSent: true });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('removing a lost second factor', () => {
  it('says what follows, sends nothing without a reason, then sends the reason trimmed and closes', async () => {
    const onClose = vi.fn();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nProvider i18n={new I18n('az', { az: { common, admin } })}>
          <ResetSecondFactorDialog user={{ id: 'u-7', email: 'nermin@example.com' }} onClose={onClose} />
        </I18nProvider>
      </QueryClientProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: admin.users.resetTwoFactorTitle });
    expect(dialog.textContent).toContain(admin.users.resetTwoFactorText.replace('{{email}}', 'nermin@example.com'));

    const submit = screen.getByRole('button', { name: admin.users.resetTwoFactor });
    fireEvent.change(screen.getByRole('textbox', { name: admin.users.reason }), { target: { value: '   ' } });
    fireEvent.click(submit);
    expect(await screen.findByText(admin.users.resetReasonRequired)).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(screen.getByRole('textbox', { name: admin.users.reason }), { target: { value: '  Telefon itib, video zənglə yoxlanıldı ' } });
    fireEvent.click(submit);
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(sent).toEqual([{ path: '/api/admin/users/u-7/second-factor/reset', body: { reason: 'Telefon itib, video zənglə yoxlanıldı' } }]);
  });
});
