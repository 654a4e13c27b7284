/** A centred section title with an optional lead paragraph. */
export function SectionHeading({ id, title, subtitle, eyebrow }: { id: string; title: string; subtitle?: string; eyebrow?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      {eyebrow ? <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">{eyebrow}</p> : null}
      <h2 id={id} className="mt-2 text-3xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-4xl">
        {title}
      </h2>
      {subtitle ? <p className="mt-4 text-lg leading-relaxed text-slate-600">{subtitle}</p> : null}
    </div>
  );
}
