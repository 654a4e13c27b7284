import { Dialog as RadixDialog } from 'radix-ui';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useModalOpen } from '../../lib/openModals';
import { cn } from './cn';

/**
 * Modal dialog and bottom sheet on Radix (focus trap, Escape, labelled by its title). Radix is
 * sizeable: import this module only from code that is itself loaded on demand, never from the
 * public pages' initial chunks.
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
    'fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl',
  sheet: 'fixed inset-x-0 bottom-0 z-50 h-[95vh] overflow-y-auto rounded-t-3xl bg-white p-6 shadow-xl',
};

function Modal({ shape, open, onOpenChange, title, description, closeLabel, children, className }: DialogProps & { shape: keyof typeof SHAPES }) {
  useModalOpen(open);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlay} />
        <RadixDialog.Content className={cn(SHAPES[shape], className)} {...(description ? {} : { 'aria-describedby': undefined })}>
          {shape === 'sheet' ? <div aria-hidden="true" className="mx-auto mb-4 h-1.5 w-12 rounded-full bg-slate-200" /> : null}
          <Header title={title} description={description} closeLabel={closeLabel} />
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export const Dialog = (props: DialogProps) => <Modal shape="dialog" {...props} />;

/** The same dialog as a sheet rising from the bottom of the screen (95% high on phones; docs/rules.md#screens). */
export const Sheet = (props: DialogProps) => <Modal shape="sheet" {...props} />;

function Header({ title, description, closeLabel }: Pick<DialogProps, 'title' | 'description' | 'closeLabel'>) {
  return (
    <div className="mb-4 flex items-start justify-between gap-4">
      <div>
        <RadixDialog.Title className="text-lg font-bold text-slate-900">{title}</RadixDialog.Title>
        {description ? <RadixDialog.Description className="mt-1 text-sm text-slate-600">{description}</RadixDialog.Description> : null}
      </div>
      <RadixDialog.Close className="rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900" aria-label={closeLabel}>
        <X className="size-5" aria-hidden="true" />
      </RadixDialog.Close>
    </div>
  );
}
