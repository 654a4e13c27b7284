import type { HTMLAttributes } from 'react';
import { cn } from './cn';

/** A white surface with a soft border; `interactive` adds a hover lift for linked cards. */
export function Card({ className, interactive, ...props }: HTMLAttributes<HTMLDivElement> & { interactive?: boolean }) {
  return (
    <div
      className={cn(
        'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm',
        interactive && 'transition hover:-translate-y-0.5 hover:border-brand-200 hover:shadow-md',
        className,
      )}
      {...props}
    />
  );
}
