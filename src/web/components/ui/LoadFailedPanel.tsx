import { AlertTriangle, RotateCw } from 'lucide-react';
import { Button } from './Button';

/**
 * A whole screen's failed state (the order form's service list): a heading at `level`, what to do,
 * and a button to try again that spins while `retrying`.
 */
export function LoadFailedPanel({
  level: Heading,
  title,
  text,
  retryLabel,
  retrying,
  onRetry,
}: {
  level: 'h2' | 'h3';
  title: string;
  text: string;
  retryLabel: string;
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="flex flex-col items-center gap-4 rounded-2xl border border-rose-200 bg-white px-6 py-12 text-center shadow-sm">
      <span className="grid size-12 place-items-center rounded-full bg-rose-50 text-rose-600">
        <AlertTriangle className="size-6" aria-hidden="true" />
      </span>
      <div>
        <Heading className="text-lg font-bold text-slate-900">{title}</Heading>
        <p className="mt-1 text-sm text-slate-600">{text}</p>
      </div>
      <Button variant="outline" onClick={onRetry} disabled={retrying}>
        <RotateCw className={`size-4 ${retrying ? 'animate-spin' : ''}`} aria-hidden="true" />
        {retryLabel}
      </Button>
    </div>
  );
}
