import { AlertTriangle, ChevronLeft, ChevronRight, Inbox, Lock, Pencil, Plus, RefreshCw, Search, Trash2 } from 'lucide-react';
import { useEffect, useId, type ComponentType, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { useTranslation, type TFunction } from '../../i18n';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { Input, Label, Textarea } from '../../components/ui/Input';
import { Spinner } from '../../components/ui/Spinner';
import { useLocation } from 'react-router';
import { pathLanguage } from '../../../core/i18n';
import { ApiError } from '../../lib/api';
import { notifyError } from './format';

/** Building blocks shared by the admin pages, so every page looks and behaves alike. */

/** The admin home, with and without the language prefix: /{lang}/admin or /admin. */
export function useAdminBase(): string {
  const lang = pathLanguage(useLocation().pathname);
  return lang ? `/${lang}/admin` : '/admin';
}

/** The page frame: its single <h1>, a lead line, actions on the right, then the content. */
export function AdminPage({ title, description, actions, children }: { title: string; description?: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </main>
  );
}

/** A white panel for tables and forms. */
export function Panel({ className, children, ...rest }: { className?: string; children: ReactNode } & Record<`data-${string}`, string>) {
  return (
    <section className={cn('rounded-2xl border border-slate-200 bg-white shadow-sm', className)} {...rest}>
      {children}
    </section>
  );
}

export type StatTone = 'brand' | 'emerald' | 'amber' | 'sky' | 'violet' | 'rose';
const statTones: Record<StatTone, string> = {
  brand: 'bg-brand-50 text-brand-600',
  emerald: 'bg-emerald-50 text-emerald-600',
  amber: 'bg-amber-50 text-amber-600',
  sky: 'bg-sky-50 text-sky-600',
  violet: 'bg-violet-50 text-violet-600',
  rose: 'bg-rose-50 text-rose-600',
};

/**
 * One figure with its label and icon. The figure is never broken ("76,50 AZN" stays whole): when it
 * does not fit beside the icon, it goes below it.
 */
export function StatCard({ label, value, icon: Icon, tone = 'brand', testId }: { label: string; value: ReactNode; icon: ComponentType<{ className?: string }>; tone?: StatTone; testId?: string }) {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm" data-testid={testId}>
      <span className={cn('grid size-11 shrink-0 place-items-center rounded-xl', statTones[tone])}>
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-min flex-1 basis-0">
        <p className="text-sm font-medium text-slate-600 [overflow-wrap:break-word]">{label}</p>
        <p className="mt-0.5 whitespace-nowrap text-xl font-bold tracking-tight tabular-nums text-slate-900 sm:text-2xl" data-stat-value>
          {value}
        </p>
      </div>
    </div>
  );
}

/** Loading, failed and empty states of a list, in one place. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <div className="grid place-items-center py-16">
      <Spinner label={t('loading')} className="size-8" />
    </div>
  );
}

/** Whether a request was refused because the signed-in role may not use it (403 FORBIDDEN): trying again would not help. */
export const isForbidden = (err: unknown): boolean => err instanceof ApiError && err.status === 403 && err.code === 'FORBIDDEN';

/** What a role may not use: said as such, with nothing to try again (docs/rules.md#admin); `children`: a way on. */
export function NoAccess({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('admin');
  return (
    <div role="alert" className="flex flex-col items-center gap-3 px-4 py-14 text-center" data-testid="no-access">
      <Lock className="size-8 text-slate-500" aria-hidden="true" />
      <p className="text-sm font-semibold text-slate-900">{t('noAccess.title')}</p>
      <p className="max-w-md text-sm text-slate-600">{t('noAccess.text')}</p>
      {children}
    </div>
  );
}

/**
 * A failed load: its text and a button to try again; refused for want of permission (`error` a
 * 403), the no-access state instead.
 */
export function LoadError({ message, onRetry, error }: { message: string; onRetry: () => void; error?: unknown }) {
  const { t } = useTranslation('admin');
  if (isForbidden(error)) return <NoAccess />;
  return (
    <div role="alert" className="flex flex-col items-center gap-3 px-4 py-14 text-center">
      <AlertTriangle className="size-8 text-rose-500" aria-hidden="true" />
      <p className="text-sm font-medium text-slate-800">{message}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RefreshCw className="size-4" aria-hidden="true" />
        {t('common.retry')}
      </Button>
    </div>
  );
}

export function Empty({ text }: { text: string }) {
  return (
    <div className="flex flex-col items-center gap-2 px-4 py-14 text-center text-sm text-slate-500">
      <Inbox className="size-8 text-slate-300" aria-hidden="true" />
      {text}
    </div>
  );
}

/** What a list query has to show: its failure, a spinner, the empty text, or `children` with the data. */
export function QueryView<T>({
  query,
  error,
  empty,
  isEmpty,
  children,
}: {
  query: { isError: boolean; error?: unknown; data: T | undefined; refetch: () => unknown };
  /** The failure's text, with a button to try again (none when the role may not use it). */
  error: string;
  empty: string;
  isEmpty: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isError && query.data === undefined) return <LoadError message={error} error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data === undefined) return <Loading />;
  if (isEmpty(query.data)) return <Empty text={empty} />;
  return children(query.data);
}

/**
 * A notice each time the query fails to load (the `titleKey` text and the server's reason); none
 * when the role may not use it, which the page says in place of the data.
 */
export function useFailureNotice(query: { isError: boolean; error: unknown }, titleKey: string) {
  const { t } = useTranslation('admin');
  useEffect(() => {
    if (query.isError && !isForbidden(query.error)) notifyError(t, titleKey, query.error);
  }, [query.isError, query.error, t, titleKey]);
}

