// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Dialog, Sheet } from './Dialog';

/*
 * The modal layer in a document: what a keyboard and a screen reader meet. The journeys
 * (e2e/accounts.e2e.ts, e2e/payments.e2e.ts, e2e/early-input.e2e.ts) open the real dialogs in
 * Chromium.
 */

afterEach(cleanup);

function Page({ nested = false, sheet = false }: { nested?: boolean; sheet?: boolean }) {
  const [open, setOpen] = useState(false);
  const [inner, setInner] = useState(false);
  const Frame = sheet ? Sheet : Dialog;
  return (
    <>
      <a href="/elsewhere">Elsewhere</a>
      <button type="button" onClick={() => setOpen(true)}>
        Top up
      </button>
      <Frame open={open} onOpenChange={setOpen} title="Top up your balance" description="Pay by card" closeLabel="Close">
        <a href="/terms">Terms</a>
        <input aria-label="Amount" />
        <button type="button" disabled>
          Never
        </button>
        <button type="button" onClick={() => setInner(true)}>
          {nested ? 'Details' : 'Pay'}
        </button>
        {nested ? (
          <Dialog open={inner} onOpenChange={setInner} title="Details" closeLabel="Close the details">
            <button type="button">Fine</button>
          </Dialog>
        ) : null}
      </Frame>
    </>
  );
}

const opener = () => screen.getByRole('button', { name: 'Top up' });
function openDialog() {
  opener().focus();
  fireEvent.click(opener());
  return screen.getByRole('dialog', { name: 'Top up your balance' });
}
const tab = (shift = false) => fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: shift });

describe('the modal dialog', () => {
  it('is named by its title, described by its description, and absent until opened', () => {
    render(<Page />);
    expect(screen.queryByRole('dialog')).toBeNull();
    const dialog = openDialog();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe('Pay by card');
    // A layer of its own at the end of the body, not inside the page's tree.
    expect(dialog.parentElement?.parentElement).toBe(document.body);
  });

  it('takes the focus to its first control that is not a link, keeps Tab inside, and gives it back on Escape', () => {
    render(<Page />);
    const dialog = openDialog();
    const close = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(close);
    // Forward from the last control comes back to the first; backward from the first goes to the last.
    const pay = screen.getByRole('button', { name: 'Pay' });
    pay.focus();
    tab();
    expect(document.activeElement).toBe(close);
    tab(true);
    expect(document.activeElement).toBe(pay);
    // The focus sent outside comes back in.
    act(() => screen.getByRole('link', { name: 'Elsewhere', hidden: true }).focus());
    expect(dialog.contains(document.activeElement)).toBe(true);

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener());
  });

  it('leaves Escape to a control inside that used it', () => {
    render(<Page />);
    openDialog();
    const amount = screen.getByRole('textbox', { name: 'Amount' });
    amount.addEventListener('keydown', (e) => e.key === 'Escape' && e.preventDefault());
    fireEvent.keyDown(amount, { key: 'Escape' });
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('closes on its close button and on a press outside it, not on a press inside', () => {
    render(<Page sheet />);
    openDialog();
    fireEvent.click(screen.getByRole('textbox', { name: 'Amount' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.click(screen.getByTestId('dialog-overlay'));
    expect(screen.queryByRole('dialog')).toBeNull();
    openDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener());
  });

  it('hides the page from screen readers and stops its scroll while open, and puts both back', () => {
    const { container } = render(<Page />);
    document.body.style.paddingRight = '3px';
    const page = container;
    openDialog();
    expect(page.getAttribute('aria-hidden')).toBe('true');
    expect(document.documentElement.style.overflow).toBe('hidden');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(page.hasAttribute('aria-hidden')).toBe(false);
    expect(document.documentElement.style.overflow).toBe('');
    expect(document.body.style.paddingRight).toBe('3px');
    document.body.style.paddingRight = '';
  });

  it('nests: Escape closes the dialog on top only, and the page comes back when the last closes', () => {
    const { container } = render(<Page nested />);
    openDialog();
    screen.getByRole('button', { name: 'Details' }).focus();
    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    const inner = screen.getByRole('dialog', { name: 'Details' });
    const outer = screen.getByRole('dialog', { name: 'Top up your balance', hidden: true });
    // The first dialog's layer is hidden while the second is open.
    expect(outer.parentElement!.getAttribute('aria-hidden')).toBe('true');
    expect(inner.contains(document.activeElement)).toBe(true);

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Details' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Top up your balance' }).parentElement!.hasAttribute('aria-hidden')).toBe(false);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Details' }));
    expect(container.getAttribute('aria-hidden')).toBe('true');
    expect(document.documentElement.style.overflow).toBe('hidden');

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(container.hasAttribute('aria-hidden')).toBe(false);
    expect(document.documentElement.style.overflow).toBe('');
  });
});
