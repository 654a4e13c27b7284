import { TrendingUp } from 'lucide-react';

/** The brand mark: a rising line on the brand colour, with the name beside it. */
export function Logo({ name, inverted = false }: { name: string; inverted?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <span className="grid size-9 place-items-center rounded-xl bg-gradient-to-br from-brand-500 to-violet-600 text-white shadow-sm">
        <TrendingUp className="size-5" aria-hidden="true" />
      </span>
      <span className={`text-xl font-extrabold tracking-tight ${inverted ? 'text-white' : 'text-slate-900'}`}>{name}</span>
    </span>
  );
}
