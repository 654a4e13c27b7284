import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { Dialog } from '../../components/ui/Dialog';
import { Spinner } from '../../components/ui/Spinner';
import { notifyError } from './format';

/** The admin pages' dialogs: a form to create or edit, and a question before an action. */

/** Asks before a destructive or money-moving action. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  pending,
  danger,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  danger?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description} closeLabel={t('common.close')}>
      {children}
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          {t('common.cancel')}
        </Button>
        <Button onClick={onConfirm} disabled={pending} aria-busy={pending} className={danger ? 'bg-rose-600 hover:bg-rose-700' : undefined}>
          {pending ? <Spinner className="size-4 border-2 border-white/40 border-t-white" /> : null}
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}

/**
 * Asks before removing `item` (open while there is one), then runs `remove` with its
 * `variables`: `onDone` tells of the success, a notice titled by `failedKey` of a refusal, and the
 * dialog closes either way.
 */
export function DeleteDialog<T, V>({
  item,
  onClose,
  remove,
  variables,
  title,
  description,
  confirmLabel,
  onDone,
  failedKey,
}: {
  item: T | null;
  onClose: () => void;
  remove: UseMutationResult<unknown, Error, V>;
  variables: (item: T) => V;
  title: string;
  description: (item: T) => string;
  /** The button's text; "Delete" unless given. */
  confirmLabel?: string;
  onDone: (item: T) => void;
  failedKey: string;
}) {
  const { t } = useTranslation('admin');
  const confirm = () => {
    if (!item) return;
    remove.mutate(variables(item), {
      onSuccess: () => onDone(item),
      onError: (err) => notifyError(t, failedKey, err),
      onSettled: () => onClose(),
    });
  };
  return (
    <ConfirmDialog
      open={!!item}
      onOpenChange={(o) => !o && onClose()}
      title={title}
      description={item ? description(item) : undefined}
      confirmLabel={confirmLabel ?? t('common.delete')}
      onConfirm={confirm}
      pending={remove.isPending}
      danger
    />
  );
}

/**
 * A form in a dialog with Cancel and submit buttons. `onSubmit` runs instead of the browser's
 * submission (the form checks its fields itself); the submit button waits while `pending`.
 */
export function FormDialog({
  title,
  description,
  onClose,
  onSubmit,
  pending,
  submitLabel,
  className,
  formClassName = 'space-y-5',
  footerClassName,
  children,
}: {
  title: string;
  description?: string;
  onClose: () => void;
  onSubmit: () => void;
  pending: boolean;
  /** The submit button's text; "Save" unless given. */
  submitLabel?: string;
  /** Classes of the dialog, of the form and of the buttons' row. */
  className?: string;
  formClassName?: string;
  footerClassName?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={title} description={description} closeLabel={t('common.close')} className={className}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
        noValidate
        className={formClassName}
      >
        {children}
        <div className={cn('flex justify-end gap-2', footerClassName)}>
          <Button variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {submitLabel ?? t('common.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** A form's message about what keeps it from being saved; nothing when there is none. */
export function FormAlert({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-700">
      {children}
    </p>
  );
}
