import type { ReactNode } from 'react';
import { cn } from '../../components/ui/cn';

const TONES = {
  success: 'bg-emerald-50 text-emerald-600 ring-emerald-100',
  info: 'bg-sky-50 text-sky-600 ring-sky-100',
  danger: 'bg-rose-50 text-rose-600 ring-rose-100',
  neutral: 'bg-brand-50 text-brand-600 ring-brand-100',
} as const;

/** The payment return pages' card: icon, title and message (in a live region), details, actions. */
export function ResultCard({
  tone,
  icon,
  title,
  children,
  details,
  actions,
  testId,
  status,
  live = true,
}: {
  tone: keyof typeof TONES;
  icon: ReactNode;
  title: string;
  children: ReactNode;
  details: { label: string; value: string; plain?: boolean }[];
  actions: ReactNode;
  testId: string;
  status: string;
  /** Its message in a live region of its own; false where the card stands in one already (app/streamed.tsx). */
  live?: boolean;
}) {
  return (
    <section
      aria-labelledby={`${testId}-title`}
      data-testid={testId}
      data-status={status}
      className="w-full max-w-lg rounded-3xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-10"
    >
      <div {...(live ? { role: 'status', 'aria-live': 'polite' as const } : {})}>
        <span className={cn('mx-auto grid size-16 place-items-center rounded-full ring-8', TONES[tone])}>{icon}</span>
        <h1 id={`${testId}-title`} className="mt-6 text-2xl font-extrabold tracking-tight text-slate-900 text-balance">
          {title}
        </h1>
        <div className="mt-3 text-slate-600">{children}</div>
      </div>
      <dl className="mt-6 divide-y divide-slate-200 rounded-xl border border-slate-200 text-left text-sm">
        {details.map((d) => (
          <div key={d.label} className="flex flex-col gap-0.5 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
            <dt className="text-slate-500">{d.label}</dt>
            <dd className={cn('text-slate-900 sm:text-right', d.plain ? 'break-words' : 'break-all font-mono')}>{d.value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{actions}</div>
    </section>
  );
}
