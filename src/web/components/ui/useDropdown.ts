import { useEffect, useId, useRef, useState } from 'react';

/**
 * The state of a button that opens a list below it: whether it is open, the ids and elements its
 * markup needs, and closing on a press anywhere outside it. Keys stay with the caller (a menu and
 * a disclosure move through their entries differently).
 */
export function useDropdown() {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  /** Closes the list and gives focus back to its button (Escape). */
  const closeToButton = () => {
    setOpen(false);
    button.current?.focus();
  };

  return { open, setOpen, id, root, button, closeToButton };
}
