// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import auth from '../../i18n/locales/az/auth.json';
import common from '../../i18n/locales/az/common.json';
import { I18n, I18nProvider } from '../../i18n';
import { CodeStep } from './CodeStep';

/*
 * The sign-in's code step in a document, in Azerbaijani: which code it sends where, and what a
 * refusal does. The server is a stub of fetch; e2e/two-factor.e2e.ts signs in against the real one.
 */

let sent: { path: string; body: unknown }[];
let answer: () => Response;

beforeEach(() => {
  sent = [];
  answer = () => Response.json({ token: 't', user: { id: 'u1' } });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input instanceof Request ? input.url : input), 'http://shop.test').pathname;
    const body = input instanceof Request ? await input.text() : init?.body;
    sent.push({ path, body: body ? JSON.parse(String(body)) : undefined });
    return answer();
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show() {
  const signedIn = vi.fn(async () => {});
  const restart = vi.fn();
  render(
    <I18nProvider i18n={new I18n('az', { az: { auth, common } })}>
      <CodeStep onSignedIn={signedIn} onRestart={restart} />
    </I18nProvider>,
  );
  return { signedIn, restart };
}

const submit = () => screen.getByRole('button', { name: auth.twoFactor.verify });

describe('the sign-in code step', () => {
  it('sends six digits from the app, spaces dropped, only once they are six digits', async () => {
    const { signedIn } = show();
    const field = screen.getByLabelText(auth.twoFactor.codeLabel);
    fireEvent.change(field, { target: { value: '12 34' } });
    expect((submit() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(field, { target: { value: '123 456' } });
    fireEvent.click(submit());
    await waitFor(() => expect(signedIn).toHaveBeenCalledOnce());
    expect(sent).toEqual([{ path: '/api/auth/two-factor/verify-totp', body: { code: '123456' } }]);
  });

  it('takes a recovery code instead when asked', async () => {
    const { signedIn } = show();
    fireEvent.click(screen.getByRole('button', { name: auth.twoFactor.useRecovery }));
    fireEvent.change(screen.getByLabelText(auth.twoFactor.recoveryLabel), { target: { value: ' abcde-12345 ' } });
    fireEvent.click(submit());
    await waitFor(() => expect(signedIn).toHaveBeenCalledOnce());
    expect(sent).toEqual([{ path: '/api/auth/two-factor/verify-backup-code', body: { code: 'abcde-12345' } }]);
  });

  it('a wrong code keeps the step; an ended step goes back to the password', async () => {
    const { signedIn, restart } = show();
    const field = screen.getByLabelText(auth.twoFactor.codeLabel);
    answer = () => Response.json({ error: { code: 'TWO_FACTOR_CODE_INVALID', message: 'no' } }, { status: 422 });
    fireEvent.change(field, { target: { value: '111111' } });
    fireEvent.click(submit());
    await waitFor(() => expect(sent).toHaveLength(1));
    await waitFor(() => expect((field as HTMLInputElement).value).toBe(''));
    expect(restart).not.toHaveBeenCalled();

    answer = () => Response.json({ error: { code: 'TWO_FACTOR_EXPIRED', message: 'again' } }, { status: 400 });
    fireEvent.change(field, { target: { value: '222222' } });
    fireEvent.click(submit());
    await waitFor(() => expect(restart).toHaveBeenCalledOnce());
    expect(signedIn).not.toHaveBeenCalled();
  });
});
