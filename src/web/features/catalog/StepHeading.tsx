/** A numbered step title of the order form. */
export function StepHeading({ id, step, title }: { id: string; step: number; title: string }) {
  return (
    <h2 id={id} className="mb-4 flex items-center gap-3 text-base font-bold text-slate-900">
      <span aria-hidden="true" className="grid size-7 place-items-center rounded-full bg-brand-600 text-xs font-bold text-white">
        {step}
      </span>
      {title}
    </h2>
  );
}
