import { cn } from './cn';

/** A spinning ring. With a `label` it is announced as a status; without one it is decorative. */
export function Spinner({ label, className }: { label?: string; className?: string }) {
  const ring = (
    <span
      aria-hidden="true"
      className={cn('inline-block size-6 animate-spin rounded-full border-[3px] border-brand-100 border-t-brand-600', className)}
    />
  );
  if (!label) return ring;
  return (
    <span role="status" className="inline-flex flex-col items-center gap-3 text-sm text-slate-600">
      {ring}
      <span>{label}</span>
    </span>
  );
}
