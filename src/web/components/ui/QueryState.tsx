import type { ReactNode } from 'react';
import { AlertTriangle, RotateCw, type LucideIcon } from 'lucide-react';
import { Button } from './Button';
import { Spinner } from './Spinner';

/** A list's or panel's loading state: a spinner, labelled when `label` is given, in a white box. */
export function LoadingBox({ label, spinnerClassName }: { label?: string; spinnerClassName?: string }) {
  return (
    <div className="grid min-h-48 place-items-center rounded-2xl border border-slate-200 bg-white">
      <Spinner label={label} className={spinnerClassName} />
    </div>
  );
}

/** A list's failed state: what failed, why, and a button to try again. */
export function LoadErrorBox({ title, detail, retryLabel, onRetry }: { title: string; detail: string; retryLabel: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-rose-200 bg-white px-6 py-10 text-center">
      <AlertTriangle className="size-7 text-rose-600" aria-hidden="true" />
      <p className="font-semibold text-slate-900">{title}</p>
      <p className="text-sm text-slate-600">{detail}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCw className="size-4" aria-hidden="true" />
        {retryLabel}
      </Button>
    </div>
  );
}

/** A list with nothing in it yet: an icon, a title, a line of help and the action that fills it. */
export function EmptyBox({ icon: Icon, title, text, children }: { icon: LucideIcon; title: string; text: string; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <Icon className="size-10 text-slate-300" aria-hidden="true" />
      <p className="font-semibold text-slate-900">{title}</p>
      <p className="text-sm text-slate-600">{text}</p>
      {children}
    </div>
  );
}
