import { X } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useModalOpen } from '../../lib/openModals';
import { cn } from './cn';
import { isTopLayer, openLayer, tabbables } from './modalLayer';

/**
 * Modal dialog and bottom sheet (docs/decisions/0031): in a layer of its own at the end of the
 * body, labelled by its title and described by its description; the focus moves in, Tab and
 * Shift+Tab stay inside, Escape or a press outside closes it, and the focus goes back where it
 * was; the page behind neither scrolls nor is read by screen readers while it is open.
 */
export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** Accessible name of the close button. */
  closeLabel: string;
  children: ReactNode;
  className?: string;
}

const overlay = 'fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-sm';

const SHAPES = {
  dialog:
    'fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl outline-none',
  sheet: 'fixed inset-x-0 bottom-0 z-50 h-[95vh] overflow-y-auto rounded-t-3xl bg-white p-6 shadow-xl outline-none',
};

function Modal({ shape, open, ...props }: DialogProps & { shape: keyof typeof SHAPES }) {
  useModalOpen(open);
  // Nothing on the server, nor while closed. A dialog open from its first render draws its layer
  // right after it has mounted (before the first paint), once the code around it has set up.
  const [mounted, setMounted] = useState(false);
  useLayoutEffect(() => setMounted(true), []);
  if (!open || !mounted) return null;
  return createPortal(<Layer shape={shape} {...props} />, document.body);
}

function Layer({ shape, onOpenChange, title, description, closeLabel, children, className }: Omit<DialogProps, 'open'> & { shape: keyof typeof SHAPES }) {
  const layer = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const close = useRef(onOpenChange);
  close.current = onOpenChange;

  // Before the first paint: the page behind is locked and hidden, the focus moves in (to what the
  // dialog's own code focused, else its first control that is not a link, else the dialog).
  useLayoutEffect(() => {
    const node = content.current!;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const closeLayer = openLayer(layer.current!, node);
    if (!node.contains(document.activeElement)) (tabbables(node).find((el) => el.tagName !== 'A') ?? node).focus({ preventScroll: true });
    return () => {
      closeLayer();
      if (before?.isConnected) before.focus({ preventScroll: true });
    };
  }, []);

  // Escape closes the dialog on top, unless a control inside used it (a list it closed).
  // The focus never stays outside the dialog on top.
  useEffect(() => {
    const node = content.current!;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || !isTopLayer(node)) return;
      e.preventDefault();
      close.current(false);
    };
    const onFocus = (e: FocusEvent) => {
      if (!isTopLayer(node) || node.contains(e.target as Node)) return;
      (tabbables(node)[0] ?? node).focus({ preventScroll: true });
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocus);
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // A dialog opened from this one is a child in React's tree: its keys are its own.
    if (e.key !== 'Tab' || !content.current!.contains(e.target as Node)) return;
    const list = tabbables(content.current!);
    const first = list[0];
    const last = list[list.length - 1];
    if (!first || !last) {
      e.preventDefault();
      return;
    }
    if (e.shiftKey && (document.activeElement === first || document.activeElement === content.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <div ref={layer}>
      <div className={overlay} aria-hidden="true" data-testid="dialog-overlay" onClick={() => close.current(false)} />
      <div
        ref={content}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cn(SHAPES[shape], className)}
        onKeyDown={onKeyDown}
      >
        {shape === 'sheet' ? <div aria-hidden="true" className="mx-auto mb-4 h-1.5 w-12 rounded-full bg-slate-200" /> : null}
        <div className="mb-4 flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="text-lg font-bold text-slate-900">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="mt-1 text-sm text-slate-600">
                {description}
              </p>
            ) : null}
          </div>
          <button type="button" className="rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900" aria-label={closeLabel} onClick={() => close.current(false)}>
            <X className="size-5" aria-hidden="true" />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

export const Dialog = (props: DialogProps) => <Modal shape="dialog" {...props} />;

/** The same dialog as a sheet rising from the bottom of the screen (95% high on phones; docs/rules.md#screens). */
export const Sheet = (props: DialogProps) => <Modal shape="sheet" {...props} />;