/** Table cells styled alike across pages; the table scrolls sideways inside its panel on phones. */
const thText = 'px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
const th = `whitespace-nowrap ${thText}`;
export const td = 'px-4 py-3 text-sm text-slate-700 align-middle';

/** A column heading; `wrap` lets a long one take two lines, so that a wide table fits its panel. */
export function Th({ className, wrap, children }: { className?: string; wrap?: boolean; children: ReactNode }) {
  return (
    <th scope="col" className={cn(wrap ? thText : th, className)}>
      {children}
    </th>
  );
}

/** `head` holds the column headings (`Th`), `children` the rows. */
export function TableContent({ head, children }: { head: ReactNode; children: ReactNode }) {
  return (
    <>
      <thead className="bg-slate-50">
        <tr>{head}</tr>
      </thead>
      <tbody className="divide-y divide-slate-100">{children}</tbody>
    </>
  );
}

/** `dense`: narrower cells, for a table of many columns that should fit its panel at 1280 px. */
export function Table({ label, head, children, minWidth = 'min-w-[720px]', dense }: { label: string; head: ReactNode; children: ReactNode; minWidth?: string; dense?: boolean }) {
  return (
    <div className="overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      <table className={cn('w-full divide-y divide-slate-200', minWidth, dense && '[&_td]:px-3 [&_th]:px-3')}>
        <TableContent head={head}>{children}</TableContent>
      </table>
    </div>
  );
}

/** On phones the `cards` (list items), from md up the table in `children`. */
export function CardsOrTable({ cards, children }: { cards: ReactNode; children: ReactNode }) {
  return (
    <>
      <ul className="divide-y divide-slate-100 md:hidden">{cards}</ul>
      <div className="hidden md:block">{children}</div>
    </>
  );
}

/** The button that opens the form for a new item. */
export function NewButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button size="sm" onClick={onClick}>
      <Plus className="size-4" aria-hidden="true" />
      {children}
    </Button>
  );
}

/** A row's last cell: buttons to edit and delete the item called `name`, after any `children`. */
export function EditDeleteCell({ name, onEdit, onDelete, children }: { name: string; onEdit: () => void; onDelete: () => void; children?: ReactNode }) {
  const { t } = useTranslation('admin');
  return (
    <td className={`${td} whitespace-nowrap text-right`}>
      <div className="inline-flex gap-1">
        {children}
        <Button size="sm" variant="ghost" onClick={onEdit} aria-label={t('common.editItem', { name })}>
          <Pencil className="size-4" aria-hidden="true" />
        </Button>
        <Button size="sm" variant="ghost" onClick={onDelete} aria-label={t('common.deleteItem', { name })} className="text-rose-600 hover:bg-rose-50">
          <Trash2 className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </td>
  );
}

/** A search box with its icon and a label for screen readers. */
export function SearchField({
  id,
  label,
  value,
  onChange,
  placeholder,
  className,
  inputClassName = 'h-10 py-2',
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  className?: string;
  inputClassName?: string;
}) {
  return (
    <div className={cn('relative', className)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
      <Input id={id} type="search" value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} className={cn(inputClassName, 'pl-9')} />
    </div>
  );
}

/** A native select with the field look. */
export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        'block h-10 w-full rounded-xl border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0',
        className,
      )}
      {...props}
    />
  );
}

/** The attributes that tie a control to its label, hint and error. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

interface FieldProps {
  label: string;
  error?: string;
  hint?: string;
  className?: string;
}

/** A labelled form control; `children` receives the attributes to spread on the control. */
export function Field({ label, error, hint, children, className }: FieldProps & { children: (control: ControlProps) => ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-rose-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled text input; `className` places the field, `inputClassName` styles the input. */
export function InputField({ label, error, hint, className, inputClassName, ...props }: FieldProps & { inputClassName?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'>) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => <Input {...control} className={inputClassName} {...props} />}
    </Field>
  );
}

/** Why money moves (a balance adjustment, a refund): the ledger note, 3 to 500 characters as the server requires. */
export function ReasonField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const { t } = useTranslation('admin');
  return (
    <Field label={t('users.reason')} error={error}>
      {(control) => <Textarea {...control} value={value} onChange={(e) => onChange(e.target.value)} maxLength={500} required />}
    </Field>
  );
}
export const reasonError = (t: TFunction, reason: string) => (reason.trim().length < 3 ? t('users.reasonRequired') : undefined);

/** A checkbox with its label beside it. */
export function Toggle({ label, checked, onChange, description }: { label: string; checked: boolean; onChange: (v: boolean) => void; description?: string }) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} className="mt-0.5 size-5 rounded border-slate-300 accent-brand-600" />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        {description ? <p className="text-xs text-slate-500">{description}</p> : null}
      </div>
    </div>
  );
}

/** A filter's label above its control, in the filter bars of the orders, payments and audit pages. */
export function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-slate-600">
        {label}
      </label>
      {children}
    </div>
  );
}

/** Previous and next below a paged list, with "page N of M" (shown only when there is more than one page). */
export function Pager({ page, pages, label, onPage }: { page: number; pages: number; label: string; onPage: (page: number) => void }) {
  const { t } = useTranslation('admin');
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 border-t border-slate-200 px-4 py-3">
      <p className="text-sm text-slate-600">{t('orders.pageOf', { page, pages })}</p>
      <div className="flex gap-2">
        <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeft className="size-4" aria-hidden="true" />
          {t('orders.previous')}
        </Button>
        <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          {t('orders.next')}
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
