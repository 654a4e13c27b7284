/** Pieces the team's conversation pages share; the page frame is the admin area's `AdminPage`. */

export const selectClass =
  'block w-full rounded-xl border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0';

export function LoadError({ text, retry, onRetry }: { text: string; retry: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-rose-200 bg-rose-50 p-8 text-center">
      <p className="text-sm font-medium text-rose-700">{text}</p>
      <button type="button" onClick={onRetry} className="rounded-lg bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 ring-1 ring-slate-300 hover:ring-brand-500">
        {retry}
      </button>
    </div>
  );
}

/** A list of the team's with nothing in it. */
export function EmptyNote({ text }: { text: string }) {
  return <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center text-sm text-slate-500">{text}</p>;
}
