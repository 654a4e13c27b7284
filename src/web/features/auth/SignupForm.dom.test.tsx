// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import auth from '../../i18n/locales/en/auth.json';
import common from '../../i18n/locales/en/common.json';
import { I18n, I18nProvider } from '../../i18n';
import { SignupForm } from './AuthForms';

/*
 * The sign-up form in a document: its requests load when the visitor types
 * (./requestsLater.ts), and an address taken between the check as typed and the submit is
 * refused without creating the account, shown as taken under its field. The server is a stub of
 * fetch; e2e/accounts.e2e.ts signs up against the real one.
 */

let sent: string[];
let available: boolean;

beforeEach(() => {
  sent = [];
  available = true;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const path = new URL(String(input instanceof Request ? input.url : input), 'http://shop.test').pathname;
    sent.push(path);
    if (path === '/api/auth-extra/email-available') return Response.json({ available });
    if (path === '/api/me') return Response.json({ user: null });
    return Response.json({ token: 't', user: { id: 'u1' } });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sign-up form', () => {
  it('refuses an address taken since it was checked, sends no sign-up, and shows it as taken', async () => {
    const done = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <I18nProvider i18n={new I18n('en', { en: { auth, common } })}>
            <SignupForm onDone={done} />
          </I18nProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByLabelText(auth.fields.fullName), { target: { value: 'Ayla Məmmədova' } });
    fireEvent.change(screen.getByLabelText(auth.fields.email), { target: { value: 'ayla@example.az' } });
    fireEvent.change(screen.getByLabelText(auth.fields.password, { selector: 'input' }), { target: { value: 'Kx9#mQ2v!Lp7zR' } });
    const state = () => screen.getByTestId('email-state').getAttribute('data-state');
    await waitFor(() => expect(state()).toBe('available'));

    available = false;
    fireEvent.click(screen.getByRole('button', { name: auth.signup.submit }));
    await waitFor(() => expect(state()).toBe('taken'));
    expect(screen.getByTestId('email-state').textContent).toBe(common.errors.EMAIL_TAKEN);
    expect(sent).not.toContain('/api/auth/sign-up/email');
    expect(done).not.toHaveBeenCalled();
  });
});
