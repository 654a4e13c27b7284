import { useEffect, useSyncExternalStore } from 'react';

/**
 * How many modal dialogs are open. The notification area moves to the bottom while one is, so a
 * notification never covers a dialog's title, its close button or its first fields.
 */
let count = 0;
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const change = (delta: number) => {
  count += delta;
  for (const l of listeners) l();
};

/** Counts a dialog as open while `open` is true (call it in every modal dialog component). */
export function useModalOpen(open: boolean): void {
  useEffect(() => {
    if (!open) return;
    change(1);
    return () => change(-1);
  }, [open]);
}

/** True while at least one modal dialog is open. */
export function useAnyModalOpen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => count > 0,
    () => false,
  );
}
